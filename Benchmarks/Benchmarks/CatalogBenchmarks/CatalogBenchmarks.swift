import Benchmark
import Foundation
import ScoutCatalog
import ScoutCatalogJSON
import ScoutCore
import ScoutEngine
import ScoutJSON
import ScoutTime

// The sample catalogue (50,000 dogs, 5,000 gyms, 500 shelters with 10,000 animals): a
// filtered query against the same query unfiltered, in the same run, so the ratio is the
// cost of the filter or the text. Query centres: 1,000 sample dogs' and shelters' towns.

let dataDirectory = ProcessInfo.processInfo.environment["SCOUT_DATA"] ?? "../data"

let engine: Engine = {
    let e = Engine(catalog: try! Catalog.load(dataDirectory: dataDirectory))
    for f in ["dogs", "gyms", "shelters"] { try! e.load(path: "\(dataDirectory)/sample/\(f).jsonl") }
    return e
}()

/// Centres near records of a kind (every 50th record), jittered by the record's index.
func centres(_ kind: String) -> [GeoPoint] {
    let all = try! engine.search(SearchQuery(kind: kind, area: .box(GeoBox(west: -180, south: -90, east: 180, north: 90)), limit: 100_000))
    return stride(from: 0, to: all.hits.count, by: max(1, all.hits.count / 1000)).map { i in
        let p = all.hits[i].point
        return GeoPoint(lat: p.lat + Double(i % 7 - 3) * 0.004, lon: p.lon + Double(i % 5 - 2) * 0.006)
    }
}

let dogCentres = centres("dog")
let shelterCentres = centres("shelter")
let today = LocalDate.today
let friendly = try! RecordFilter.parse(try! JSONReader.parse(#"{"good_with_dogs":{"min":4},"handler_experience":3,"size":["small","medium"]}"#),
                                       kind: "dog", today: today)
let rareFilter = try! RecordFilter.parse(try! JSONReader.parse(#"{"breed":["Border Collie","Whippet"],"temperament":{"min":4,"min_count":3}}"#),
                                         kind: "dog", today: today)
let catFilter = try! RecordFilter.parse(try! JSONReader.parse(#"{"animal":{"species":"cat","age_years":{"max":2},"adoptable":true}}"#),
                                        kind: "shelter", today: today)

nonisolated(unsafe) var cursor = 0
func next(_ c: [GeoPoint]) -> GeoPoint {
    cursor = (cursor + 1) % c.count
    return c[cursor]
}

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(metrics: [.wallClock, .mallocCountTotal, .throughput], timeUnits: .microseconds,
                                           warmupIterations: 20, maxDuration: .seconds(3), maxIterations: 5_000)
    _ = engine.kinds

    Benchmark("dogs nearest k=5 / unfiltered (baseline)") { b in
        for _ in b.scaledIterations { blackHole(try! engine.nearest(NearestQuery(kind: "dog", from: next(dogCentres), k: 5))) }
    }
    Benchmark("dogs nearest k=5 / friendly, small or medium, easy (common filter)") { b in
        for _ in b.scaledIterations { blackHole(try! engine.nearest(NearestQuery(kind: "dog", from: next(dogCentres), k: 5, filter: friendly))) }
    }
    Benchmark("dogs nearest k=5 / two breeds, well rated (rare filter)") { b in
        for _ in b.scaledIterations { blackHole(try! engine.nearest(NearestQuery(kind: "dog", from: next(dogCentres), k: 5, filter: rareFilter))) }
    }
    Benchmark("dogs radius 10 km limit 20 / unfiltered (baseline)") { b in
        for _ in b.scaledIterations {
            blackHole(try! engine.search(SearchQuery(kind: "dog", area: .radius(center: next(dogCentres), meters: 10_000), limit: 20)))
        }
    }
    Benchmark("dogs radius 10 km limit 20 / friendly filter") { b in
        for _ in b.scaledIterations {
            blackHole(try! engine.search(SearchQuery(kind: "dog", area: .radius(center: next(dogCentres), meters: 10_000), limit: 20, filter: friendly)))
        }
    }
    Benchmark("shelters radius 50 km / unfiltered (baseline)") { b in
        for _ in b.scaledIterations {
            blackHole(try! engine.search(SearchQuery(kind: "shelter", area: .radius(center: next(shelterCentres), meters: 50_000), limit: 20)))
        }
    }
    Benchmark("shelters radius 50 km / text \"schronisko\" by relevance") { b in
        for _ in b.scaledIterations {
            blackHole(try! engine.search(SearchQuery(kind: "shelter", area: .radius(center: next(shelterCentres), meters: 50_000), limit: 20,
                                                     text: "schronisko")))
        }
    }
    Benchmark("shelters radius 50 km / text \"rescue\" + young adoptable cat") { b in
        for _ in b.scaledIterations {
            blackHole(try! engine.search(SearchQuery(kind: "shelter", area: .radius(center: next(shelterCentres), meters: 50_000), limit: 20,
                                                     filter: catFilter, text: "rescue")))
        }
    }
    Benchmark("gyms radius 4 km / text \"fitnes\" (typo, prefix) by relevance") { b in
        for _ in b.scaledIterations {
            blackHole(try! engine.search(SearchQuery(kind: "gym", area: .radius(center: next(dogCentres), meters: 4_000), limit: 20,
                                                     text: "fitnes")))
        }
    }
}
