import Foundation
import ScoutCatalog
import ScoutCore
import ScoutEngine
import ScoutGeodesy
import ScoutJSON
import ScoutRanking
import ScoutRecommend
import ScoutRecommendJSON
import ScoutTestSupport
import Testing

/// Attacks on dogs' homes, the way a stalker would run them: many centres, radii in 1 m
/// steps, boxes, polygons, corridors, nearest order, recommend_dogs scores and cursors.
///
/// The oracle is indistinguishability: two catalogues whose dogs differ only in *where in
/// their published cell* each home lies must get byte-identical answers to every query.
/// If any answer read the exact home, some query below would tell the two apart (the last
/// test shows that an exact engine fails this very check).
@Suite(.serialized) struct LocationPrivacyTests {
    /// Dogs of the sample within ~25 km of Wrocław, as loaded records.
    static let dogs: [PointRecord] = {
        Repository.ensureSampleDogs()
        let all = try! RecordFile.read(path: "\(Repository.data)/sample/dogs.jsonl", defaultKind: nil)
        let wroclaw = GeoPoint(lat: 51.1079, lon: 17.0385)
        return all.filter { Geodesic.distance($0.point!, wroclaw) < 25_000 }
    }()

    /// The same dogs, each moved to another random point of its own geohash-6 cell.
    static func moved(seed: UInt64) -> [PointRecord] {
        var rng = SplitMix64(seed: seed)
        return dogs.map { d in
            var r = d
            let box = try! Geohash(d.point!, precision: LocationPrivacy.cellPrecision).box
            r.point = GeoPoint(lat: Double.random(in: box.south..<box.north, using: &rng),
                               lon: Double.random(in: box.west..<box.east, using: &rng))
            return r
        }
    }

    static func engine(_ records: [PointRecord], privacy: LocationPrivacy = .approximate) -> Engine {
        let e = Engine(catalog: Sample.catalog, privacy: privacy)
        _ = try! e.upsert(records)
        return e
    }

    /// Everything a caller sees of a result, as text (ids, order, points, distances, total, cursor).
    static func seen(_ r: SearchResult) -> String {
        r.hits.map { "\($0.id)@\($0.point!.lat),\($0.point!.lon):\($0.distance.map { String($0) } ?? "-")" }.joined(separator: " ")
            + " total=\(r.total) next=\(r.nextAfter ?? "-")"
    }

    static let weights = try! RecommenderWeights.load(path: "\(Repository.data)/weights.json")

    /// Runs the attack battery on two engines; returns the number of queries that told them apart.
    static func distinguishingQueries(_ a: Engine, _ b: Engine, seed: UInt64, targets count: Int) throws -> (differing: Int, asked: Int) {
        var rng = SplitMix64(seed: seed)
        var differing = 0, asked = 0
        func compare(_ x: String, _ y: String) { asked += 1; if x != y { differing += 1 } }
        let targets = dogs.shuffled(using: &rng).prefix(count)
        for target in targets {
            // Three centres around the home, radii in 1 m steps across the home's distance.
            for bearing in [0.0, 120.0, 240.0] {
                let c = Geodesic.destination(from: target.point!, azimuth: bearing, meters: 1500)
                let d = Geodesic.distance(c, target.point!)
                for r in stride(from: (d - 150).rounded(), through: d + 150, by: 1) {
                    let q = SearchQuery(kind: "dog", area: .radius(center: c, meters: r), limit: 100_000, sort: .id)
                    compare(seen(try a.search(q)), seen(try b.search(q)))
                }
                // Nearest order and distances from the same centre.
                let n = NearestQuery(kind: "dog", from: c, k: 50)
                compare(seen(try a.nearest(n)), seen(try b.nearest(n)))
                // First page in distance order and the next one through the cursor.
                let p1 = SearchQuery(kind: "dog", area: .radius(center: c, meters: 3000), limit: 7)
                let r1 = try a.search(p1), s1 = try b.search(p1)
                compare(seen(r1), seen(s1))
                if let next = r1.nextAfter {
                    var p2 = p1; p2.after = next; p2.sort = .distance
                    compare(seen(try a.search(p2)), seen(try b.search(p2)))
                }
                // recommend_dogs: scores and their terms.
                let m = DogMatchQuery(from: c, radius: 2500, experience: 5, limit: 50, weights: weights)
                let ra = try PlaceRanker(engine: a, weights: weights).recommendDogs(m), rb = try PlaceRanker(engine: b, weights: weights).recommendDogs(m)
                compare(ra.hits.map { "\($0.hit.id):\($0.breakdown.score)" }.joined(separator: " "),
                        rb.hits.map { "\($0.hit.id):\($0.breakdown.score)" }.joined(separator: " "))
            }
            // Boxes, polygons and corridors whose edges sweep across the home in ~1 m steps.
            let p = target.point!
            let step = 1.0 / 111_320
            for k in stride(from: -300, through: 300, by: 7) {
                let edge = p.lon + Double(k) * step / cos(p.lat * .pi / 180)
                let box = GeoBox(west: edge, south: p.lat - 0.01, east: edge + 0.02, north: p.lat + 0.01)
                compare(seen(try a.search(SearchQuery(kind: "dog", area: .box(box), limit: 100_000))),
                        seen(try b.search(SearchQuery(kind: "dog", area: .box(box), limit: 100_000))))
                let ring = [SIMD2(edge, p.lat - 0.01), SIMD2(edge + 0.02, p.lat - 0.01), SIMD2(edge + 0.01, p.lat + 0.01), SIMD2(edge, p.lat - 0.01)]
                let poly = SearchQuery(kind: "dog", area: .polygon(.polygon([ring]), crs: nil), limit: 100_000)
                compare(seen(try a.search(poly)), seen(try b.search(poly)))
                let route = [GeoPoint(lat: p.lat - 0.01, lon: edge), GeoPoint(lat: p.lat + 0.01, lon: edge)]
                let corridor = SearchQuery(kind: "dog", area: .corridor(route: route, meters: 150), limit: 100_000)
                compare(seen(try a.search(corridor)), seen(try b.search(corridor)))
            }
        }
        return (differing, asked)
    }

    @Test func homesMovedWithinTheirCellAreIndistinguishable() throws {
        #expect(Self.dogs.count > 500, "enough dogs near Wrocław to attack")
        let a = Self.engine(Self.dogs), b = Self.engine(Self.moved(seed: 11))
        // Four homes' batteries here (about 3,600 queries), eight in the full run.
        let targets = TestScale.count(short: 4, full: 8)
        let (differing, asked) = try Self.distinguishingQueries(a, b, seed: 5, targets: targets)
        #expect(asked > 880 * targets)
        #expect(differing == 0, "\(differing) of \(asked) queries told two catalogues apart that differ only inside cells")
    }

    /// The same battery must catch an engine that does read exact homes, or it proves nothing.
    @Test func theAttackCatchesAnEngineThatKeepsExactHomes() throws {
        let a = Self.engine(Self.dogs, privacy: .exact), b = Self.engine(Self.moved(seed: 11), privacy: .exact)
        let (differing, _) = try Self.distinguishingQueries(a, b, seed: 5, targets: 2)
        #expect(differing > 100)
    }

    /// Binary search of the radius from three centres (trilateration) finds the cell centre,
    /// not the home: the radius at which a dog appears is its cell centre's distance.
    @Test func trilaterationRecoversTheCellNotTheHome() throws {
        let e = Self.engine(Self.dogs)
        var rng = SplitMix64(seed: 8)
        var farthestFromHome = 0.0
        for target in Self.dogs.shuffled(using: &rng).prefix(20) {
            let cell = try Geohash(target.point!, precision: LocationPrivacy.cellPrecision).center
            for bearing in [30.0, 150.0, 270.0] {
                let c = Geodesic.destination(from: target.point!, azimuth: bearing, meters: 2000)
                var lo = 0.0, hi = 5000.0
                for _ in 0..<40 {
                    let mid = (lo + hi) / 2
                    let r = try e.search(SearchQuery(kind: "dog", area: .radius(center: c, meters: mid), limit: 100_000, sort: .id))
                    if r.hits.contains(where: { $0.id == target.id }) { hi = mid } else { lo = mid }
                }
                #expect(abs(hi - Geodesic.distance(c, cell)) < 0.01, "the probe measures the cell centre")
                farthestFromHome = max(farthestFromHome, abs(hi - Geodesic.distance(c, target.point!)))
            }
        }
        #expect(farthestFromHome > 50, "homes are not where the probes point")
    }

    @Test func exactModeKeepsExactLocations() throws {
        let e = Self.engine(Array(Self.dogs.prefix(50)), privacy: .exact)
        for d in Self.dogs.prefix(50) {
            let r = try e.search(SearchQuery(kind: "dog", area: .radius(center: d.point!, meters: 0.5), limit: 100))
            #expect(r.hits.contains { $0.id == d.id && $0.point == d.point! && $0.distance == 0 && !$0.isApproximate })
        }
    }
}
