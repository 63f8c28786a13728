import Foundation
import PropertyBased
import ScoutCore
import ScoutGeodesy
@testable import ScoutIndex
import ScoutTestSupport
import Synchronization
import Testing

/// Answers of a few fixed queries, by id and millimetre distance, to compare one snapshot
/// at two moments (before and after the set it came from was compacted).
private func answers(_ s: PointSet.Snapshot, _ queries: [(GeoPoint, Double, GeoBox)]) -> [[String]] {
    queries.map { c, r, box in
        s.entries(in: box).map { s.id(of: $0) }.sorted()
            + ["|"] + s.entries(within: r, of: c).map { s.id(of: $0) }.sorted()
            + ["|"] + s.nearest(to: c, k: 7).map { "\(s.id(of: $0.ref))@\($0.distance)" }
            + ["|"] + s.allLive().map { "\(s.id(of: $0))=\(s.entry($0).point)" }.sorted()
    }
}

private func queries(_ n: Int, _ cloud: [GeoPoint], _ rng: inout SplitMix64) -> [(GeoPoint, Double, GeoBox)] {
    (0..<n).map { _ in (rng.chance(0.5) ? rng.pick(cloud) : Scenario.center(&rng), Scenario.radius(&rng), Scenario.box(&rng, edgesFrom: cloud)) }
}

@Suite struct CompactionTests {
    /// Random interleavings of upserts, removals, packs, merges and forced compactions over
    /// a small id pool, with a small slack so that compaction and renumbering happen every
    /// few hundred writes; the invariants are walked and box, radius and nearest answers
    /// compared with a brute-force model at every step.
    @Test func rewriteCyclesMatchBruteForceAcrossCompactions() async {
        await propertyCheck(count: TestScale.count(short: 5, full: 10), input: Gen.int(in: 0...Int(Int32.max))) { seed in
            var rng = SplitMix64(seed: seed)
            let set = PointSet(compactionSlack: rng.int(0...300))
            var model: [String: GeoPoint] = [:]
            let idPool = rng.int(20...600)
            let cloud = Scenario.cloud(count: 1500, &rng)
            var old: [(PointSet.Snapshot, [String: GeoPoint])] = []
            var problems: [String] = []
            for step in 0..<400 {
                switch rng.unit() {
                case ..<0.6:
                    let n = rng.chance(0.05) ? rng.int(200...1500) : rng.int(1...30)
                    let batch = (0..<n).map { _ in PointSet.Record(id: "id\(rng.int(0...idPool))", point: rng.pick(cloud)) }
                    try! set.upsert(batch)
                    for r in batch { model[r.id] = r.point }
                case ..<0.85:
                    let ids = (0..<rng.int(0...40)).map { _ in "id\(rng.int(0...idPool))" }
                    set.remove(ids: ids)
                    for id in ids { model[id] = nil }
                case ..<0.9: set.pack()
                case ..<0.93: set.compact()
                case ..<0.96: set.waitForMerges()
                default: old.append((set.snapshot(), model))
                }
                problems += set._invariantViolations().map { "step \(step): \($0)" }
                if step % 4 == 0 { problems += verify(set.snapshot(), against: model, &rng, queries: 1).map { "step \(step): \($0)" } }
                if !problems.isEmpty { break }
            }
            set.waitForMerges()
            let s = set.snapshot()
            problems += verify(s, against: model, &rng, queries: 5).map { "final: \($0)" }
            if s.generation < 3 { problems.append("only \(s.generation) compactions") }
            if s.entrySlots > 2 * max(model.count, set.compactionSlack) + 1 {
                problems.append("\(s.entrySlots) slots for \(model.count) live")
            }
            for (o, m) in old where problems.isEmpty {
                problems += o._invariantViolations().map { "old snapshot \(o.version): \($0)" }
                problems += verify(o, against: m, &rng, queries: 1).map { "old snapshot \(o.version) gen \(o.generation): \($0)" }
            }
            #expect(problems.isEmpty, "\(problems.prefix(6).joined(separator: "\n"))")
        }
    }

    /// Random upserts, removals and compactions, keeping every snapshot: between any two
    /// snapshots of one generation, the removal log gives exactly the entries live at the
    /// older and removed at the newer (those below the older's slots), each once, so caches
    /// carried between them (the engine's posting lists) see every removal without a scan.
    @Test func theRemovalLogGivesExactlyTheEntriesRemovedBetweenTwoSnapshots() async {
        await propertyCheck(count: TestScale.count(short: 4, full: 8), input: Gen.int(in: 0...Int(Int32.max))) { seed in
            var rng = SplitMix64(seed: seed)
            let set = PointSet(compactionSlack: rng.int(0...200))
            let idPool = rng.int(20...400)
            let cloud = Scenario.cloud(count: 500, &rng)
            var kept: [PointSet.Snapshot] = [set.snapshot()]
            var problems: [String] = []
            for _ in 0..<150 {
                switch rng.unit() {
                case ..<0.55:
                    let n = rng.chance(0.05) ? rng.int(100...600) : rng.int(1...20)
                    try! set.upsert((0..<n).map { _ in PointSet.Record(id: "id\(rng.int(0...idPool))", point: rng.pick(cloud)) })
                case ..<0.85: set.remove(ids: (0..<rng.int(0...30)).map { _ in "id\(rng.int(0...idPool))" })
                case ..<0.9: set.pack()
                case ..<0.95: set.compact()
                default: set.waitForMerges()
                }
                kept.append(set.snapshot())
            }
            var pairs = 0
            for (i, a) in kept.enumerated() {
                for b in kept[(i + 1)...] where b.generation == a.generation && problems.count < 6 {
                    pairs += 1
                    let got = b.entriesRemoved(since: a.removalPosition, below: a.entrySlots)
                    let want = (0..<Int32(a.entrySlots)).filter { a.isLiveEntry($0) && !b.isLiveEntry($0) }
                    if got.sorted() != want {
                        problems.append("\(a.version)→\(b.version) gen \(a.generation): logged \(got.sorted().prefix(8)), removed \(want.prefix(8))")
                    }
                }
            }
            problems += kept.last!._invariantViolations()
            if set.snapshot().generation < 2 { problems.append("only \(set.snapshot().generation) compactions") }
            if pairs < 100 { problems.append("only \(pairs) pairs of one generation") }
            #expect(problems.isEmpty, "\(problems.prefix(6).joined(separator: "\n"))")
        }
    }

    /// Readers on other threads query snapshots while the writer compacts every few hundred
    /// writes: each snapshot answers box, radius and nearest exactly like a brute force over
    /// its own live entries, and passes its invariant checks.
    @Test func readersSeeWholeEpochsDuringCompactions() async {
        let set = PointSet(compactionSlack: 32)
        var rng = SplitMix64(seed: 77)
        let cloud = Scenario.cloud(count: 2000, &rng)
        try! set.upsert((0..<400).map { PointSet.Record(id: "q\($0)", point: rng.pick(cloud)) })
        let done = Flag()
        let failures = await withTaskGroup(of: [String].self) { group in
            group.addTask {
                var rng = SplitMix64(seed: 8)
                for _ in 0..<3000 {
                    if rng.chance(0.85) {
                        try! set.upsert((0..<rng.int(1...20)).map { _ in PointSet.Record(id: "q\(rng.int(0...450))", point: rng.pick(cloud)) })
                    } else {
                        set.remove(ids: (0..<rng.int(1...10)).map { _ in "q\(rng.int(0...450))" })
                    }
                    if rng.chance(0.01) { await Task.yield() }
                }
                done.set()
                return set.compactionCount >= 20 ? [] : ["only \(set.compactionCount) compactions"]
            }
            for reader in 0..<2 {
                group.addTask {
                    var rng = SplitMix64(seed: 500 + UInt64(reader))
                    var problems: [String] = []
                    var rounds = 0
                    // At least 10 rounds, and at most 300: readers that ran until the writer is done
                    // kept both cores busy for the whole parallel suite, the writer waiting behind them.
                    while (!done.isSet || rounds < 10) && rounds < 300 && problems.isEmpty {
                        rounds += 1
                        let s = set.snapshot()
                        let refs = s.allLive()
                        let live = refs.map { s.entry($0) }
                        if live.count != s.liveCount { problems.append("allLive \(live.count) vs liveCount \(s.liveCount)") }
                        let box = Scenario.box(&rng, edgesFrom: cloud)
                        let wantBox = Set(zip(refs, live).filter { box.contains($0.1.point) }.map(\.0))
                        if Set(s.entries(in: box)) != wantBox { problems.append("version \(s.version): box \(box)") }
                        let c = rng.pick(cloud), r = Scenario.radius(&rng)
                        let wantR = Set(zip(refs, live).filter { Geodesic.distance(lat1: c.lat, lon1: c.lon, lat2: $0.1.lat, lon2: $0.1.lon) <= r }.map(\.0))
                        if Set(s.entries(within: r, of: c)) != wantR { problems.append("version \(s.version): radius \(r) at \(c)") }
                        let k = rng.int(1...20)
                        let wantK = zip(refs, live).map { ($0.0, Oracle.mm($0.1.point, c), $0.1.id) }.sorted { ($0.1, $0.2) < ($1.1, $1.2) }.prefix(k).map(\.0)
                        if s.nearest(to: c, k: k).map(\.ref) != Array(wantK) { problems.append("version \(s.version): nearest k \(k)") }
                        if rounds % 8 == 0 { problems += s._invariantViolations().map { "version \(s.version): \($0)" } }
                        await Task.yield()
                    }
                    return problems.map { "reader \(reader): \($0)" }
                }
            }
            var all: [String] = []
            for await f in group { all += f }
            return all
        }
        #expect(failures.isEmpty, "\(failures.prefix(5).joined(separator: "\n"))")
        set._checkInvariants()
    }

    /// A snapshot taken before compactions answers box, radius, nearest and allLive
    /// exactly as it did, from the old chunks, however many compactions followed.
    @Test func oldSnapshotsAnswerAsAtTheirEpochAfterCompaction() throws {
        var rng = SplitMix64(seed: 11)
        let cloud = Scenario.cloud(count: 3000, &rng)
        let set = PointSet(compactionSlack: 500)
        try set.upsert((0..<2000).map { PointSet.Record(id: "g\($0)", point: cloud[$0]) })
        let before = set.snapshot()
        let qs = queries(40, cloud, &rng)
        let expected = answers(before, qs)
        for round in 0..<20 {
            for i in 0..<2000 where (i + round) % 3 != 0 {
                try set.upsert([PointSet.Record(id: "g\(i)", point: rng.pick(cloud))])
            }
            set.remove(ids: (0..<50).map { _ in "g\(rng.int(0...1999))" })
        }
        #expect(set.compactionCount >= 10)
        #expect(set.snapshot().generation > before.generation)
        #expect(answers(before, qs) == expected)
        before._checkInvariants()
        set._checkInvariants()
    }

    /// Past the synchronous limit, compaction runs as a background merge; writes made
    /// while it runs land in the tail and are renumbered after it. Readers running
    /// throughout see whole epochs, and a snapshot held across the compaction keeps
    /// answering from the old chunks.
    /// The observer is told of each compaction once, in the writer, with the snapshot that
    /// starts the new numbering; other writes tell it nothing.
    @Test func compactionsInTheWriterAreReportedOnce() throws {
        let set = PointSet(compactionSlack: 0)
        let reported = Mutex<[(generation: Int, live: Int)]>([])
        set.observeCompactions { snap in reported.withLock { $0.append((snap.generation, snap.liveCount)) } }
        try set.upsert((0..<100).map { PointSet.Record(id: "s\($0)", point: GeoPoint(lat: 50, lon: Double($0) / 100)) })
        set.pack()
        #expect(reported.withLock { $0.isEmpty })
        // Every id rewritten once: dead slots outnumber the live points, a compaction in the
        // writer (a small set).
        try set.upsert((0..<100).map { PointSet.Record(id: "s\($0)", point: GeoPoint(lat: 51, lon: Double($0) / 100)) })
        try set.upsert([PointSet.Record(id: "s0", point: GeoPoint(lat: 52, lon: 0))])
        #expect(set.compactionCount == 1)
        set.compact()
        #expect(reported.withLock { $0.map(\.generation) } == [1, 2])
        #expect(reported.withLock { $0.map(\.live) } == [100, 100])
    }

    @Test func backgroundCompactionKeepsWritesMadeMeanwhile() throws {
        var rng = SplitMix64(seed: 5)
        let n = PointSet.synchronousCompactionLimit + 2000
        let cloud = Scenario.cloud(count: 4000, &rng)
        let set = PointSet(compactionSlack: 0)
        let reported = Mutex<[Int]>([])
        set.observeCompactions { snap in reported.withLock { $0.append(snap.generation) } }
        var model: [String: GeoPoint] = [:]
        var batch: [PointSet.Record] = []
        for i in 0..<n {
            let r = PointSet.Record(id: "b\(i)", point: rng.pick(cloud))
            batch.append(r)
            model[r.id] = r.point
        }
        try set.upsert(batch)
        set.pack()
        let held = set.snapshot()
        let heldModel = model
        let qs = queries(10, cloud, &rng)
        let heldAnswers = answers(held, qs)
        var sawMerging = 0, writesDuring = 0
        // Rewrite every id in batches until dead slots dominate: a background compaction.
        for round in 0..<3 {
            var i = 0
            while i < n {
                let m = min(n - i, 997)
                let recs = (i..<(i + m)).map { PointSet.Record(id: "b\($0)", point: rng.pick(cloud)) }
                try set.upsert(recs)
                for r in recs { model[r.id] = r.point }
                let merging = set.writer.withLock { $0.merging }
                if merging { sawMerging += 1; writesDuring += m }
                if rng.chance(0.1) {
                    let gone = (0..<20).map { _ in "b\(rng.int(0...(n - 1)))" }
                    set.remove(ids: gone)
                    for id in gone { model[id] = nil }
                }
                i += m
            }
            _ = round
        }
        set.waitForMerges()
        #expect(set.compactionCount >= 2)
        #expect(reported.withLock { $0 } == Array(1...set.compactionCount), "each compaction told once, with its snapshot")
        #expect(sawMerging > 0, "no write landed during a background merge")
        var problems = verify(set.snapshot(), against: model, &rng, queries: 5)
        problems += verify(held, against: heldModel, &rng, queries: 3).map { "held: \($0)" }
        #expect(problems.isEmpty, "\(problems.prefix(6).joined(separator: "\n"))")
        #expect(answers(held, qs) == heldAnswers)
        set._checkInvariants()
        held._checkInvariants()
    }

    /// 200,000 single-record rewrites of 1,000 ids: entry slots, their capacity and the
    /// index bytes stay within a constant times the live count (plus the slack), and entry
    /// numbers stay small.
    @Test func memoryStaysBoundedUnderRewrites() throws {
        var rng = SplitMix64(seed: 3)
        let ids = 1000
        let cloud = Scenario.cloud(count: 2000, &rng)
        for slack in [ids, PointSet.defaultCompactionSlack] {
            let set = PointSet(compactionSlack: slack)
            try set.upsert((0..<ids).map { PointSet.Record(id: "r\($0)", point: rng.pick(cloud)) })
            var maxSlots = 0, maxCapacity = 0, maxBytes = 0, maxStore = 0
            for w in 1...200_000 {
                try set.upsert([PointSet.Record(id: "r\(rng.int(0...(ids - 1)))", point: rng.pick(cloud))])
                if w % 1000 == 0 {
                    let s = set.snapshot()
                    maxSlots = max(maxSlots, s.entrySlots)
                    maxCapacity = max(maxCapacity, s.entrySlotCapacity)
                    maxBytes = max(maxBytes, set.indexMemoryBytes)
                    maxStore = max(maxStore, set.entryStoreBytes)
                }
            }
            let bound = 2 * max(ids, slack) + 1
            #expect(maxSlots <= bound, "slack \(slack): \(maxSlots) slots")
            #expect(maxCapacity <= bound + EntryChunk.capacity, "slack \(slack): capacity \(maxCapacity)")
            // Trees: at most every slot once at 20 bytes, plus their node arrays (under 5 bytes
            // a point) and array slack; epochs: 8 bytes a slot.
            #expect(maxBytes <= 2 * 20 * bound + 8 * (bound + EntryChunk.capacity), "slack \(slack): \(maxBytes) index bytes")
            #expect(maxStore <= (bound + EntryChunk.capacity) * (MemoryLayout<Entry>.stride + 8))
            #expect(set.compactionCount >= 200_000 / (bound - ids + 1) - 1, "slack \(slack): \(set.compactionCount) compactions")
            #expect(set.count == ids)
            set._checkInvariants()
        }
    }

    /// Versions are 64-bit: a set whose epochs start just below 2^32 crosses it with
    /// compactions, removals and held snapshots, and keeps answering like the model; the
    /// 32-bit `epoch` view wraps, `version` does not.
    @Test func epochsCrossTheThirtyTwoBitBoundary() throws {
        var rng = SplitMix64(seed: 99)
        let start = UInt64(UInt32.max) - 100
        let set = PointSet(compactionSlack: 16, startingEpoch: start)
        let cloud = Scenario.cloud(count: 500, &rng)
        var model: [String: GeoPoint] = [:]
        var held: [(PointSet.Snapshot, [String: GeoPoint])] = []
        var last = set.snapshot().version
        var problems: [String] = []
        for step in 0..<300 {
            if rng.chance(0.8) {
                let r = PointSet.Record(id: "e\(rng.int(0...40))", point: rng.pick(cloud))
                try set.upsert([r])
                model[r.id] = r.point
            } else if let id = model.keys.sorted().first {
                set.remove(ids: [id])
                model[id] = nil
            } else { continue }
            let s = set.snapshot()
            if s.version <= last { problems.append("step \(step): version \(s.version) after \(last)") }
            last = s.version
            if step % 25 == 0 { held.append((s, model)) }
            problems += verify(s, against: model, &rng, queries: 1).map { "step \(step): \($0)" }
            if !problems.isEmpty { break }
        }
        #expect(last > UInt64(UInt32.max), "never crossed 2^32")
        #expect(set.snapshot().epoch == UInt32(truncatingIfNeeded: last))
        #expect(set.compactionCount > 3)
        for (s, m) in held where problems.isEmpty {
            problems += verify(s, against: m, &rng, queries: 2).map { "held \(s.version): \($0)" }
        }
        #expect(problems.isEmpty, "\(problems.prefix(6).joined(separator: "\n"))")
        set._checkInvariants()
    }

    /// The checks can fail: states broken the way a faulty compaction or merge would
    /// break them are reported.
    @Test(.enabled(if: PointSet._isCheckingInvariants, "ScoutIndex built without SCOUT_INTERNAL_CHECKS"))
    func invariantChecksReportBrokenStates() throws {
        var rng = SplitMix64(seed: 1)
        let cloud = Scenario.cloud(count: 3000, &rng)
        let set = PointSet(compactionSlack: 100)
        try set.upsert((0..<3000).map { PointSet.Record(id: "c\($0)", point: cloud[$0]) })
        set.pack()
        let s = set.snapshot()
        #expect(s._invariantViolations().isEmpty)
        #expect(set._invariantViolations().isEmpty)
        #expect(s.levels.allSatisfy { $0._invariantViolations().isEmpty })

        // A level that lost an entry (a compaction that dropped a live point).
        let tree = s.levels[0]
        let lost = PackedTree(entries: Array(tree.entries.dropLast()), lons: (0..<(tree.count - 1)).map { tree.coords[2 * $0] },
                              lats: (0..<(tree.count - 1)).map { tree.coords[2 * $0 + 1] })
        let dropped = PointSet.Snapshot(version: s.version, table: s.table, levels: [lost], cleanLevels: [true],
                                        bufferStart: s.bufferStart, liveCount: s.liveCount, generation: s.generation)
        #expect(dropped._invariantViolations().contains { $0.contains("in no level") })

        // A level renumbered by the wrong offset (positions no longer match the store).
        let shifted = PointSet.Snapshot(version: s.version, table: s.table, levels: [PackedTree(renumbering: tree, by: 1)],
                                        cleanLevels: [true], bufferStart: s.bufferStart, liveCount: s.liveCount, generation: 0)
        #expect(!shifted._invariantViolations().isEmpty)

        // A tree whose split order is broken (its first point moved far east).
        #expect(!BrokenTree.make(from: tree)._invariantViolations().isEmpty)

        // A removal stamped at or before the snapshot's version in a level it calls clean
        // (a compaction that lost a removal), and the writer's view of the same damage.
        let victim = s.levels[0].entries[0]
        s.table.markRemoved(victim, epoch: s.version)
        #expect(s._invariantViolations().contains { $0.contains("clean level") })
        #expect(set._invariantViolations().contains { $0.contains("live slots") || $0.contains("removed entry") })
    }
}

/// A tree whose order is broken: its first point moved 1,000° east, past every split.
enum BrokenTree {
    static func make(from tree: PackedTree) -> PackedTree {
        var coords = tree.coords
        coords[0] = 1000
        return PackedTree(treeOrderEntries: tree.entries, coords: coords)
    }
}
