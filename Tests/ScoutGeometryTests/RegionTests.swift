import Foundation
import PropertyBased
import ScoutCore
import ScoutGeodesy
import ScoutGeometry
import ScoutTestSupport
import Testing

/// Placements of generated polygons: anywhere, or touching the antimeridian / the poles.
func polygonSet(_ rng: inout SplitMix64) -> (polys: [PlanarPolygons.Polygon], multi: Bool) {
    let parts = rng.int(1...3)
    let multi = parts > 1 || rng.chance(0.3)
    switch rng.unit() {
    case ..<0.15:
        return (PlanarPolygons.multiPolygon(&rng, parts: parts, lon: 160...180, lat: -60...60, size: 0.2...2), multi)
    case ..<0.3:
        return (PlanarPolygons.multiPolygon(&rng, parts: parts, lon: -30...30, lat: 80...90, size: 0.2...2), multi)
    default:
        return (PlanarPolygons.multiPolygon(&rng, parts: parts), multi)
    }
}

func expectError(_ code: ScoutError.Code, containing fragment: String? = nil, pathSuffix: String? = nil,
                 sourceLocation: SourceLocation = #_sourceLocation, _ body: () throws -> Void) {
    do {
        try body()
        Issue.record("expected \(code.rawValue), got no error", sourceLocation: sourceLocation)
    } catch {
        guard let error = error as? ScoutError else { Issue.record("not a ScoutError: \(error)", sourceLocation: sourceLocation); return }
        #expect(error.code == code, "\(error)", sourceLocation: sourceLocation)
        if let fragment { #expect(error.message.localizedCaseInsensitiveContains(fragment), "\(error)", sourceLocation: sourceLocation) }
        if let pathSuffix { #expect(error.path?.hasSuffix(pathSuffix) == true, "\(error)", sourceLocation: sourceLocation) }
    }
}

@Suite struct RegionTests {
    @Test func coversAgreesWithPlanarBruteForce() async {
        await propertyCheck(count: 120, input: Gen.int(in: 0...Int(Int32.max))) { seed in
            var rng = SplitMix64(seed: seed)
            let (polys, multi) = polygonSet(&rng)
            let region: Region, viaWKT: Region
            do {
                region = multi ? try Region.multiPolygon(polys) : try Region.polygon(polys[0])
                viaWKT = try Region.wkt(PlanarPolygons.wkt(polys, multi: multi))
            } catch {
                Issue.record("valid polygon rejected: \(error)\n\(PlanarPolygons.wkt(polys, multi: multi))"); return
            }
            var log = FailureLog()
            // Envelope = bounding box of the shells.
            let shells = polys.flatMap { $0[0] }
            let env = GeoBox(west: shells.map(\.x).min()!, south: shells.map(\.y).min()!, east: shells.map(\.x).max()!, north: shells.map(\.y).max()!)
            log.check(region.envelope == env, "envelope \(String(describing: region.envelope)) != \(env)")
            log.check(region.vertexCount == polys.reduce(0) { $0 + $1.reduce(0) { $0 + $1.count } }, "vertex count \(region.vertexCount)")
            let points = PlanarPolygons.samplePoints(polys, count: 400, &rng)
            for p in points {
                let expected = PlanarPolygons.covers(polys, p)
                log.check(region.covers(lon: p.x, lat: p.y) == expected,
                          "covers(\(p.x), \(p.y)) = \(!expected), brute force \(expected)\n\(PlanarPolygons.wkt(polys, multi: multi))")
                log.check(viaWKT.covers(lon: p.x, lat: p.y) == expected, "WKT region covers(\(p.x), \(p.y)) = \(!expected)")
            }
            // relation(to:) is consistent with covers on grid points of random sub-boxes.
            for _ in 0..<20 {
                let g = PlanarPolygons.pointGrid
                func snap(_ v: Double) -> Double { (v / g).rounded() * g }
                let x0 = snap(rng.uniform(env.west - 0.5, env.east + 0.5)), y0 = snap(rng.uniform(env.south - 0.5, env.north + 0.5))
                let w = snap(rng.logUniform(g, 2)), h = snap(rng.logUniform(g, 2))
                let box = GeoBox(west: x0, south: y0, east: x0 + w, north: y0 + h)
                let rel = region.relation(to: box)
                var sample: [SIMD2<Double>] = [SIMD2(box.west, box.south), SIMD2(box.east, box.north), SIMD2(box.west, box.north), SIMD2(box.east, box.south)]
                for _ in 0..<30 { sample.append(SIMD2(snap(rng.uniform(box.west, box.east)), snap(rng.uniform(box.south, box.north)))) }
                let covered = sample.map { PlanarPolygons.covers(polys, $0) }
                switch rel {
                case .inside: log.check(covered.allSatisfy { $0 }, "relation(\(box)) = inside but a grid point is not covered")
                case .outside: log.check(!covered.contains(true), "relation(\(box)) = outside but a grid point is covered")
                case .boundary: log.check(covered.contains(true) || !covered.allSatisfy { $0 } , "unreachable")
                }
                if covered.contains(true) && covered.contains(false) {
                    log.check(rel == .boundary, "relation(\(box)) = \(rel) but the box holds covered and uncovered points")
                }
            }
            // The geohash cover of the region holds the cell of every covered point.
            let precision = rng.int(1...4)
            if let cells = try? Geohash.cells(covering: region, precision: precision) {
                let set = Set(cells)
                for p in points where PlanarPolygons.covers(polys, p) {
                    let cell = try! Geohash(GeoPoint(lat: p.y, lon: p.x), precision: precision)
                    log.check(set.contains(cell), "geohash cover misses \(cell) holding covered (\(p.x), \(p.y))")
                }
            } else { log.check(false, "geohash cover of a small region threw") }
            #expect(log.isEmpty, "\(log.summary)")
        }
    }

    @Test func invalidPolygonsAreRejectedWithUsefulMessages() {
        let sq: [SIMD2<Double>] = [SIMD2(0, 0), SIMD2(1, 0), SIMD2(1, 1), SIMD2(0, 1), SIMD2(0, 0)]
        // Bow-tie: self-intersection at (0.5, 0.5); the location is redacted from the message.
        do {
            _ = try Region.polygon([[SIMD2(0, 0), SIMD2(1, 1), SIMD2(1, 0), SIMD2(0, 1), SIMD2(0, 0)]])
            Issue.record("bow-tie accepted")
        } catch {
            #expect(error.code == .invalidGeometry)
            #expect(error.message.contains("Self-intersection"), "\(error)")
            #expect(!error.message.contains("0.5"), "coordinates leak into \(error)")
        }
        expectError(.invalidGeometry, containing: "closed", pathSuffix: "coordinates[0]") {
            _ = try Region.polygon([[SIMD2(0, 0), SIMD2(1, 0), SIMD2(1, 1), SIMD2(0, 1)]])
        }
        expectError(.invalidGeometry, containing: "at least 4", pathSuffix: "coordinates[0]") {
            _ = try Region.polygon([[SIMD2(0, 0), SIMD2(1, 0), SIMD2(0, 0)]])
        }
        expectError(.invalidGeometry, containing: "finite", pathSuffix: "coordinates[0][2]") {
            _ = try Region.polygon([[SIMD2(0, 0), SIMD2(1, 0), SIMD2(.nan, 1), SIMD2(0, 1), SIMD2(0, 0)]])
        }
        expectError(.invalidGeometry, containing: "finite", pathSuffix: "coordinates[0][1][1]") {
            _ = try Region.multiPolygon([[sq, [SIMD2(0.2, 0.2), SIMD2(.infinity, 0.2), SIMD2(0.3, 0.3), SIMD2(0.2, 0.2)]]])
        }
        expectError(.invalidGeometry, containing: "at least one ring") { _ = try Region.polygon([]) }
        expectError(.invalidGeometry, containing: "not valid") {   // hole outside the shell
            _ = try Region.polygon([sq, [SIMD2(2, 2), SIMD2(3, 2), SIMD2(3, 3), SIMD2(2, 2)]])
        }
        expectError(.invalidGeometry, containing: "not valid") {   // overlapping multipolygon parts
            _ = try Region.multiPolygon([[sq], [sq.map { $0 + SIMD2(0.5, 0.5) }]])
        }
        expectError(.invalidGeometry, containing: "longitudes") {
            _ = try Region.polygon([[SIMD2(179, 0), SIMD2(181, 0), SIMD2(181, 1), SIMD2(179, 0)]])
        }
        expectError(.invalidGeometry, containing: "latitudes") {
            _ = try Region.polygon([[SIMD2(0, 89), SIMD2(1, 89), SIMD2(1, 91), SIMD2(0, 89)]])
        }
        // The path of a caller is kept.
        expectError(.invalidGeometry, pathSuffix: "within.coordinates[0]") {
            _ = try Region.polygon([[SIMD2(0, 0), SIMD2(1, 0), SIMD2(0, 0)]], path: "within")
        }
    }

    @Test(arguments: ["POLYGON((0 0, 1 0, 1 1", "LINESTRING(0 0, 1 1)", "POINT(1 2)", "garbage", "", "POLYGON((0 0, 1 1, 1 0, 0 1, 0 0))",
                      "POLYGON((0 0, 1 0, 1 1, 0 1))", "MULTIPOLYGON(((0 0, 1 0, nan 1, 0 0)))", "GEOMETRYCOLLECTION(POINT(0 0))"])
    func badWKTIsInvalidGeometry(text: String) {
        expectError(.invalidGeometry) { _ = try Region.wkt(text) }
    }

    @Test func emptyWKTPolygonCoversNothing() throws {
        let r = try Region.wkt("POLYGON EMPTY")
        #expect(r.envelope == nil)
        #expect(!r.covers(lon: 0, lat: 0))
    }

    @Test func unknownCRSIsReported() {
        let ring: [SIMD2<Double>] = [SIMD2(715_800, 734_700), SIMD2(716_800, 734_700), SIMD2(716_800, 735_700), SIMD2(715_800, 734_700)]
        expectError(.unknownCRS, pathSuffix: "crs") { _ = try Region.polygon([ring], crs: "EPSG:999999") }
        expectError(.unknownCRS) { _ = try Region.wkt("POLYGON((0 0, 1 0, 1 1, 0 0))", crs: "EPSG:999999") }
        expectError(.unknownCRS) { _ = try Region.wkt("POLYGON((0 0, 1 0, 1 1, 0 0))", crs: "not a crs at all") }
    }

    // Irish Transverse Mercator corners and their longitude/latitude, computed independently
    // with pyproj 3.7.2 / PROJ 9.5.1:
    // Transformer.from_crs("EPSG:2157", "EPSG:4326", always_xy=True).transform(x, y)
    static let itm: [SIMD2<Double>] = [SIMD2(715_800, 734_700), SIMD2(716_800, 734_700), SIMD2(716_800, 735_700), SIMD2(715_800, 735_700)]
    static let itmLonLat: [SIMD2<Double>] = [
        SIMD2(-6.260697044191049, 53.349827426243166), SIMD2(-6.245684842226163, 53.3496076401835),
        SIMD2(-6.245315854315868, 53.35859033817551), SIMD2(-6.260331209922578, 53.35881019575623),
    ]

    @Test func irishTransverseMercatorMatchesLonLat() throws {
        let pool = CRSTransform.Pool()
        let projected = try Region.polygon([Self.itm + [Self.itm[0]]], crs: "EPSG:2157", transforms: pool)
        let again = try Region.wkt("POLYGON((715800 734700, 716800 734700, 716800 735700, 715800 735700, 715800 734700))", crs: "epsg:2157", transforms: pool)
        let lonLat = try Region.polygon([Self.itmLonLat + [Self.itmLonLat[0]]])
        let explicit4326 = try Region.polygon([Self.itmLonLat + [Self.itmLonLat[0]]], crs: "EPSG:4326")
        for r in [projected, again, explicit4326] {
            let a = try #require(r.envelope), b = try #require(lonLat.envelope)
            #expect(abs(a.west - b.west) < 1e-6 && abs(a.east - b.east) < 1e-6 && abs(a.south - b.south) < 1e-6 && abs(a.north - b.north) < 1e-6,
                    "\(a) vs \(b)")
        }
        // Same answers away from the boundary (farther than 1e-5 degrees from every edge).
        var rng = SplitMix64(seed: 2157)
        let env = try #require(lonLat.envelope)
        var compared = 0
        for _ in 0..<2000 {
            let p = SIMD2(rng.uniform(env.west - 0.002, env.east + 0.002), rng.uniform(env.south - 0.002, env.north + 0.002))
            let ring = Self.itmLonLat + [Self.itmLonLat[0]]
            var near = false
            for i in 0..<4 {
                let a = ring[i], b = ring[i + 1], ab = b - a
                let t = max(0, min(1, ((p - a) * ab).sum() / (ab * ab).sum()))
                let d = p - (a + t * ab)
                if (d * d).sum().squareRoot() < 1e-5 { near = true }
            }
            if near { continue }
            compared += 1
            #expect(projected.covers(lon: p.x, lat: p.y) == lonLat.covers(lon: p.x, lat: p.y), "\(p)")
        }
        #expect(compared > 1500)
        // The transform itself.
        let t = try CRSTransform(from: "EPSG:2157")
        for (xy, ll) in zip(Self.itm, Self.itmLonLat) {
            let r = try #require(t.forward(xy.x, xy.y))
            #expect(abs(r.x - ll.x) < 1e-6 && abs(r.y - ll.y) < 1e-6, "\(r) vs \(ll)")
        }
    }
}
