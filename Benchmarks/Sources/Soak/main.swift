// Soak: an index that lives forever.
//
// Tens of millions of single-record upserts over a fixed set of ids, through `PointSet` and
// through `Engine.upsert` with gym records, printing the resident set size (from
// /proc/self/statm), the index's bytes and the write rate every `--every` writes. With a
// fixed live set, memory must stay flat: entry slots and epochs are reclaimed by compaction.
//
// Usage: Soak [--writes 50000000] [--every 5000000] [--ids 2000,100000]
//             [--engine-writes 20000000] [--engine-ids 2000] [--seed 1]
// Run through `bash scripts/soak.sh` (release build).
import Foundation
import ScoutCatalog
import ScoutCore
import ScoutEngine
import ScoutIndex
import ScoutJSON

struct Options {
    var writes = 50_000_000
    var every = 5_000_000
    var ids = [2_000, 100_000]
    var engineWrites = 20_000_000
    var engineIds = 2_000
    var seed: UInt64 = 1

    init(_ args: [String]) {
        var i = 0
        func value() -> String {
            i += 1
            guard i < args.count else { fatalError("\(args[i - 1]) needs a value") }
            return args[i]
        }
        while i < args.count {
            switch args[i] {
            case "--writes": writes = Int(value())!
            case "--every": every = Int(value())!
            case "--ids": ids = value().split(separator: ",").map { Int($0)! }
            case "--engine-writes": engineWrites = Int(value())!
            case "--engine-ids": engineIds = Int(value())!
            case "--seed": seed = UInt64(value())!
            default: fatalError("unknown option \(args[i])")
            }
            i += 1
        }
    }
}

/// Resident set size in MiB, from /proc/self/statm (second field, in pages).
func rssMiB() -> Double {
    guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return .nan }
    let fields = text.split(separator: " ")
    guard fields.count > 1, let pages = Double(fields[1]) else { return .nan }
    return pages * Double(sysconf(Int32(_SC_PAGESIZE))) / 1_048_576
}

func now() -> Double {
    var t = timespec()
    clock_gettime(CLOCK_MONOTONIC, &t)
    return Double(t.tv_sec) + Double(t.tv_nsec) * 1e-9
}

/// Positions around Ireland, where the sample gyms are: the pool every write draws from.
func positions(_ rng: inout SplitMix64, count: Int) -> [GeoPoint] {
    (0..<count).map { _ in GeoPoint(lat: 51.4 + 4 * rng.unit(), lon: -10.5 + 5 * rng.unit()) }
}

func row(_ cells: [String]) { print("| " + cells.joined(separator: " | ") + " |"); fflush(nil) }

func header(_ title: String) {
    print("\n### \(title)\n")
    row(["writes", "RSS MiB", "index bytes", "entry store bytes", "entry slots", "compactions", "writes/s"])
    row(["---:", "---:", "---:", "---:", "---:", "---:", "---:"])
}

/// Single-record upserts over `idCount` ids through `PointSet`.
func soakPointSet(idCount: Int, _ o: Options) throws {
    var rng = SplitMix64(state: o.seed &+ UInt64(idCount))
    let ids = (0..<idCount).map { "gym-\($0)" }
    let pool = positions(&rng, count: 1 << 16)
    let set = PointSet()
    try set.upsert(ids.indices.map { PointSet.Record(id: ids[$0], point: pool[$0 & 0xFFFF]) })
    set.waitForMerges()
    header("PointSet, \(idCount) ids, \(o.writes) single-record upserts")
    func report(_ writes: Int, _ rate: Double) {
        let s = set.snapshot()
        row([String(writes), String(format: "%.1f", rssMiB()), String(set.indexMemoryBytes), String(set.entryStoreBytes),
             String(s.entrySlots), String(s.generation), writes == 0 ? "–" : String(format: "%.0f", rate)])
    }
    report(0, 0)
    var t0 = now(), done = 0
    while done < o.writes {
        let n = min(o.every, o.writes - done)
        for _ in 0..<n {
            try set.upsert([PointSet.Record(id: ids[rng.below(idCount)], point: pool[rng.below(pool.count)])])
        }
        done += n
        let t1 = now()
        report(done, Double(n) / (t1 - t0))
        t0 = now()
    }
    set.waitForMerges()
    precondition(set.count == idCount, "lost ids: \(set.count) of \(idCount)")
}

/// Single-record upserts of gym records over `idCount` ids through `Engine.upsert`.
func soakEngine(idCount: Int, _ o: Options) throws {
    var rng = SplitMix64(state: o.seed &+ 7)
    let pool = positions(&rng, count: 1 << 16)
    let types = Gym.types
    let fields: [[(String, JSONValue)]] = (0..<idCount).map { i in
        [("name", .string("Gym \(i)")), ("type", .string(types[i % types.count])), ("timezone", .string("Europe/Dublin")),
         ("address", .object([("town", .string(i % 2 == 0 ? "Dublin" : "Cork"))])),
         ("votes", .object([("up", .number(String(i % 50))), ("down", .number(String(i % 7)))]))]
    }
    let engine = Engine()
    func record(_ i: Int) -> PointRecord {
        PointRecord(id: "gym-\(i)", kind: "gym", point: pool[rng.below(pool.count)], fields: fields[i])
    }
    _ = try engine.upsert((0..<idCount).map(record))
    header("Engine.upsert, \(idCount) gyms, \(o.engineWrites) single-record upserts")
    func report(_ writes: Int, _ rate: Double) {
        let gyms = engine.stats().first { $0.kind == "gym" }
        row([String(writes), String(format: "%.1f", rssMiB()), String(gyms?.indexBytes ?? 0), "–", "–", "–",
             writes == 0 ? "–" : String(format: "%.0f", rate)])
    }
    report(0, 0)
    var t0 = now(), done = 0
    while done < o.engineWrites {
        let n = min(o.every, o.engineWrites - done)
        for _ in 0..<n { _ = try engine.upsert([record(rng.below(idCount))]) }
        done += n
        let t1 = now()
        report(done, Double(n) / (t1 - t0))
        t0 = now()
    }
}

let options = Options(Array(CommandLine.arguments.dropFirst()))
print("Soak: RSS from /proc/self/statm; index bytes = PointSet.indexMemoryBytes (trees + removal epochs);")
print("entry store bytes = chunks of entries and epochs (ids' and payloads' heap not counted).")
print("Start RSS \(String(format: "%.1f", rssMiB())) MiB")
do {
    for n in options.ids { try soakPointSet(idCount: n, options) }
    if options.engineWrites > 0 { try soakEngine(idCount: options.engineIds, options) }
} catch {
    print("soak failed: \(error)")
    exit(1)
}
