// LiveFilters: filtered queries between live writes, at up to a million dogs.
//
// The sample's 50,000 dogs, copied `SCALE` times (ids and owners suffixed, each copy moved
// by 0.01° steps), then rounds of write + query: each write patches the `about` text of a
// dog drawn uniformly from all of them (a write no filter reads), and the query that follows
// is nearest k=5 at the next centre, at the new snapshot. Per filter — none, the breeds
// nearest 1% and 0.25% of the dogs, a breed no dog has — it prints the mean and the largest
// query time after a write, and the mean on the same centres with no writes between. The
// first `WARM` writes (the first query's posting lists, a frequent filter's bitmap) are not
// counted. Filters alternate query by query, so machine noise hits them alike.
//
// Environment: SCALE (default 20: 1,000,000 dogs), WRITES (counted, default 40,000), WARM
// (default 4,000), SCOUT_DATA (default ../data), SLOW_MS (print every query slower, with the CPU time its
// thread spent: less than the wall time means the query lost its core). Run: `bash scripts/bench-live-filters.sh`.
import Foundation
import ScoutCatalog
import ScoutCore
import ScoutEngine
import ScoutJSON
import ScoutTime

let env = ProcessInfo.processInfo.environment
let data = env["SCOUT_DATA"] ?? "../data"
let scale = Int(env["SCALE"] ?? "20")!, writes = Int(env["WRITES"] ?? "40000")!, warm = Int(env["WARM"] ?? "4000")!

func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

let engine = Engine(catalog: try! Catalog.load(dataDirectory: data))
let lines = try! String(contentsOfFile: "\(data)/sample/dogs.jsonl", encoding: .utf8).split(separator: "\n")
let parsed = lines.map { try! JSONReader.parse(String($0)) }
var breedCounts: [String: Int] = [:]
var originalIds: [String] = []
for copy in 0..<scale {
    var batch: [PointRecord] = []
    for v in parsed {
        guard case .object(let members) = v else { continue }
        let moved = members.map { (k, x) -> (String, JSONValue) in
            switch k {
            case "id", "owner_id": return (k, copy == 0 ? x : .string("\(x.string!)-\(copy)"))
            case "lat": return (k, .number(String(max(-89, min(89, x.double! + Double(copy % 5) * 0.01)))))
            case "lon": return (k, .number(String(x.double! + Double(copy / 5) * 0.01)))
            default: return (k, x)
            }
        }
        if copy == 0 {
            originalIds.append(members.first { $0.0 == "id" }!.1.string!)
            if let b = members.first(where: { $0.0 == "breed" })?.1.string { breedCounts[b, default: 0] += 1 }
        }
        batch.append(try! PointRecord.from(json: .object(moved), defaultKind: nil, path: ""))
    }
    try! engine.upsert(batch)
}
let dogs = engine.stats().first { $0.kind == "dog" }!.count
let centres = stride(from: 0, to: parsed.count, by: 50).map { i -> GeoPoint in
    GeoPoint(lat: parsed[i]["lat"]!.double! + Double(i % 7 - 3) * 0.004, lon: parsed[i]["lon"]!.double! + Double(i % 5 - 2) * 0.006)
}

let n = originalIds.count
@MainActor func closest(_ share: Double) -> String {
    breedCounts.keys.sorted().min { abs(Double(breedCounts[$0]!) - share * Double(n)) < abs(Double(breedCounts[$1]!) - share * Double(n)) }!
}
let unused = engine.catalog.breeds.breeds.map(\.name).sorted().first { breedCounts[$0] == nil }!
@MainActor func breed(_ name: String) -> RecordFilter {
    try! RecordFilter.parse(try! JSONReader.parse(#"{"breed":"\#(name)"}"#), kind: "dog", today: LocalDate.today,
                            breeds: engine.catalog.breeds, species: engine.catalog.species)
}
let (b1, b025) = (closest(0.01), closest(0.0025))
let filters: [(name: String, filter: RecordFilter)] = [
    ("none", .all),
    ("1% (\(b1), \(breedCounts[b1]! * scale) dogs)", breed(b1)),
    ("0.25% (\(b025), \(breedCounts[b025]! * scale) dogs)", breed(b025)),
    ("0 (\(unused))", breed(unused)),
]
print("dogs: \(dogs), writes counted: \(writes) (after \(warm)), centres: \(centres.count)")

// `FIRST=1`: instead, the first filtered query of an engine restored from a snapshot of
// these dogs, SETTLE_MS (default 0) after the restore (its posting lists are built on the
// spare core meanwhile), then the second.
if env["FIRST"] == "1" {
    let path = NSTemporaryDirectory() + "live-filters-\(getpid()).snap"
    try! engine.writeSnapshot(to: path, dataDirectory: data)
    defer { try? FileManager.default.removeItem(atPath: path) }
    let t0 = now()
    let restored = try! Engine(snapshot: path, timeZones: nil)
    let t1 = now()
    Thread.sleep(forTimeInterval: Double(env["SETTLE_MS"].flatMap(Int.init) ?? 0) / 1000)
    for (label, centre) in [("first", centres[0]), ("second", centres[1])] {
        let t = now()
        _ = try! restored.nearest(NearestQuery(kind: "dog", from: centre, k: 5, filter: filters[1].filter))
        print(String(format: "%@ filtered query (%@): %.1f ms", label, filters[1].name, Double(now() - t) / 1e6))
    }
    print(String(format: "restore: %.0f ms", Double(t1 - t0) / 1e6))
    exit(0)
}

var rng = SystemRandomNumberGenerator()
var written = 0
@MainActor func write() {
    written += 1
    let base = originalIds[Int.random(in: 0..<n, using: &rng)]
    let copy = Int.random(in: 0..<scale, using: &rng)
    _ = try! engine.patch(kind: "dog", record: copy == 0 ? base : "\(base)-\(copy)", set: [("about", .string("Patched \(written)."))])
}
/// The CPU time of the last query's thread (read only with SLOW_MS: reading it is a system
/// call, ~1 µs a query).
nonisolated(unsafe) var lastCPU: UInt64 = 0
let readsCPU = env["SLOW_MS"] != nil
func cpuNow() -> UInt64 {
    guard readsCPU else { return 0 }
    var ts = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
    return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
}
@MainActor func query(_ f: RecordFilter, _ c: GeoPoint) -> UInt64 {
    let t = now(), c0 = cpuNow()
    precondition(try! engine.nearest(NearestQuery(kind: "dog", from: c, k: 5, filter: f)).hits.count <= 5)
    lastCPU = cpuNow() - c0
    return now() - t
}

var total = [UInt64](repeating: 0, count: filters.count), largest = total, counted = [Int](repeating: 0, count: filters.count)
for i in 0..<(warm + writes) {
    let f = i % filters.count
    write()
    let t = query(filters[f].filter, centres[i % centres.count])
    if i >= warm { total[f] += t; largest[f] = max(largest[f], t); counted[f] += 1 }
    if let slow = env["SLOW_MS"].flatMap(Double.init), Double(t) > slow * 1e6 {
        print(String(format: "write %d, filter %@: %.1f ms (cpu %.1f ms)", written, filters[f].name, Double(t) / 1e6, Double(lastCPU) / 1e6))
    }
}
// The same queries with no writes between (one pass to warm, one timed).
var still = [UInt64](repeating: 0, count: filters.count)
for pass in 0..<2 {
    for i in 0..<(4 * centres.count) {
        let f = i % filters.count
        let t = query(filters[f].filter, centres[i % centres.count])
        if pass == 1 { still[f] += t }
    }
}
print("filter | query after a write, mean | largest | no writes between, mean | after a write / no writes")
for (f, (name, _)) in filters.enumerated() {
    let after = Double(total[f]) / Double(counted[f]) / 1000, quiet = Double(still[f]) / Double(centres.count) / 1000
    print(String(format: "%@ | %.1f us | %.1f ms | %.1f us | %.2fx", name, after, Double(largest[f]) / 1e6, quiet, after / quiet))
}
