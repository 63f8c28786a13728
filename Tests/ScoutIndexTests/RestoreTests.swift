import Foundation
import ScoutCore
import ScoutGeodesy
@testable import ScoutIndex
import ScoutTestSupport
import Testing

/// `PointSet.exportLive()` and `PointSet(restoring:)`: a restored set answers as the set
/// it was exported from, keeps every invariant, and refuses an export that could crash a
/// query or answer wrongly.
@Suite struct RestoreTests {
    final class Tag: PointPayload, @unchecked Sendable { let n: Int; init(_ n: Int) { self.n = n } }

    static func answers(_ s: PointSet.Snapshot, _ c: GeoPoint, _ r: Double, _ box: GeoBox) -> [String] {
        s.entries(in: box).map { s.id(of: $0) }.sorted()
            + ["|"] + s.entries(within: r, of: c).map { s.id(of: $0) }.sorted()
            + ["|"] + s.nearest(to: c, k: 9).map { "\(s.id(of: $0.ref))@\($0.distance)" }
            + ["|"] + s.allLive().map { "\(s.id(of: $0))=\(s.entry($0).point)/\((s.entry($0).payload as? Tag)?.n ?? -1)" }.sorted()
    }

    @Test(arguments: 0..<TestScale.count(short: 6, full: 12))
    func aRestoredSetAnswersAsTheOriginal(seed: Int) throws {
        var rng = SplitMix64(seed: 4_200 + seed)
        let set = PointSet(compactionSlack: rng.pick([0, 64, 16_384]))
        let cloud = Scenario.cloud(count: rng.int(0...5_000), &rng)
        var batch: [PointSet.Record] = []
        for (i, p) in cloud.enumerated() where rng.chance(0.9) {
            // Batches of up to 64, with replacements (ids repeat) and removals between them.
            if let j = batch.firstIndex(where: { $0.id == "p\(i % 3_000)" }) { batch.remove(at: j) }
            batch.append(PointSet.Record(id: "p\(i % 3_000)", point: p, payload: rng.chance(0.5) ? Tag(i) : nil))
            if batch.count == 64 || rng.chance(0.05) {
                try set.upsert(batch)
                batch = []
                set.remove(ids: (0..<rng.int(0...8)).map { _ in "p\(rng.int(0...3_000))" })
            }
        }
        try set.upsert(batch)
        let live = set.exportLive()
        #expect(live.count == set.count)
        let copy = try PointSet(restoring: live)
        copy._checkInvariants()
        copy.snapshot()._checkInvariants()
        #expect(copy.snapshot().levelCount == (live.count > 0 ? 1 : 0))
        let a = set.snapshot(), b = copy.snapshot()
        for _ in 0..<20 {
            let c = rng.chance(0.5) && !cloud.isEmpty ? rng.pick(cloud) : Scenario.center(&rng)
            let r = Scenario.radius(&rng), box = Scenario.box(&rng, edgesFrom: cloud)
            #expect(Self.answers(a, c, r, box) == Self.answers(b, c, r, box), "seed \(seed)")
        }
        // The restored set is a live set like any other, its id map built by the restore:
        // every id is found, and writes and compactions go on.
        for (i, id) in live.ids.enumerated() where i % 97 == 0 { #expect(copy.entry(id: id)?.id == id) }
        try copy.upsert((0..<2_000).map { PointSet.Record(id: "n\($0)", point: Scenario.point(&rng)) })
        copy.remove(ids: live.ids.filter { _ in rng.chance(0.7) })
        copy.compact()
        copy._checkInvariants()
    }

    @Test func restoringRefusesWhatCouldCrashOrMislead() throws {
        var rng = SplitMix64(seed: 5)
        let set = PointSet()
        try set.upsert((0..<500).map { PointSet.Record(id: "p\($0)", point: Scenario.point(&rng)) })
        let good = set.exportLive()
        func refused(_ change: (inout LiveExport) -> Void, _ words: String) {
            var bad = good
            change(&bad)
            do throws(ScoutError) {
                _ = try PointSet(restoring: bad)
                Issue.record("accepted: \(words)")
            } catch {
                #expect(error.code == .invalidRequest && error.message.contains(words), "\(error.message)")
            }
        }
        refused({ $0.ids[7] = $0.ids[3] }, "twice")
        refused({ $0.ids[0] = "" }, "non-empty")
        // The last ids too (the check hashes ids ahead of the one it is at).
        refused({ $0.ids[499] = $0.ids[0] }, "twice")
        refused({ $0.ids[499] = "" }, "non-empty")
        var tail = good
        tail.ids[498] = tail.ids[497]
        #expect(throws: ScoutError.self) { try PointSet(restoring: tail) }
        do throws(ScoutError) { _ = try PointSet(restoring: tail) } catch { #expect(error.path == "points[498].id", "\(error)") }
        // Ids mean what they mean to writes: the same text precomposed and with a combining
        // accent is one id, so a restore holding both is refused.
        refused({ $0.ids[20] = "caf\u{E9}"; $0.ids[300] = "cafe\u{301}" }, "twice")
        refused({ $0.coords[11] = .nan }, "valid longitude/latitude")
        refused({ $0.coords[10] = 181 }, "valid longitude/latitude")
        refused({ $0.coords.removeLast() }, "do not match")
        refused({ $0.payloads.append(nil) }, "do not match")
        refused({ $0.coords.swapAt(0, 2 * 499) }, "packed-tree order")
        #expect(try PointSet(restoring: LiveExport(ids: [], coords: [], payloads: [])).count == 0)
    }
}
