import Foundation
import PropertyBased
import ScoutCore
import ScoutGeodesy
import ScoutIndex
import ScoutTestSupport
import Synchronization
import Testing

/// Checks a snapshot against a model (id → point): contents, a box query and a radius query
/// answered from the model alone. Returns the first problems found.
func verify(_ s: PointSet.Snapshot, against model: [String: GeoPoint], _ rng: inout SplitMix64, queries: Int = 2) -> [String] {
    var problems: [String] = []
    if s.liveCount != model.count { problems.append("liveCount \(s.liveCount), model \(model.count)") }
    let live = s.allLive().map { s.entry($0) }
    if live.count != model.count { problems.append("allLive \(live.count), model \(model.count)") }
    var seen = Set<String>()
    for e in live {
        if !seen.insert(e.id).inserted { problems.append("id \(e.id) live twice") }
        if model[e.id] != e.point { problems.append("id \(e.id) at \(e.point), model \(String(describing: model[e.id]))") }
        if problems.count > 5 { return problems }
    }
    let points = Array(model.values)
    for _ in 0..<queries {
        let box = Scenario.box(&rng, edgesFrom: points)
        let got = s.entries(in: box).map { s.entry($0).id }
        let want = model.filter { box.contains($0.value) }.map(\.key)
        if got.count != Set(got).count || Set(got) != Set(want) { problems.append("box \(box): \(got.count) results, model \(want.count)") }
        let c = !points.isEmpty && rng.chance(0.5) ? rng.pick(points) : Scenario.center(&rng)
        let r = Scenario.radius(&rng)
        let gotR = s.entries(within: r, of: c).map { s.entry($0).id }
        let wantR = model.filter { Geodesic.distance(lat1: c.lat, lon1: c.lon, lat2: $0.value.lat, lon2: $0.value.lon) <= r }.map(\.key)
        if gotR.count != Set(gotR).count || Set(gotR) != Set(wantR) { problems.append("radius \(r) at \(c): \(gotR.count) results, model \(wantR.count)") }
        let k = rng.int(1...20)
        let gotK = s.nearest(to: c, k: k).map { (s.entry($0.ref).id, $0.distance) }
        let wantK = model.map { ($0.key, Oracle.mm($0.value, c)) }.sorted { ($0.1, $0.0) < ($1.1, $1.0) }.prefix(k)
        if gotK.map(\.0) != wantK.map(\.0) || gotK.map(\.1) != wantK.map(\.1) { problems.append("nearest k \(k) to \(c): \(gotK.prefix(4)) vs \(wantK.prefix(4))") }
    }
    return problems
}

@Suite struct LiveUpdateTests {
    @Test func randomUpdatesMatchADictionaryModel() async {
        await propertyCheck(count: TestScale.count(short: 6, full: 12), input: Gen.int(in: 0...Int(Int32.max))) { seed in
            var rng = SplitMix64(seed: seed)
            let set = PointSet()
            var model: [String: GeoPoint] = [:]
            let idPool = rng.int(200...4000)
            let cloud = Scenario.cloud(count: 3000, &rng)
            var old: [(PointSet.Snapshot, [String: GeoPoint])] = []
            var problems: [String] = []
            for step in 0..<120 {
                switch rng.unit() {
                case ..<0.55:
                    // Upsert: new ids, replaced ids and the same id twice in one batch.
                    let n = rng.chance(0.1) ? rng.int(500...1500) : rng.int(1...200)
                    var batch: [PointSet.Record] = []
                    for _ in 0..<n {
                        let id = "id\(rng.int(0...idPool))"
                        batch.append(PointSet.Record(id: id, point: rng.pick(cloud)))
                        if rng.chance(0.05) { batch.append(PointSet.Record(id: id, point: rng.pick(cloud))) }
                    }
                    let applied = try! set.upsert(batch)
                    if applied != batch.count { problems.append("upsert returned \(applied) for \(batch.count)") }
                    for r in batch { model[r.id] = r.point }   // the last one wins
                case ..<0.85:
                    var ids = (0..<rng.int(0...300)).map { _ in "id\(rng.int(0...idPool))" }
                    ids += ["nope", "", "id\(idPool + 1)"]
                    if let first = ids.first { ids.append(first) }   // the same id twice
                    let expected = Set(ids).filter { model[$0] != nil }.count
                    let removed = set.remove(ids: ids)
                    if removed != expected { problems.append("remove returned \(removed), expected \(expected)") }
                    for id in ids { model[id] = nil }
                case ..<0.9:
                    set.pack()
                case ..<0.95:
                    set.waitForMerges()
                default:
                    old.append((set.snapshot(), model))
                }
                problems += verify(set.snapshot(), against: model, &rng, queries: 1).map { "step \(step): \($0)" }
                if !problems.isEmpty { break }
            }
            set.waitForMerges()
            problems += verify(set.snapshot(), against: model, &rng, queries: 5).map { "after merges: \($0)" }
            // Old snapshots still show their own epoch.
            for (s, m) in old where problems.isEmpty {
                problems += verify(s, against: m, &rng, queries: 1).map { "old snapshot \(s.epoch): \($0)" }
            }
            #expect(problems.isEmpty, "\(problems.prefix(6).joined(separator: "\n"))")
        }
    }

    @Test func badRecordsThrowAndChangeNothing() throws {
        let set = PointSet()
        var rng = SplitMix64(seed: 11)
        let cloud = Scenario.cloud(count: 1500, &rng)
        try set.upsert(cloud.enumerated().map { PointSet.Record(id: "p\($0.offset)", point: $0.element) })
        let before = set.snapshot()
        let model = Dictionary(uniqueKeysWithValues: cloud.enumerated().map { ("p\($0.offset)", $0.element) })
        let good = PointSet.Record(id: "p1", point: GeoPoint(lat: 1, lon: 1))
        let cases: [(PointSet.Record, String)] = [
            (PointSet.Record(id: "x", point: GeoPoint(lat: .nan, lon: 0)), "records[1].lat"),
            (PointSet.Record(id: "x", point: GeoPoint(lat: 0, lon: .nan)), "records[1].lon"),
            (PointSet.Record(id: "x", point: GeoPoint(lat: 91, lon: 0)), "records[1].lat"),
            (PointSet.Record(id: "x", point: GeoPoint(lat: -90.0000001, lon: 0)), "records[1].lat"),
            (PointSet.Record(id: "x", point: GeoPoint(lat: 0, lon: 180.0000001)), "records[1].lon"),
            (PointSet.Record(id: "x", point: GeoPoint(lat: 0, lon: -.infinity)), "records[1].lon"),
            (PointSet.Record(id: "", point: GeoPoint(lat: 0, lon: 0)), "records[1].id"),
        ]
        for (bad, path) in cases {
            do {
                try set.upsert([good, bad, good])
                Issue.record("\(bad) accepted")
            } catch {
                #expect(error.code == .invalidRequest, "\(error)")
                #expect(error.path == path, "\(error)")
            }
            let after = set.snapshot()
            #expect(after.epoch == before.epoch && after.liveCount == before.liveCount)
        }
        var r = SplitMix64(seed: 3)
        let problems = verify(set.snapshot(), against: model, &r, queries: 5)
        #expect(problems.isEmpty, "\(problems)")
        // Edge values are fine.
        try set.upsert([PointSet.Record(id: "edge", point: GeoPoint(lat: -90, lon: 180))])
        #expect(set.count == model.count + 1)
        #expect(try set.upsert([]) == 0)
    }

    /// A batch past ``PointSet/spatialOrderThreshold`` is stored in spatial order (entries a
    /// query reads lie together), and the same id twice in it still keeps the later record,
    /// whichever of the two the spatial order appends first.
    @Test func aBigBatchIsStoredInSpatialOrderAndTheLaterRecordOfAnIdWins() throws {
        var rng = SplitMix64(seed: 4242)
        // Uniform on the sphere: the test's yardstick, steps between neighbours, needs spread-out points.
        func anywhere(_ rng: inout SplitMix64) -> GeoPoint { GeoPoint(lat: asin(rng.uniform(-1, 1)) * 180 / .pi, lon: rng.uniform(-180, 180)) }
        let set = PointSet()
        try set.upsert((0..<50).map { PointSet.Record(id: "r\($0)", point: anywhere(&rng)) })   // older versions
        var batch = (0..<4000).map { PointSet.Record(id: "r\($0)", point: anywhere(&rng)) }
        for _ in 0..<300 {   // the same id again, anywhere in the batch
            batch.insert(PointSet.Record(id: "r\(rng.int(0...3999))", point: anywhere(&rng)), at: rng.int(0...batch.count))
        }
        var model: [String: GeoPoint] = [:]
        for r in batch { model[r.id] = r.point }
        #expect(try set.upsert(batch) == batch.count)
        let s = set.snapshot()
        let live = s.allLive().map { s.entry($0) }
        #expect(live.count == model.count && s.liveCount == model.count)
        for e in live { #expect(model[e.id] == e.point, "\(e.id)") }
        // Neighbouring entries are near one another: far nearer than neighbouring records of the batch.
        func medianStep(_ points: [GeoPoint]) -> Double {
            let steps = zip(points, points.dropFirst()).map { Geodesic.distance(lat1: $0.lat, lon1: $0.lon, lat2: $1.lat, lon2: $1.lon) }.sorted()
            return steps[steps.count / 2]
        }
        let stored = s.allLive().filter { $0.index >= 50 }.map { s.entry($0).point }
        #expect(medianStep(stored) * 20 < medianStep(batch.map(\.point)), "\(medianStep(stored)) against \(medianStep(batch.map(\.point)))")
        let problems = verify(s, against: model, &rng, queries: 40)
        #expect(problems.isEmpty, "\(problems.prefix(3))")
    }

    /// Readers query while one writer upserts and removes: every reader's answer must equal
    /// the brute force on the same snapshot it queried.
    @Test func readersSeeConsistentSnapshotsDuringWrites() async {
        let set = PointSet()
        var rng = SplitMix64(seed: 2024)
        let cloud = Scenario.cloud(count: 3000, &rng)
        try! set.upsert(cloud.prefix(2000).enumerated().map { PointSet.Record(id: "p\($0.offset)", point: $0.element) })
        let done = Flag()
        let failures = await withTaskGroup(of: [String].self) { group in
            group.addTask {
                var rng = SplitMix64(seed: 99)
                for _ in 0..<150 {
                    if rng.chance(0.7) {
                        let batch = (0..<rng.int(1...300)).map { _ in PointSet.Record(id: "p\(rng.int(0...3500))", point: rng.pick(cloud)) }
                        try! set.upsert(batch)
                    } else {
                        set.remove(ids: (0..<rng.int(1...200)).map { _ in "p\(rng.int(0...3500))" })
                    }
                    if rng.chance(0.05) { set.pack() }
                    await Task.yield()
                }
                done.set()
                return []
            }
            for reader in 0..<3 {
                group.addTask {
                    var rng = SplitMix64(seed: 1000 + reader)
                    var problems: [String] = []
                    var rounds = 0
                    // At least 10 rounds, and at most 300: readers that ran until the writer is done
                    // kept both cores busy for the whole parallel suite, the writer waiting behind them.
                    while (!done.isSet || rounds < 10) && rounds < 300 && problems.isEmpty {
                        rounds += 1
                        let s = set.snapshot()
                        let live = s.allLive().map { s.entry($0) }
                        let refs = s.allLive()
                        if live.count != s.liveCount { problems.append("reader \(reader): allLive \(live.count) vs liveCount \(s.liveCount)") }
                        let box = Scenario.box(&rng, edgesFrom: cloud)
                        let gotBox = Set(s.entries(in: box))
                        let wantBox = Set(zip(refs, live).filter { box.contains($0.1.point) }.map(\.0))
                        if gotBox != wantBox { problems.append("reader \(reader) epoch \(s.epoch): box \(box) \(gotBox.count) vs \(wantBox.count)") }
                        let c = rng.pick(cloud), r = Scenario.radius(&rng)
                        let gotR = Set(s.entries(within: r, of: c))
                        let wantR = Set(zip(refs, live).filter { Geodesic.distance(lat1: c.lat, lon1: c.lon, lat2: $0.1.lat, lon2: $0.1.lon) <= r }.map(\.0))
                        if gotR != wantR { problems.append("reader \(reader) epoch \(s.epoch): radius \(r) \(gotR.count) vs \(wantR.count)") }
                        let k = rng.int(1...30)
                        let gotK = s.nearest(to: c, k: k).map(\.ref)
                        let wantK = zip(refs, live).map { ($0.0, Oracle.mm($0.1.point, c), $0.1.id) }.sorted { ($0.1, $0.2) < ($1.1, $1.2) }.prefix(k).map(\.0)
                        if gotK != Array(wantK) { problems.append("reader \(reader) epoch \(s.epoch): nearest k \(k) differ") }
                        await Task.yield()
                    }
                    return problems
                }
            }
            var all: [String] = []
            for await f in group { all += f }
            return all
        }
        #expect(failures.isEmpty, "\(failures.prefix(5).joined(separator: "\n"))")
    }

    /// Drives the set into a background merge (levels past `backgroundMergeThreshold`) and,
    /// while it runs, removes a whole level and writes a new one, so that the foreground
    /// packing wants to merge levels that the background merge is rebuilding.
    @Test func writesDuringABackgroundMergeAreKept() throws {
        let threshold = PointSet.backgroundMergeThreshold   // 131,072
        let set = PointSet()
        var rng = SplitMix64(seed: 5)
        var next = 0
        func batch(_ n: Int) -> [PointSet.Record] {
            defer { next += n }
            return (next..<(next + n)).map { i in
                PointSet.Record(id: "b\(i)", point: GeoPoint(lat: rng.uniform(-80, 80), lon: rng.uniform(-180, 180)))
            }
        }
        var model: [String: GeoPoint] = [:]
        func add(_ n: Int) -> [String] {
            let b = batch(n)
            try! set.upsert(b)
            for r in b { model[r.id] = r.point }
            return b.map(\.id)
        }
        // Levels [A = 0.92 T, B = 0.22 T]: B is not merged into A (A > 4B).
        let a = add(threshold * 92 / 100)
        _ = add(threshold * 22 / 100)
        // N = 0.79 T: B ≤ 4N and B + N > T, so A and B go to a background merge.
        let n = add(threshold * 79 / 100)
        // Removals from A while the merge reads it: the merged level must still hide them
        // (it counts them as its own removals, so queries keep checking liveness there).
        let early = Array(a.prefix(2000))
        set.remove(ids: early)
        for id in early { model[id] = nil }
        // Meanwhile: remove all of N and write X = 0.2 T: N ≤ 4X and N + X ≤ T, so the
        // foreground merges N and X, then (N being dead) B and NX.
        set.remove(ids: n)
        for id in n { model[id] = nil }
        _ = add(threshold * 20 / 100)
        set.waitForMerges()
        let s = set.snapshot()
        let world = s.entries(in: GeoBox(west: -180, south: -90, east: 180, north: 90))
        #expect(world.count == model.count, "a world box finds \(world.count) of \(model.count) live points")
        let found = Set(world.map { s.entry($0).id }), expected = Set(model.keys)
        #expect(found == expected, "extra \(found.subtracting(expected).prefix(5)), missing \(expected.subtracting(found).prefix(5))")
        var r = SplitMix64(seed: 6)
        let problems = verify(s, against: model, &r, queries: 2)
        #expect(problems.isEmpty, "\(problems)")
    }
}

final class Flag: Sendable {
    private let value = Atomic<Bool>(false)
    func set() { value.store(true, ordering: .releasing) }
    var isSet: Bool { value.load(ordering: .acquiring) }
}
