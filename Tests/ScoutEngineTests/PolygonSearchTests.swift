import ScoutCore
import ScoutEngine
import ScoutGeometry
import ScoutTestSupport
import Testing

/// Polygon searches go through the engine's region cache: a polygon asked for again must
/// answer exactly as a fresh one, and a bad polygon must fail every time.
@Suite struct PolygonSearchTests {
    /// An engine holding a 0.01° lattice of cafés (a kind with no typed fields) over [0, 1]², plus the lattice.
    static func lattice() throws -> (Engine, [GeoPoint]) {
        let engine = Engine(privacy: .exact)
        var points: [GeoPoint] = []
        for i in 0...100 { for j in 0...100 { points.append(GeoPoint(lat: Double(j) / 100, lon: Double(i) / 100)) } }
        _ = try engine.upsert(points.enumerated().map { PointRecord(id: "g\($0.offset)", kind: "cafe", point: $0.element) })
        return (engine, points)
    }

    @Test func aRepeatedPolygonAnswersAsAFreshOneAndIsReused() throws {
        let (engine, points) = try Self.lattice()
        var rng = SplitMix64(seed: 3)
        for round in 0..<6 {
            // A star around the centre, vertices on lattice lines so many points lie on edges.
            let ring = PlanarPolygons.starRing(center: SIMD2(0.5, 0.5), vertices: 5 + round * 7, radii: 0.1...0.45, &rng)
            let oracle = try Region.polygon([ring])
            let expected = Set(points.indices.filter { oracle.covers(lon: points[$0].lon, lat: points[$0].lat) }.map { "g\($0)" })
            let query = SearchQuery(kind: "cafe", area: .polygon(.polygon([ring]), crs: nil), limit: 100_000)
            let first = try engine.search(query)
            let idleAfterFirst = engine.regions.idleCount
            let second = try engine.search(query)
            let firstIDs = first.hits.map { $0.id }, secondIDs = second.hits.map { $0.id }
            #expect(Set(firstIDs) == expected && first.total == expected.count)
            #expect(secondIDs == firstIDs)
            #expect(engine.regions.idleCount == idleAfterFirst, "the second search borrowed and returned the same region")
            #expect(expected.count > 0 && expected.count < points.count)
        }
        #expect(engine.regions.idleCount == 6)
    }

    @Test func anInvalidPolygonFailsEveryTimeAndIsNotKept() throws {
        let (engine, _) = try Self.lattice()
        let bowTie: [[SIMD2<Double>]] = [[SIMD2(0, 0), SIMD2(1, 1), SIMD2(1, 0), SIMD2(0, 1), SIMD2(0, 0)]]
        let query = SearchQuery(kind: "cafe", area: .polygon(.polygon(bowTie), crs: nil))
        for _ in 0..<2 {
            do throws(ScoutError) {
                _ = try engine.search(query)
                Issue.record("a bow-tie was accepted")
            } catch {
                #expect(error.code == .invalidGeometry && error.path == "within")
            }
        }
        #expect(engine.regions.idleCount == 0)
        // A kind never loaded is not_found, and the search still returns the region it borrowed.
        let square: [[SIMD2<Double>]] = [[SIMD2(0, 0), SIMD2(1, 0), SIMD2(1, 1), SIMD2(0, 1), SIMD2(0, 0)]]
        #expect(throws: ScoutError.self) { try engine.search(SearchQuery(kind: "shelter", area: .polygon(.polygon(square), crs: nil))) }
        #expect(engine.regions.idleCount == 1)
    }
}
