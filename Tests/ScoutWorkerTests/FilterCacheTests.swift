import Dispatch
import Foundation
import ScoutCatalog
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
        let long = JSONValue.string(String(repeating: "x", count: RecordFilter.maximumSignatureBytes))
        #expect(FilterCache.key(.object([("owner_id", long)]), kind: "dog", today: LocalDate(year: 2026, month: 11, day: 24)!) == nil)
    }
}
