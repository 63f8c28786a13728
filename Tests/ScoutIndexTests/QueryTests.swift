import Foundation
import PropertyBased
import ScoutCore
import ScoutGeodesy
import ScoutGeometry
import ScoutIndex
import ScoutTestSupport
import Testing

// MARK: - Helpers

/// Loads points as ids "p0", "p1", … in random batches (crossing the buffer limit, with
/// explicit packs), replaces some ids by new positions and removes a few. Returns the set
/// and the model of what it should hold.
func loadSet(_ points: [GeoPoint], _ rng: inout SplitMix64) -> (PointSet, [String: GeoPoint]) {
    let set = PointSet()
    var model: [String: GeoPoint] = [:]
    var i = 0
    while i < points.count {
        let n = min(points.count - i, rng.chance(0.2) ? rng.int(1000...2500) : rng.int(1...400))
        let batch = (i..<(i + n)).map { PointSet.Record(id: "p\($0)", point: points[$0]) }
        try! set.upsert(batch)
        for r in batch { model[r.id] = r.point }
        i += n
        if rng.chance(0.2) { set.pack() }
    }
    if !points.isEmpty && rng.chance(0.7) {
        // Replace some ids with other points of the cloud, remove some.
        var replacements: [PointSet.Record] = []
        for _ in 0..<rng.int(1...max(1, points.count / 10)) {
            let id = "p\(rng.int(0...(points.count - 1)))"
            replacements.append(PointSet.Record(id: id, point: rng.pick(points)))
        }
        try! set.upsert(replacements)
        for r in replacements { model[r.id] = r.point }
        let gone = (0..<rng.int(0...max(1, points.count / 10))).map { _ in "p\(rng.int(0...(points.count - 1)))" } + ["unknown"]
        set.remove(ids: gone)
        for id in gone { model[id] = nil }
    }
    if rng.chance(0.3) { set.waitForMerges() }
    return (set, model)
}

struct Live {
    let ref: EntryRef
    let id: String
    let point: GeoPoint
}

func liveEntries(_ s: PointSet.Snapshot) -> [Live] {
    s.allLive().map { r in let e = s.entry(r); return Live(ref: r, id: e.id, point: e.point) }
}

/// A random cloud of 0–3,000 points loaded by ``loadSet``: the points, a snapshot of the
/// set and the snapshot's live entries.
func loadedCloud(_ rng: inout SplitMix64) -> (cloud: [GeoPoint], snapshot: PointSet.Snapshot, live: [Live]) {
    let cloud = Scenario.cloud(count: rng.int(0...3000), &rng)
    let s = loadSet(cloud, &rng).0.snapshot()
    return (cloud, s, liveEntries(s))
}

/// Runs ``PointSet/Snapshot/entries(within:of:where:)`` and `boundedEntries` at one centre
/// and checks both against brute force over `live` (membership decided with the centre
/// first, as RadiusTest documents). Returns the brute-force members and the bounded matches.
@discardableResult
func checkDisc(_ s: PointSet.Snapshot, _ live: [Live], center: GeoPoint, radius r: Double, _ log: inout FailureLog,
               label: String = "") -> (within: [Live], bounded: [BoundedRef]) {
    let within = live.filter { Geodesic.distance(lat1: center.lat, lon1: center.lon, lat2: $0.point.lat, lon2: $0.point.lon) <= r }
    let expected = Set(within.map(\.ref))
    let got = s.entries(within: r, of: center)
    log.check(got.count == Set(got).count, "\(label)radius \(r) at \(center): duplicate results")
    log.check(Set(got) == expected, "\(label)radius \(r) at \(center): \(got.count) results, brute force \(expected.count); missing \(expected.subtracting(got).prefix(3).map { s.entry($0).point }), extra \(Set(got).subtracting(expected).prefix(3).map { s.entry($0).point })")
    let bounded = s.boundedEntries(within: r, of: center)
    log.check(Set(bounded.map(\.ref)) == expected && bounded.count == expected.count, "\(label)radius \(r) at \(center): boundedEntries differ from brute force")
    return (within, bounded)
}

/// A deterministic pseudo-random filter on ids.
func idFilter(_ salt: Int) -> (String) -> Bool {
    { id in (id.hashValueStable &+ salt) % 3 != 0 }
}

extension String {
    /// A hash that is stable across runs (Swift's hashValue is seeded per process).
    var hashValueStable: Int { utf8.reduce(5381) { ($0 &* 33) &+ Int($1) } & 0x7fff_ffff }
}

/// The `k` entries of `live` nearest to `origin` that `keep` keeps (by id) within
/// `maxDistance`, by millimetre distance then id: `(ref, distance, id)`.
func bruteForceNearest(_ live: [Live], to origin: GeoPoint, k: Int, maxDistance: Double,
                       where keep: (String) -> Bool) -> ArraySlice<(EntryRef, Double, String)> {
    live.filter { keep($0.id) && Geodesic.distance($0.point, origin) <= maxDistance }
        .map { ($0.ref, Oracle.mm($0.point, origin), $0.id) }
        .sorted { ($0.1, $0.2) < ($1.1, $1.2) }
        .prefix(k)
}

// MARK: - Queries against brute force

@Suite struct QueryTests {
    @Test func snapshotMatchesModel() async {
        await propertyCheck(count: TestScale.count(short: 20, full: 40), input: Gen.int(in: 0...Int(Int32.max))) { seed in
            var rng = SplitMix64(seed: seed)
            let (set, model) = loadSet(Scenario.cloud(count: rng.int(0...3000), &rng), &rng)
            let s = set.snapshot()
            let live = liveEntries(s)
            #expect(s.liveCount == model.count && set.count == model.count)
            #expect(live.count == model.count)
            #expect(live.allSatisfy { model[$0.id] == $0.point })
        }
    }

    @Test func boxQueriesMatchBruteForce() async {
        await propertyCheck(count: TestScale.count(short: 25, full: 50), input: Gen.int(in: 0...Int(Int32.max))) { seed in
            var rng = SplitMix64(seed: seed)
            let (cloud, s, live) = loadedCloud(&rng)
            var log = FailureLog()
            for _ in 0..<25 {
                let box = Scenario.box(&rng, edgesFrom: cloud)
                let salt = rng.int(0...1000)
                let useFilter = rng.chance(0.3)
                let f = idFilter(salt)
                let got = useFilter ? s.entries(in: box) { f(s.id(of: $0)) } : s.entries(in: box)
                let expected = Set(live.filter { box.contains($0.point) && (!useFilter || f($0.id)) }.map(\.ref))
                log.check(got.count == Set(got).count, "box \(box): duplicate results")
                log.check(Set(got) == expected, "box \(box): \(got.count) results, brute force \(expected.count); missing \(expected.subtracting(got).prefix(3).map { s.entry($0).point }), extra \(Set(got).subtracting(expected).prefix(3).map { s.entry($0).point })")
            }
            #expect(log.isEmpty, "\(log.summary)")
        }
    }

    /// Dense clusters, where whole tree nodes fall inside the disc and are taken without
    /// testing their points: with every level clean, and after removals dirty some levels.
    @Test func denseRadiusQueriesMatchBruteForceWithCleanAndDirtyLevels() async {
        await propertyCheck(count: TestScale.count(short: 4, full: 8), input: Gen.int(in: 0...Int(Int32.max))) { seed in
            var rng = SplitMix64(seed: seed)
            // 6,000 points within ~5 km of a centre (some on the antimeridian), plus copies.
            let hub = rng.chance(0.3) ? GeoPoint(lat: rng.uniform(-60, 60), lon: rng.pick([180, -180, 179.99])) : Scenario.center(&rng)
            var cloud = (0..<6000).map { _ in Scenario.destination(hub, rng.uniform(0, 5000), &rng) }
            cloud += (0..<200).map { _ in rng.pick(cloud) }
            let set = PointSet()
            try! set.upsert(cloud.enumerated().map { PointSet.Record(id: "p\($0.offset)", point: $0.element) })
            set.pack()
            var model = Set(cloud.indices.map { "p\($0)" })
            var log = FailureLog()
            for phase in 0..<2 {
                if phase == 1 {
                    let gone = (0..<300).map { _ in "p\(rng.int(0...(cloud.count - 1)))" }
                    set.remove(ids: gone)
                    model.subtract(gone)
                }
                let s = set.snapshot()
                // The oracle reads every entry's removal epoch, never the levels' removal
                // counts, and holds exactly the ids the model keeps.
                let live = liveEntries(s)
                log.check(Set(live.map(\.id)) == model && live.count == model.count, "phase \(phase): \(live.count) live entries, model \(model.count)")
                for _ in 0..<10 {
                    let center = rng.chance(0.5) ? hub : Scenario.destination(hub, rng.uniform(0, 4000), &rng)
                    let r = rng.pick([rng.uniform(500, 4000), rng.uniform(4000, 12000)])
                    checkDisc(s, live, center: center, radius: r, &log, label: "phase \(phase): ")
                }
            }
            #expect(log.isEmpty, "\(log.summary)")
        }
    }

    @Test func radiusQueriesAndRankingMatchBruteForce() async {
        await propertyCheck(count: TestScale.count(short: 25, full: 50), input: Gen.int(in: 0...Int(Int32.max))) { seed in
            var rng = SplitMix64(seed: seed)
            let (cloud, s, live) = loadedCloud(&rng)
            var log = FailureLog()
            for _ in 0..<12 {
                let center = !cloud.isEmpty && rng.chance(0.4) ? rng.pick(cloud) : Scenario.center(&rng)
                let r = Scenario.radius(&rng)
                let (within, bounded) = checkDisc(s, live, center: center, radius: r, &log)
                let expected = Set(within.map(\.ref))
                for b in bounded {
                    log.check(b.point == s.entry(b.ref).point, "bounded match \(s.id(of: b.ref)) carries \(b.point), entry is at \(s.entry(b.ref).point)")
                    let d = Geodesic.distance(center, s.entry(b.ref).point)
                    log.check(b.lower <= d + Oracle.geodesicAccuracy && d <= b.upper + Oracle.geodesicAccuracy,
                              "bounds \(b.lower)...\(b.upper) miss \(d) for \(s.entry(b.ref).point) from \(center)")
                }
                // Top-L by (millimetre distance, id).
                let ranked = within.map { ($0.ref, Oracle.mm($0.point, center), $0.id) }.sorted { ($0.1, $0.2) < ($1.1, $1.2) }
                for limit in [0, 1, 7, rng.int(1...50), expected.count + 3] {
                    let top = s.nearestFirst(bounded, from: center, limit: limit)
                    let want = ranked.prefix(limit)
                    log.check(top.map(\.ref) == want.map(\.0) && top.map(\.distance) == want.map(\.1),
                              "nearestFirst(limit \(limit)) from \(center) r \(r): \(top.prefix(5).map { (s.id(of: $0.ref), $0.distance) }) expected \(want.prefix(5).map { ($0.2, $0.1) })")
                }
                let dists = s.distances(of: Array(expected), from: center)
                log.check(dists.allSatisfy { $0.distance == Oracle.mm(s.entry($0.ref).point, center) }, "distances(of:) are not the rounded geodesic")
            }
            #expect(log.isEmpty, "\(log.summary)")
        }
    }

    @Test func nearestMatchesFullSort() async {
        await propertyCheck(count: TestScale.count(short: 30, full: 60), input: Gen.int(in: 0...Int(Int32.max))) { seed in
            var rng = SplitMix64(seed: seed)
            let (cloud, s, live) = loadedCloud(&rng)
            var log = FailureLog()
            for _ in 0..<8 {
                let origin = !cloud.isEmpty && rng.chance(0.5) ? Scenario.near(rng.pick(cloud), spread: rng.pick([0.001, 0.05, 10]), &rng) : Scenario.center(&rng)
                let k = rng.pick([0, 1, 2, 5, 20, rng.int(1...200), live.count, live.count + 10])
                let maxDistance: Double = rng.pick([.infinity, Scenario.radius(&rng), 0, rng.logUniform(0.001, 1)])
                let useFilter = rng.chance(0.4)
                let f = idFilter(rng.int(0...1000))
                let got = useFilter ? s.nearest(to: origin, k: k, maxDistance: maxDistance) { f(s.id(of: $0)) }
                                    : s.nearest(to: origin, k: k, maxDistance: maxDistance)
                let want = bruteForceNearest(live, to: origin, k: k, maxDistance: maxDistance) { !useFilter || f($0) }
                let bestFirst = useFilter ? s.nearestBestFirst(to: origin, k: k, maxDistance: maxDistance) { f(s.id(of: $0)) }
                                          : s.nearestBestFirst(to: origin, k: k, maxDistance: maxDistance)
                log.check(bestFirst.map(\.ref) == want.map(\.0) && bestFirst.map(\.distance) == want.map(\.1),
                          "nearestBestFirst(to: \(origin), k: \(k), maxDistance: \(maxDistance), filter: \(useFilter)) of \(live.count): got \(bestFirst.count) \(bestFirst.prefix(6).map { (s.id(of: $0.ref), $0.distance) }) expected \(want.count) \(want.prefix(6).map { ($0.2, $0.1) })")
                log.check(got.map(\.ref) == want.map(\.0) && got.map(\.distance) == want.map(\.1),
                          "nearest(to: \(origin), k: \(k), maxDistance: \(maxDistance), filter: \(useFilter)) of \(live.count): got \(got.count) \(got.prefix(6).map { (s.id(of: $0.ref), $0.distance) }) expected \(want.count) \(want.prefix(6).map { ($0.2, $0.1) })")
            }
            #expect(log.isEmpty, "\(log.summary)")
        }
    }

    /// A filtered nearest search looks at a point at most three times: in the origin's leaf
    /// (the seed), in the walk within the seed radius, and in the best-first search that
    /// takes over when that walk cannot answer. It never walks a grown radius again (before,
    /// a rare filter's search walked 4×, 16× and 64× the seed radius, then best-first, and
    /// tested the points near the origin at every step).
    @Test func aFilteredNearestSearchNeverWalksTheSameRadiusTwice() async {
        final class Looks { var count: [Int32: Int] = [:] }
        await propertyCheck(count: TestScale.count(short: 20, full: 40), input: Gen.int(in: 0...Int(Int32.max))) { seed in
            var rng = SplitMix64(seed: seed)
            let (cloud, s, live) = loadedCloud(&rng)
            var log = FailureLog()
            for _ in 0..<8 {
                let origin = !cloud.isEmpty && rng.chance(0.5) ? Scenario.near(rng.pick(cloud), spread: rng.pick([0.001, 0.05, 10]), &rng) : Scenario.center(&rng)
                let k = rng.pick([1, 5, 20])
                let maxDistance: Double = rng.pick([.infinity, .infinity, Scenario.radius(&rng)])
                let every = rng.pick([2, 10, 50, 400])     // one point in `every` passes
                let salt = rng.int(0...1000)
                let passes = { (id: String) in (id.hashValueStable &+ salt) % every == 0 }
                let looks = Looks()
                let got = s.nearest(to: origin, k: k, maxDistance: maxDistance) { ref in
                    looks.count[ref.index, default: 0] += 1
                    return passes(s.id(of: ref))
                }
                let want = bruteForceNearest(live, to: origin, k: k, maxDistance: maxDistance, where: passes)
                log.check(got.map(\.ref) == want.map(\.0) && got.map(\.distance) == want.map(\.1),
                          "nearest(to: \(origin), k: \(k), maxDistance: \(maxDistance), 1 in \(every)) of \(live.count): got \(got.count), expected \(want.count)")
                let most = looks.count.values.max() ?? 0
                log.check(most <= 3, "nearest(to: \(origin), k: \(k), maxDistance: \(maxDistance), 1 in \(every)) of \(live.count): a point was tested \(most) times")
            }
            #expect(log.isEmpty, "\(log.summary)")
        }
    }

    @Test func polygonQueriesMatchRegionCovers() async {
        await propertyCheck(count: TestScale.count(short: 20, full: 40), input: Gen.int(in: 0...Int(Int32.max))) { seed in
            var rng = SplitMix64(seed: seed)
            let parts = rng.int(1...3)
            let lon: ClosedRange<Double> = rng.chance(0.2) ? 170...180 : -170...170
            let polys = PlanarPolygons.multiPolygon(&rng, parts: parts, lon: lon, size: 0.05...1)
            let region = parts == 1 && rng.chance(0.5) ? try! Region.polygon(polys[0]) : try! Region.multiPolygon(polys)
            // Points: vertices, edge points, grid points and random points around the polygons,
            // many of them duplicated, plus a global cloud.
            var points = PlanarPolygons.samplePoints(polys, count: rng.int(200...2500), &rng).map { GeoPoint(lat: $0.y, lon: $0.x) }
                .filter(\.isValid)   // the margin around polygons at 180° reaches past it
            points += points.prefix(100)
            points += Scenario.cloud(count: rng.int(0...500), &rng)
            let (set, _) = loadSet(points, &rng)
            let s = set.snapshot()
            let live = liveEntries(s)
            let expected = Set(live.filter { region.covers(lon: $0.point.lon, lat: $0.point.lat) }.map(\.ref))
            let got = s.entries(coveredBy: region)
            #expect(got.count == Set(got).count, "duplicate results")
            #expect(Set(got) == expected, "\(got.count) results, brute force \(expected.count); missing \(expected.subtracting(got).prefix(3).map { s.entry($0).point }) extra \(Set(got).subtracting(expected).prefix(3).map { s.entry($0).point })")
            // With a filter.
            let f = idFilter(seed)
            let filtered = s.entries(coveredBy: region) { f(s.id(of: $0)) }
            #expect(Set(filtered) == Set(expected.filter { f(s.id(of: $0)) }))
            // And the exact planar oracle agrees on grid points.
            let planar = Set(live.filter { PlanarPolygons.covers(polys, SIMD2($0.point.lon, $0.point.lat)) }.map(\.ref))
            let onGrid = Set(live.filter { ($0.point.lon / PlanarPolygons.pointGrid).rounded() * PlanarPolygons.pointGrid == $0.point.lon
                && ($0.point.lat / PlanarPolygons.pointGrid).rounded() * PlanarPolygons.pointGrid == $0.point.lat }.map(\.ref))
            #expect(Set(got).intersection(onGrid) == planar.intersection(onGrid))
        }
    }

    @Test func corridorQueriesMatchCorridorContains() async {
        await propertyCheck(count: TestScale.count(short: 20, full: 40), input: Gen.int(in: 0...Int(Int32.max))) { seed in
            var rng = SplitMix64(seed: seed)
            let route = Scenario.route(&rng)
            let d = rng.logUniform(1, 500)
            let corridor = try! Corridor(line: route, distance: d)
            var points: [GeoPoint] = []
            for _ in 0..<rng.int(100...2000) {
                let v = rng.pick(route)
                points.append(Scenario.near(v, spread: rng.pick([d, 3 * d, 1_500]), &rng))
            }
            points += Scenario.cloud(count: rng.int(0...500), &rng)
            let (set, _) = loadSet(points, &rng)
            let s = set.snapshot()
            let live = liveEntries(s)
            let expected = Set(live.filter { corridor.contains(lon: $0.point.lon, lat: $0.point.lat) }.map(\.ref))
            let got = s.entries(along: corridor)
            #expect(got.count == Set(got).count, "duplicate results")
            #expect(Set(got) == expected, "route \(route) d \(d): \(got.count) results, brute force \(expected.count)")
            let f = idFilter(seed)
            #expect(Set(s.entries(along: corridor) { f(s.id(of: $0)) }) == Set(expected.filter { f(s.id(of: $0)) }))
        }
    }

    /// A bare tree (built on two threads past 65,536 points) walked with box queries.
    @Test func packedTreeBoxWalkMatchesBruteForce() {
        var rng = SplitMix64(seed: 11)
        var lons: [Double] = [], lats: [Double] = []
        for _ in 0..<90_000 {
            let p = rng.chance(0.7) ? Scenario.near(GeoPoint(lat: 52.23, lon: 21.01), spread: 20_000, &rng) : Scenario.point(&rng)
            lons.append(p.lon); lats.append(p.lat)
        }
        for _ in 0..<2_000 { let i = rng.int(0...(lons.count - 1)); lons.append(lons[i]); lats.append(lats[i]) }
        let tree = PackedTree(entries: (0..<Int32(lons.count)).map { $0 }, lons: lons, lats: lats)
        #expect(Set(tree.entries) == Set(0..<Int32(lons.count)))
        for q in 0..<60 {
            let b: GeoBox
            if q % 4 == 3 {
                // Edges on points' own coordinates: nodes whose points' box only touches the
                // query box must still be entered (edges are inclusive).
                let i = rng.int(0...(lons.count - 1)), j = rng.int(0...(lons.count - 1))
                b = GeoBox(west: min(lons[i], lons[j]), south: min(lats[i], lats[j]), east: max(lons[i], lons[j]), north: max(lats[i], lats[j]))
            } else if q % 2 == 0 {
                let c = Scenario.near(GeoPoint(lat: 52.23, lon: 21.01), spread: 20_000, &rng)
                let w = rng.logUniform(1e-4, 0.5), h = rng.logUniform(1e-4, 0.5)
                b = GeoBox(west: c.lon - w, south: c.lat - h, east: c.lon + w, north: c.lat + h)
            } else {
                let west = rng.uniform(-180, 170), south = rng.uniform(-90, 80)
                b = GeoBox(west: west, south: south, east: min(180, west + rng.uniform(0, 60)), north: min(90, south + rng.uniform(0, 40)))
            }
            var got: [Int32] = [], misplaced = 0
            tree.forEach(west: b.west, south: b.south, east: b.east, north: b.north) { e, x, y in
                if x != lons[Int(e)] || y != lats[Int(e)] { misplaced += 1 }
                got.append(e)
            }
            #expect(misplaced == 0, "box \(b): \(misplaced) points reported at another point's position")
            let expected = (0..<lons.count).filter { lons[$0] >= b.west && lons[$0] <= b.east && lats[$0] >= b.south && lats[$0] <= b.north }
            #expect(got.count == expected.count && Set(got) == Set(expected.map(Int32.init)), "box \(b): \(got.count) points, brute force \(expected.count)")
        }
    }

    /// Trees of every small shape (no inner node, one, two levels, uneven halves), with
    /// duplicate points: their node arrays hold (the invariant checks, in builds that have
    /// them), and both walks, the box walk and the nearest walk with nothing skipped, find
    /// exactly the points of each box; the nearest walk always ends with `finish`.
    @Test func smallTreesOfEveryShapeWalkLikeBruteForce() {
        var rng = SplitMix64(seed: 23)
        struct Everything: NearestWalker {
            var found: [Int32] = []
            var finished = 0
            func skips(west: Double, south: Double, east: Double, north: Double) -> Bool { false }
            mutating func take(_ position: Int, lon: Double, lat: Double, entries: UnsafeBufferPointer<Int32>) {
                found.append(entries[position])
            }
            mutating func finish(entries: UnsafeBufferPointer<Int32>) { finished += 1 }
        }
        var log = FailureLog(), boxesWithPoints = 0
        for n in [0, 1, 2, 3, 31, 32, 33, 34, 35, 36, 66, 67, 68, 69, 100, 257, 1_000, 4_099] {
            var lons: [Double] = [], lats: [Double] = []
            for i in 0..<n {
                if i > 0 && rng.chance(0.1) { let j = rng.int(0...(i - 1)); lons.append(lons[j]); lats.append(lats[j]); continue }
                let p = rng.chance(0.8) ? Scenario.near(GeoPoint(lat: 50.06, lon: 19.94), spread: 3_000, &rng) : Scenario.point(&rng)
                lons.append(p.lon); lats.append(p.lat)
            }
            let tree = PackedTree(entries: (0..<Int32(n)).map { $0 }, lons: lons, lats: lats)
            let problems = tree._invariantViolations()
            log.check(problems.isEmpty, "\(n) points: \(problems.prefix(3))")
            for q in 0..<30 {
                let b: GeoBox
                if n > 0 && q % 3 == 0 {
                    let i = rng.int(0...(n - 1)), j = rng.int(0...(n - 1))
                    b = GeoBox(west: min(lons[i], lons[j]), south: min(lats[i], lats[j]), east: max(lons[i], lons[j]), north: max(lats[i], lats[j]))
                } else {
                    let c = rng.chance(0.7) ? Scenario.near(GeoPoint(lat: 50.06, lon: 19.94), spread: 3_000, &rng) : Scenario.point(&rng)
                    let w = rng.logUniform(1e-5, 30), h = rng.logUniform(1e-5, 30)
                    b = GeoBox(west: max(-180, c.lon - w), south: max(-90, c.lat - h), east: min(180, c.lon + w), north: min(90, c.lat + h))
                }
                let expected = Set((0..<n).filter { lons[$0] >= b.west && lons[$0] <= b.east && lats[$0] >= b.south && lats[$0] <= b.north }.map(Int32.init))
                if !expected.isEmpty { boxesWithPoints += 1 }
                var boxed: [Int32] = []
                tree.forEach(west: b.west, south: b.south, east: b.east, north: b.north) { e, _, _ in boxed.append(e) }
                log.check(boxed.count == expected.count && Set(boxed) == expected, "\(n) points, box \(b): box walk \(boxed.count), brute force \(expected.count)")
                var walker = Everything()
                tree.nearestWalk(box: b, origin: GeoPoint(lat: (b.south + b.north) / 2, lon: (b.west + b.east) / 2), &walker)
                log.check(walker.found.count == expected.count && Set(walker.found) == expected,
                          "\(n) points, box \(b): nearest walk \(walker.found.count), brute force \(expected.count)")
                // Every walk of a non-empty tree ends with `finish`, even one whose box misses every point.
                log.check(walker.finished == (n > 0 ? 1 : 0), "\(n) points, box \(b): finish called \(walker.finished) times")
            }
        }
        #expect(boxesWithPoints > 200, "only \(boxesWithPoints) boxes held points")
        #expect(log.isEmpty, "\(log.summary)")
    }

    @Test func geohashGridMatchesPackedTree() async {
        await propertyCheck(count: TestScale.count(short: 20, full: 40), input: Gen.int(in: 0...Int(Int32.max))) { seed in
            var rng = SplitMix64(seed: seed)
            let (cloud, s, live) = loadedCloud(&rng)
            let grid = GeohashGridIndex(entries: live.map(\.ref.index), lons: live.map(\.point.lon), lats: live.map(\.point.lat),
                                        precision: rng.int(1...8))
            #expect(grid.count == live.count)
            var log = FailureLog()
            for _ in 0..<10 {
                let center = !cloud.isEmpty && rng.chance(0.4) ? rng.pick(cloud) : Scenario.center(&rng)
                let r = Scenario.radius(&rng)
                let fromGrid = grid.entries(within: r, of: center)
                let fromTree = s.entries(within: r, of: center).map(\.index)
                let brute = live.filter { Geodesic.distance(lat1: center.lat, lon1: center.lon, lat2: $0.point.lat, lon2: $0.point.lon) <= r }.map(\.ref.index)
                log.check(fromGrid.count == Set(fromGrid).count, "grid: duplicate results")
                log.check(Set(fromGrid) == Set(fromTree) && Set(fromTree) == Set(brute),
                          "radius \(r) at \(center) p \(grid.precision): grid \(fromGrid.count), tree \(fromTree.count), brute force \(brute.count)")
            }
            #expect(log.isEmpty, "\(log.summary)")
        }
    }
}
