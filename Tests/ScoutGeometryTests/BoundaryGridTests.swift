import Foundation
import PropertyBased
import ScoutCore
@testable import ScoutGeometry
import ScoutTestSupport
import Testing

/// The boundary grid decides points without GEOS only where no ring can pass: its verdicts
/// must equal the exact planar oracle, points on a ring must always go to GEOS, and it must
/// decide most points, or it saves nothing.
@Suite struct BoundaryGridTests {
    /// Checks every point's grid verdict against the oracle; returns how many were decided.
    func check(_ region: Region, _ polys: [PlanarPolygons.Polygon], _ points: [SIMD2<Double>], _ log: inout FailureLog) -> Int {
        let grid = region.boundaryGrid
        var decided = 0
        for p in points {
            let expected = PlanarPolygons.covers(polys, p)
            let onRing = polys.contains { $0.contains { PlanarPolygons.onBoundary(p, $0) } }
            let relation = grid.relation(lon: p.x, lat: p.y)
            switch relation {
            case .inside: log.check(expected, "grid says inside, oracle says uncovered: (\(p.x), \(p.y))")
            case .outside: log.check(!expected, "grid says outside, oracle says covered: (\(p.x), \(p.y))")
            case .boundary: break
            }
            if relation != .boundary { decided += 1 }
            log.check(!onRing || relation == .boundary, "(\(p.x), \(p.y)) lies on a ring but the grid decided it: \(relation)")
            log.check(region.relation(lon: p.x, lat: p.y) == relation, "Region.relation and its grid disagree at (\(p.x), \(p.y))")
        }
        return decided
    }

    @Test func cellVerdictsAgreeWithTheExactOracle() async {
        await propertyCheck(count: 100, input: Gen.int(in: 0...Int(Int32.max))) { seed in
            var rng = SplitMix64(seed: seed)
            let (polys, multi) = polygonSet(&rng)
            guard let region = try? (multi ? Region.multiPolygon(polys) : Region.polygon(polys[0])) else {
                Issue.record("valid polygon rejected: \(PlanarPolygons.wkt(polys, multi: multi))"); return
            }
            var log = FailureLog()
            // Vertices, edge points, grid points and points on vertices' lines.
            _ = check(region, polys, PlanarPolygons.samplePoints(polys, count: 1500, &rng), &log)
            // Uniform points over the envelope: the grid must decide most of them.
            let env = region.envelope!
            let uniform = (0..<1000).map { _ in SIMD2(rng.uniform(env.west, env.east), rng.uniform(env.south, env.north)) }
            let decided = check(region, polys, uniform, &log)
            // Typically 80–95%; some random multipolygons with many holes come near 65%, so the
            // bound per case is loose (a broken grid decides ~0), not an efficiency target.
            log.check(decided >= 500, "the grid decided only \(decided) of 1,000 uniform points")
            #expect(log.isEmpty, "\(log.summary)\n\(PlanarPolygons.wkt(polys, multi: multi))")
        }
    }

    /// A one-ring polygon's grid is marked on the spare core beside its validity proof (or,
    /// when its validity is known, alone) and labelled here: it must equal the grid built
    /// all at once from the rings GEOS holds.
    @Test func gridsMarkedBesideTheProofEqualGridsBuiltAtOnce() throws {
        var rng = SplitMix64(seed: 0x6e1d)
        for trial in 0..<40 {
            let n = rng.int(4...1500)
            let cx = rng.uniform(-170, 170), cy = rng.uniform(-80, 80), scale = rng.logUniform(1e-3, 3)
            var ring: [SIMD2<Double>] = (0..<n).map { i in
                let t = (Double(i) + rng.uniform(-0.45, 0.45)) / Double(n) * 2 * .pi
                let r = scale * (1 + 0.3 * sin(3 * t) + 0.04 * rng.uniform(-1, 1))
                return SIMD2(cx + r * cos(t), cy + r * sin(t))
            }
            ring.append(ring[0])
            // First sight (proof and marks), then known valid (marks only).
            for sight in ["first", "known"] {
                let region = try Region.polygon([ring])
                let direct = BoundaryGrid(rings: [ring], envelope: region.envelope, vertexCount: region.vertexCount) {
                    region.covers(lon: $0, lat: $1)
                }
                let same = region.boundaryGrid == direct   // (not inside #expect, which would print both grids)
                #expect(same, "trial \(trial), \(sight) sight, \(n) vertices")
                #expect(region.boundaryGrid.decidesPoints)
            }
        }
    }

    /// The marking numbers the first 252 boundary-free areas (labelled by one GEOS test
    /// each and a table); a region with more (a plate with 324 holes, each hole an area of
    /// its own) has the rest painted area by area. Every verdict must still be exact.
    @Test func areasPastTheNumberedOnesAreLabelledToo() throws {
        var shell: PlanarPolygons.Ring = [SIMD2(0, 0), SIMD2(18, 0), SIMD2(18, 18), SIMD2(0, 18), SIMD2(0, 0)]
        shell = shell.map { $0 + SIMD2(5, 40) }
        var rings = [shell]
        for i in 0..<18 {
            for j in 0..<18 {
                let (x, y) = (5 + Double(i) + 0.1, 40 + Double(j) + 0.1)
                rings.append([SIMD2(x, y), SIMD2(x, y + 0.8), SIMD2(x + 0.8, y + 0.8), SIMD2(x + 0.8, y), SIMD2(x, y)])
            }
        }
        let region = try Region.polygon(rings)
        let marks = BoundaryGrid.Marks(rings: rings, envelope: region.envelope, vertexCount: region.vertexCount)
        #expect(marks.areas.count == BoundaryGrid.numberedAreas, "\(marks.areas.count) areas numbered")
        #expect(marks.cells.contains(0), "no area was left for the labels to paint")
        var log = FailureLog()
        var rng = SplitMix64(seed: 0x401e)
        let points = (0..<4000).map { _ in SIMD2(rng.uniform(5, 23), rng.uniform(40, 58)) }
        let decided = check(region, [rings], points, &log)
        #expect(log.isEmpty, "\(log.summary)")
        #expect(decided > 500, "the grid decided only \(decided) of 4,000 points")   // 1,069 here
    }

    /// Long diagonal edges are cut into pieces: a right triangle's hypotenuse must not mark
    /// its whole bounding box (which would send every point to GEOS).
    @Test func longDiagonalEdgesMarkABandNotTheirBoundingBox() throws {
        let triangle: PlanarPolygons.Polygon = [[SIMD2(0, 0), SIMD2(10, 0), SIMD2(0, 10), SIMD2(0, 0)]]
        let region = try Region.polygon(triangle)
        var log = FailureLog()
        var rng = SplitMix64(seed: 7)
        var points: [SIMD2<Double>] = (0..<2000).map { _ in SIMD2(rng.uniform(0, 10), rng.uniform(0, 10)) }
        for i in 0...64 {
            let x = Double(i) * 10 / 64
            points.append(SIMD2(x, 10 - x))   // on the hypotenuse
        }
        let decided = check(region, [triangle], points, &log)
        #expect(log.isEmpty, "\(log.summary)")
        #expect(decided >= 1500, "decided \(decided) of \(points.count)")
    }

    /// A comb of 1,000 teeth, each across 358° of longitude, stacked within 0.002° of
    /// latitude: its thin envelope gets 8,000 columns and each tooth spans them all (32 million
    /// pieces to mark). The grid gives up past its budget and leaves every point to GEOS,
    /// whose verdicts stay exact; a normal polygon of as many vertices keeps its grid.
    @Test func markingIsBoundedOnLongThinEnvelopes() throws {
        var comb: [SIMD2<Double>] = []
        let d = 1e-6
        for i in 0..<1_000 {
            let y = Double(2 * i) * d
            comb += [SIMD2(-179, y), SIMD2(179, y), SIMD2(179, y + d), SIMD2(-178, y + d)]
        }
        let top = 2_000 * d
        comb += [SIMD2(-179, top), SIMD2(-179.5, top), SIMD2(-179.5, 0), SIMD2(-179, 0)]
        let region = try Region.polygon([comb])
        let gaveUp = !region.boundaryGrid.decidesPoints
        #expect(gaveUp, "the grid marked 32 million pieces instead of giving up")
        var log = FailureLog()
        var rng = SplitMix64(seed: 11)
        // Points of the envelope, many on or next to a tooth.
        let points: [SIMD2<Double>] = (0..<2_000).map { _ in
            SIMD2(rng.uniform(-179.5, 179), rng.chance(0.5) ? Double(rng.int(0...2_000)) * d : rng.uniform(0, top))
        }
        #expect(check(region, [[comb]], points, &log) == 0)
        for p in points {
            log.check(region.covers(lon: p.x, lat: p.y) == PlanarPolygons.covers([[comb]], p), "covers(\(p.x), \(p.y)) differs from the oracle")
        }
        #expect(log.isEmpty, "\(log.summary)")
        var star: [SIMD2<Double>] = (0..<4_003).map { i in
            let a = Double(i) * 2 * .pi / 4_003, r = i % 2 == 0 ? 1.0 : 0.9
            return SIMD2(10 + r * cos(a), 20 + r * sin(a))
        }
        star.append(star[0])
        let starDecides = try Region.polygon([star]).boundaryGrid.decidesPoints
        #expect(starDecides, "a 4,003-vertex star lost its grid to the budget")
    }

    /// Cells far smaller than the rounding of large coordinates: a 10⁻⁷° square at 179.99999°
    /// and a sliver 10⁻⁶° wide and 20° tall next to the pole.
    @Test func tinyAndSliverPolygonsKeepTheirRingsUndecided() throws {
        let x0 = 179.999_99, s = 1e-7
        let tiny: PlanarPolygons.Polygon = [[SIMD2(x0, 10), SIMD2(x0 + s, 10), SIMD2(x0 + s, 10 + s), SIMD2(x0, 10 + s), SIMD2(x0, 10)]]
        let sliver: PlanarPolygons.Polygon = [[SIMD2(5, 70), SIMD2(5 + 1e-6, 70), SIMD2(5 + 1e-6, 90), SIMD2(5, 90), SIMD2(5, 70)]]
        for polygon in [tiny, sliver] {
            let region = try Region.polygon(polygon)
            let env = region.envelope!
            var log = FailureLog()
            var rng = SplitMix64(seed: 11)
            var points = polygon[0]
            for i in 0..<(polygon[0].count - 1) {
                let a = polygon[0][i], b = polygon[0][i + 1]
                for k in 1..<16 { points.append(a + (b - a) * (Double(k) / 16)) }
            }
            points += (0..<500).map { _ in SIMD2(rng.uniform(env.west, env.east), rng.uniform(env.south, env.north)) }
            for p in points {
                // Interpolated edge points need not lie exactly on the ring: GEOS is the oracle.
                let relation = region.relation(lon: p.x, lat: p.y)
                if relation != Region.Relation.boundary {
                    log.check((relation == .inside) == region.covers(lon: p.x, lat: p.y), "grid \(relation) but GEOS disagrees at (\(p.x), \(p.y))")
                }
            }
            for v in polygon[0] { log.check(region.relation(lon: v.x, lat: v.y) == .boundary, "vertex (\(v.x), \(v.y)) decided by the grid") }
            #expect(log.isEmpty, "\(log.summary)")
        }
    }

    @Test func pointsOutsideTheEnvelopeOrNotFiniteAreOutside() throws {
        let region = try Region.polygon([[SIMD2(0.0, 0.0), SIMD2(1, 0), SIMD2(1, 1), SIMD2(0, 1), SIMD2(0, 0)]])
        for (x, y) in [(-0.001, 0.5), (1.001, 0.5), (0.5, 1.5), (.nan, 0.5), (0.5, .infinity)] {
            #expect(region.relation(lon: x, lat: y) == .outside, "(\(x), \(y))")
        }
        #expect(region.relation(lon: 0.5, lat: 0.5) == .inside)
        let empty = try Region.wkt("POLYGON EMPTY")
        #expect(empty.relation(lon: 0, lat: 0) == .outside)
    }
}

extension BoundaryGridTests {
    /// Envelopes so thin that a cell is narrower than the rounding of its own coordinates
    /// (1e-300° wide at latitudes up to 90°: the margin was 1e287 cells, and converting cell
    /// numbers to `Int` trapped; found by `FuzzGeometry`, `Fuzz/Regressions/FuzzGeometry/grid-scale-overflow.wkt`).
    /// The region builds, its grid decides nothing, and GEOS judges every point exactly.
    @Test func envelopesThinnerThanTheirRoundingLeaveEveryPointToGEOS() throws {
        let bottom: [SIMD2<Double>] = (0...100).map { i in SIMD2(-180 + 3.6 * Double(i), i % 2 == 0 ? 0 : 3e-100) }
        let top: [SIMD2<Double>] = (0...100).reversed().map { i in SIMD2(-180 + 3.6 * Double(i), i % 2 == 0 ? 1e-99 : 7e-100) }
        let zigzag: [SIMD2<Double>] = bottom + top + [bottom[0]]
        let thin: [[SIMD2<Double>]] = [
            [SIMD2(0, 0), SIMD2(2e-300, 0), SIMD2(1e-300, -90), SIMD2(0, 0)],
            [SIMD2(0, 0), SIMD2(0, 2e-300), SIMD2(-180, 1e-300), SIMD2(0, 0)],
            [SIMD2(-180, 0), SIMD2(180, 0), SIMD2(180, 1e-300), SIMD2(-180, 0)],
            // Within the simple-ring proof's coordinate range (1e-100…1e100) and long enough
            // for its bucket grid (a zigzag sliver of 202 vertices), which trapped the same way.
            zigzag,
        ]
        for ring in thin {
            let region = try Region.polygon([ring])
            #expect(!region.boundaryGrid.decidesPoints, "\(ring): the grid decided points")
            let polys = [[ring]]
            for p in ring + [SIMD2(1e-300, -45), SIMD2(-90, 1e-300), SIMD2(0, -89.99), SIMD2(1, 1), SIMD2(-1, -1), SIMD2(90, 45)] {
                #expect(region.covers(lon: p.x, lat: p.y) == PlanarPolygons.covers(polys, p), "\(ring): covers(\(p))")
                #expect(region.relation(lon: p.x, lat: p.y) != .inside || PlanarPolygons.covers(polys, p))
            }
        }
    }
}
