import Foundation
import ScoutCore
import ScoutGeodesy
import ScoutGeometry
import ScoutTestSupport
import Testing

/// Corridors are buffered in pieces of ``Corridor/verticesPerPiece`` vertices: long and
/// tangled routes keep the accuracy contract, and a self-crossing route costs its length.
@Suite struct CorridorPiecesTests {
    /// A random walk of `n` vertices with ~`step` m legs that keeps turning back on itself.
    static func tangledRoute(_ n: Int, step: Double, _ rng: inout SplitMix64) -> [GeoPoint] {
        var p = GeoPoint(lat: rng.uniform(-60, 60), lon: rng.uniform(-179, 179))
        let start = p
        var out = [p]
        while out.count < n {
            var next = Geodesic.destination(from: p, azimuth: rng.uniform(-180, 180), meters: step * rng.uniform(0.2, 1))
            if Geodesic.distance(start, next) > 40_000 { next = Geodesic.destination(from: p, azimuth: Oracle.geodesic(from: p, to: start).azimuth, meters: step) }
            out.append(next)
            p = next
        }
        return out
    }

    @Test func longRoutesCutInPiecesKeepTheContract() throws {
        var rng = SplitMix64(seed: 41)
        for _ in 0..<6 {
            let route = Self.tangledRoute(rng.int(40...160), step: 800, &rng)
            let d = rng.logUniform(20, 2000)
            let corridor = try Corridor(line: route, distance: d)
            var decided = 0
            for p in corridorSamples(route: route, distance: d, count: 120, &rng) {
                let (lower, upper) = Oracle.distanceToRoute(p, route: route, resolution: d * 2e-4, cutoff: 2 * d)
                let inside = corridor.contains(lon: p.lon, lat: p.lat)
                if upper <= d * (1 - 0.001) { decided += 1; #expect(inside, "\(p) at \(upper) m is not in the corridor") }
                if lower >= d * (1 + 0.001) { decided += 1; #expect(!inside, "\(p) at ≥ \(lower) m is in the corridor") }
            }
            #expect(decided > 60)
        }
    }

    /// The case that took GEOS minutes and gigabytes when the route was buffered whole.
    @Test func aSelfCrossingRouteOf3000VerticesIsBuilt() throws {
        var rng = SplitMix64(seed: 7)
        let route = Self.tangledRoute(3000, step: 5000, &rng)
        let corridor = try Corridor(line: route, distance: 10_000)
        for p in route.prefix(200) { #expect(corridor.contains(lon: p.lon, lat: p.lat)) }
        let far = Geodesic.destination(from: corridor.center, azimuth: 45, meters: corridor.reach + 1000)
        #expect(!corridor.contains(lon: far.lon, lat: far.lat))
    }

    @Test func routesOverTheVertexLimitAreRefused() {
        let route = (0...Corridor.maximumVertices).map { GeoPoint(lat: 0, lon: Double($0) * 1e-5) }
        #expect(throws: ScoutError(.limitExceeded, "a route may have at most \(Corridor.maximumVertices) positions", path: "along.coordinates")) {
            _ = try Corridor(line: route, distance: 10)
        }
    }

    @Test func deepWKTIsRefusedBeforeGEOSReadsIt() {
        let deep = String(repeating: "GEOMETRYCOLLECTION(", count: 40_000) + "POINT(0 0)" + String(repeating: ")", count: 40_000)
        #expect(throws: ScoutError.self) { _ = try Region.wkt(deep) }
        #expect(throws: Never.self) { _ = try Region.wkt("MULTIPOLYGON(((0 0,1 0,1 1,0 0)),((2 2,3 2,3 3,2 2)))") }
    }

    /// A CRS must be named explicitly: PROJ's lookup by similar name is never used (a
    /// fuzzer found "foo" building a region in Amersfoort's CRS).
    @Test func crsNamesAreNotGuessed() throws {
        for text in ["foo", "WGS", "Amersfoort", "wgs84", "EPSG", "EPSG:", ":2180", "EPSG:21 80", "x[1]", "foo[", "WGS84[1]"] {
            #expect(!CRSTransform.isExplicitDefinition(text), "\(text)")
            #expect(throws: ScoutError.self) { _ = try CRSTransform(from: text) }
        }
        for text in ["EPSG:2180", "epsg:2157", "OGC:CRS84", "urn:ogc:def:crs:EPSG::2180",
                     "+proj=utm +zone=33 +datum=WGS84 +units=m +no_defs",
                     #"GEOGCS["WGS 84",DATUM["WGS_1984",SPHEROID["WGS 84",6378137,298.257223563]],PRIMEM["Greenwich",0],UNIT["degree",0.0174532925199433]]"#] {
            #expect(CRSTransform.isExplicitDefinition(text), "\(text)")
            #expect(throws: Never.self) { _ = try CRSTransform(from: text) }
        }
    }

    @Test func theCRSPoolKeepsABoundedNumberOfSystems() throws {
        let pool = CRSTransform.Pool(maximumKinds: 4)
        for code in [2180, 2157, 3857, 27700, 32633, 32634, 4258, 3035] {
            _ = try pool.withTransform(from: "EPSG:\(code)") { (t: CRSTransform) throws(ScoutError) in t }
            #expect(pool.keptCRSCount <= 4)
        }
        #expect(pool.keptCRSCount == 4)
    }

    /// Remembered validity verdicts keep their inputs: the memory is bounded in bytes, and
    /// large inputs are judged every time instead of pinned.
    @Test func validityMemoryIsBoundedInBytes() throws {
        for k in 0..<40 {
            // ~1.2 MB of positions each, invalid (a bow tie with a long wiggly edge).
            var ring = [SIMD2(0.0, 0.0), SIMD2(1.0, 1.0), SIMD2(1.0, 0.0)]
            for i in 0..<75_000 { ring.append(SIMD2(1.0 - Double(i) / 75_000, 1.0 + Double((i + k) % 7) * 1e-6)) }
            ring.append(SIMD2(0.0, 0.0))
            #expect(throws: ScoutError.self) { _ = try Region.polygon([ring]) }
            #expect(RegionCache.validityBytesHeld <= 32 << 20)
        }
        #expect(RegionCache.validityBytesHeld > 0)
        let huge = "POLYGON((" + (0..<250_000).map { "\($0 % 1000).123456789 \($0 / 1000).987654321" }.joined(separator: ",") + ",0 0))"
        #expect(huge.utf8.count > 4 << 20)
        #expect(throws: ScoutError.self) { _ = try Region.wkt(huge) }
        #expect(!RegionCache.remembersValidity(of: RegionKey(wkt: huge)), "an input over 4 MiB is not remembered")
        let small = "POLYGON((0 0,1 1,1 0,0 1,0 0))"
        #expect(throws: ScoutError.self) { _ = try Region.wkt(small) }
        #expect(RegionCache.remembersValidity(of: RegionKey(wkt: small)))
    }
}
