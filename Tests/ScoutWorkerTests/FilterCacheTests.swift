import Dispatch
import Foundation
import ScoutCatalog
import ScoutCatalogJSON
import ScoutEngine
import ScoutJSON
import ScoutTestSupport
import ScoutTime
@testable import ScoutWorker
import Synchronization
import Testing

/// A filter parsed once per thread answers as a filter parsed anew: the same bytes, the
/// same breeds reported under `resolved`, for any filter and from any thread; and the cache
/// holds at most its capacity.
@Suite struct FilterCacheTests {
    static let engine: Engine = {
        Repository.ensureSampleDogs()
        let e = Engine(catalog: try! Catalog.load(dataDirectory: Repository.data), privacy: .exact)
        try! e.load(path: Repository.data + "/sample/dogs.jsonl")
        return e
    }()

    @Test func aCachedFilterAnswersAsANewOne() throws {
        let filters = [#"{"breed":"Lab"}"#, #"{"breed":["Alsatian","Beagle"],"available":true}"#, #"{"weight_kg":{"min":5,"max":25}}"#,
                       #"{"breed":"Labrador Retriever","sex":"female"}"#, #"{"breed":"no such breed"}"#, #"{"breed":"Chinook"}"#]
        let requests = filters.enumerated().flatMap { i, f in
            [#"{"id":\#(i),"op":"nearest","kind":"dog","from":{"lat":53.35,"lon":-6.26},"k":3,"filter":\#(f),"explain":true}"#,
             #"{"id":\#(i),"op":"search","kind":"dog","near":{"lat":51.5,"lon":-0.12},"radius_m":9000,"filter":\#(f)}"#]
        }
        // A new worker (empty caches) per request is the reference.
        let want = requests.map { Worker(engine: Self.engine).respond(to: ArraySlice(Array($0.utf8))) }
        #expect(String(decoding: want[0], as: UTF8.self).contains(#""resolved""#), "the alias is reported")
        let worker = Worker(engine: Self.engine)
        let got = Mutex([[UInt8]](repeating: [], count: requests.count * 6))
        DispatchQueue.concurrentPerform(iterations: 3) { lane in
            for pass in 0..<2 {
                for (i, r) in requests.enumerated() {
                    let answer = worker.respond(to: ArraySlice(Array(r.utf8)))
                    got.withLock { $0[(lane * 2 + pass) * requests.count + i] = answer }
                }
            }
        }
        let answers = got.withLock { $0 }
        for (k, a) in answers.enumerated() {
            #expect(a == want[k % requests.count], "request \(k % requests.count), pass \(k / requests.count)")
        }
    }

    @Test func theCacheHoldsAtMostItsCapacity() throws {
        let cache = FilterCache()
        let all = RecordFilter.all
        for i in 0..<(FilterCache.capacity * 3) {
            let key = FilterCache.key(.object([("owner_id", .string("o\(i)"))]), kind: "dog", today: LocalDate(year: 2026, month: 11, day: 24)!)
            cache.keep(try #require(key), (all, []))
            #expect(cache.entries.count <= FilterCache.capacity)
        }
        let long = JSONValue.string(String(repeating: "x", count: RecordFilter.maximumCachedBytes))
        #expect(FilterCache.key(.object([("owner_id", long)]), kind: "dog", today: LocalDate(year: 2026, month: 11, day: 24)!) == nil)
    }
}

/// The filters a thread found last are found again by comparing the request's JSON, without
/// a key: only JSON written alike, for the same kind and day, finds one.
@Suite struct RecentFilterTests {
    static let day = LocalDate(year: 2026, month: 11, day: 24)!

    @Test func onlyTheSameJSONKindAndDayFindARecentFilter() throws {
        let cache = FilterCache()
        let json = try JSONReader.parse(Array(#"{"weight_kg":{"min":5,"max":25},"breed":"Café au lait"}"#.utf8))
        let filter = try RecordFilter.parse(json, kind: "dog", today: Self.day)
        cache.found(json, kind: "dog", today: Self.day, (filter, []))
        let again = try JSONReader.parse(Array(#"{ "weight_kg": {"min": 5, "max": 25}, "breed": "Café au lait" }"#.utf8))
        #expect(cache.recentlyFound(again, kind: "dog", today: Self.day)?.filter == filter)
        // Another kind or day: not this filter (a filter is read for a kind, ages on a day).
        #expect(cache.recentlyFound(again, kind: "gym", today: Self.day) == nil)
        #expect(cache.recentlyFound(again, kind: "dog", today: LocalDate(year: 2026, month: 11, day: 25)!) == nil)
        // Written otherwise, though JSONValue's == calls them equal: 5.0 for 5, "é" decomposed.
        let otherNumber = try JSONReader.parse(Array(#"{"weight_kg":{"min":5.0,"max":25},"breed":"Café au lait"}"#.utf8))
        let otherString = try JSONReader.parse(Array("{\"weight_kg\":{\"min\":5,\"max\":25},\"breed\":\"Cafe\u{301} au lait\"}".utf8))
        #expect(otherNumber == json && otherString == json)
        #expect(cache.recentlyFound(otherNumber, kind: "dog", today: Self.day) == nil)
        #expect(cache.recentlyFound(otherString, kind: "dog", today: Self.day) == nil)
        // Members in another order, or one more: another filter.
        let reordered = try JSONReader.parse(Array(#"{"breed":"Café au lait","weight_kg":{"min":5,"max":25}}"#.utf8))
        let more = try JSONReader.parse(Array(#"{"weight_kg":{"min":5,"max":25},"breed":"Café au lait","available":true}"#.utf8))
        #expect(cache.recentlyFound(reordered, kind: "dog", today: Self.day) == nil)
        #expect(cache.recentlyFound(more, kind: "dog", today: Self.day) == nil)
    }

    @Test func theRecentFiltersAreTheLastFewFound() throws {
        let cache = FilterCache()
        let jsons = try (0..<(FilterCache.recentCapacity + 2)).map { i in try JSONReader.parse(Array(#"{"owner_id":"o\#(i)"}"#.utf8)) }
        let filters = try jsons.map { try RecordFilter.parse($0, kind: "dog", today: Self.day) }
        for (j, f) in zip(jsons, filters) { cache.found(j, kind: "dog", today: Self.day, (f, [])) }
        for (i, j) in jsons.enumerated() {
            let kept = i >= jsons.count - FilterCache.recentCapacity
            #expect(cache.recentlyFound(j, kind: "dog", today: Self.day)?.filter == (kept ? filters[i] : nil), "filter \(i)")
        }
    }
}
