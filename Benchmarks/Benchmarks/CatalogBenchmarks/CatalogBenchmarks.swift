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
    for f in ["dogs", "gyms", "shelters", "animals"] { try! e.load(path: "\(dataDirectory)/sample/\(f).jsonl") }
    return e
}()

/// Centres near records of a kind (every 50th record), jittered by the record's index.
func centres(_ kind: RecordKind) -> [GeoPoint] {
    let all = try! engine.search(SearchQuery(kind: kind, area: .box(GeoBox(west: -180, south: -90, east: 180, north: 90)), limit: 100_000))
    return stride(from: 0, to: all.hits.count, by: max(1, all.hits.count / 1000)).map { i in
        let p = all.hits[i].point!
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

// The selectivity sweep (issue 15): the filters of Benchmarks/peers/filtered_nearest.py on the
// 50,000 dogs — none, available and 5–25 kg (~30%), the breed closest to 1% of the dogs, the
// one closest to 0.25%, and a breed no dog has — and two numeric-only ones (the heaviest
// 0.25% of the dogs, a weight none has) for nearest k=5 and radius 4 km and 10 km
// (limit 20, by distance). Centres: those of the PostGIS harness's requests when it has run
// (`.build/peers/filtered_nearest/requests-100pct.jsonl`, the same 1,000 centres PostgreSQL
// was timed on), else the dog centres above.
let sweepCentres: [GeoPoint] = {
    let path = ProcessInfo.processInfo.environment["SCOUT_SWEEP_REQUESTS"] ?? "../.build/peers/filtered_nearest/requests-100pct.jsonl"
    guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return dogCentres }
    return text.split(separator: "\n").map { line in
        let from = try! JSONReader.parse(Array(line.utf8))["from"]!
        return GeoPoint(lat: from["lat"]!.double!, lon: from["lon"]!.double!)
    }
}()
let sweepFilters: [(name: String, filter: RecordFilter)] = {
    let breeds = engine.catalog.breeds
    var counts: [String: Int] = [:]
    let all = try! engine.search(SearchQuery(kind: "dog", area: .box(GeoBox(west: -180, south: -90, east: 180, north: 90)), limit: 100_000))
    for h in all.hits { if case .dog(let d) = h.record { counts[d.breed.name, default: 0] += 1 } }
    let n = all.hits.count
    let names = breeds.breeds.map(\.name).filter { $0 != breeds.mixed.name }
    func closest(_ share: Double) -> String {
        names.filter { counts[$0, default: 0] > 0 }.min {
            (abs(Double(counts[$0]!) - share * Double(n)), $0) < (abs(Double(counts[$1]!) - share * Double(n)), $1)
        }!
    }
    let none = names.sorted().first { counts[$0, default: 0] == 0 }!
    func parse(_ json: String) -> RecordFilter {
        try! RecordFilter.parse(try! JSONReader.parse(json), kind: "dog", today: today, breeds: breeds, species: engine.catalog.species)
    }
    let b1 = closest(0.01), b025 = closest(0.0025)
    // Numeric conditions alone (value columns): the heaviest 0.25% of the dogs, and a weight none has.
    let weights = all.hits.compactMap { h -> Double? in if case .dog(let d) = h.record { d.weightKg } else { nil } }.sorted(by: >)
    let heavy = weights[n / 400 - 1], heaviest = weights[0]
    let heavyCount = weights.filter { $0 >= heavy }.count
    return [("100%", .all),
            ("30%", parse(#"{"available":true,"weight_kg":{"min":5,"max":25}}"#)),
            ("1% (\(b1), \(counts[b1]!))", parse(#"{"breed":"\#(b1)"}"#)),
            ("0.25% (\(b025), \(counts[b025]!))", parse(#"{"breed":"\#(b025)"}"#)),
            ("0 (\(none))", parse(#"{"breed":"\#(none)"}"#)),
            ("0.25% by weight (at least \(heavy) kg, \(heavyCount))", parse(#"{"weight_kg":{"min":\#(heavy)}}"#)),
            ("0 by weight (over \(heaviest) kg)", parse(#"{"weight_kg":{"min":\#(heaviest + 0.1)}}"#))]
}()

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
    // Sub-microsecond queries here: nanoseconds. Per query shape and filter: the
    // distribution of single queries (p50, p99), and the mean over every sweep centre.
    let sweep = Benchmark.Configuration(metrics: [.wallClock, .throughput], timeUnits: .nanoseconds, warmupIterations: 20,
                                        maxDuration: .seconds(2), maxIterations: 20_000)
    let meanConfiguration = Benchmark.Configuration(metrics: [.custom("mean ns/query", polarity: .prefersSmaller)],
                                                    warmupIterations: 1, maxDuration: .seconds(5), maxIterations: 5)
    let shapes: [(name: String, query: @Sendable (GeoPoint, RecordFilter) -> Void)] = [
        ("nearest k=5", { c, f in blackHole(try! engine.nearest(NearestQuery(kind: "dog", from: c, k: 5, filter: f))) }),
        ("radius 4 km limit 20", { c, f in
            blackHole(try! engine.search(SearchQuery(kind: "dog", area: .radius(center: c, meters: 4_000), limit: 20, sort: .distance, filter: f)))
        }),
        ("radius 10 km limit 20", { c, f in
            blackHole(try! engine.search(SearchQuery(kind: "dog", area: .radius(center: c, meters: 10_000), limit: 20, sort: .distance, filter: f)))
        }),
    ]
    for (name, filter) in sweepFilters {
        for shape in shapes {
            Benchmark("sweep \(shape.name) / \(name)", configuration: sweep) { b in
                for _ in b.scaledIterations { shape.query(next(sweepCentres), filter) }
            }
            Benchmark("sweep mean \(shape.name) / \(name)", configuration: meanConfiguration) { b in
                let started = DispatchTime.now().uptimeNanoseconds
                for c in sweepCentres { shape.query(c, filter) }
                b.measurement(.custom("mean ns/query"), Int(DispatchTime.now().uptimeNanoseconds - started) / sweepCentres.count)
            }
        }
    }
    Benchmark("gyms radius 4 km / text \"fitnes\" (typo, prefix) by relevance") { b in
        for _ in b.scaledIterations {
            blackHole(try! engine.search(SearchQuery(kind: "gym", area: .radius(center: next(dogCentres), meters: 4_000), limit: 20,
                                                     text: "fitnes")))
        }
    }
}
