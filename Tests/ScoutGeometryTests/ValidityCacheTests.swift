import ScoutCore
import ScoutGeometry
import Testing

/// Region remembers GEOS's validity verdicts per exact input; a remembered verdict must
/// give the same answers as a fresh one.
@Suite struct ValidityCacheTests {
    let bowTie: [[SIMD2<Double>]] = [[SIMD2(0, 0), SIMD2(1, 1), SIMD2(1, 0), SIMD2(0, 1), SIMD2(0, 0)]]
    let square: [[SIMD2<Double>]] = [[SIMD2(0, 0), SIMD2(2, 0), SIMD2(2, 2), SIMD2(0, 2), SIMD2(0, 0)]]

    func message(_ body: () throws(ScoutError) -> Region) -> String? {
        do { _ = try body(); return nil } catch { return error.code == .invalidGeometry ? error.message : "wrong code \(error.code)" }
    }

    @Test func anInvalidPolygonStaysInvalidWhenSeenAgain() {
        let first = message { () throws(ScoutError) in try Region.polygon(bowTie) }
        let second = message { () throws(ScoutError) in try Region.polygon(bowTie) }
        #expect(first != nil && first == second)
        #expect(first?.contains("Self-intersection") == true)
        let wkt = "POLYGON((0 0, 1 1, 1 0, 0 1, 0 0))"
        let w1 = message { () throws(ScoutError) in try Region.wkt(wkt) }
        let w2 = message { () throws(ScoutError) in try Region.wkt(wkt) }
        #expect(w1 != nil && w1 == w2)
    }

    @Test func aValidPolygonJudgesTheSameWhenSeenAgain() throws {
        let a = try Region.polygon(square), b = try Region.polygon(square)
        for (x, y) in [(1.0, 1.0), (2.0, 2.0), (2.0001, 1.0), (0.0, 1.0)] {
            #expect(a.covers(lon: x, lat: y) == b.covers(lon: x, lat: y))
        }
        #expect(b.covers(lon: 2, lat: 2))
        #expect(!b.covers(lon: 2.0001, lat: 1))
    }

    @Test func theVerdictIsKeyedByTheExactInput() {
        // The same ring nudged into a valid shape must not inherit the bow-tie's verdict.
        _ = message { () throws(ScoutError) in try Region.polygon(bowTie) }
        let fixed: [[SIMD2<Double>]] = [[SIMD2(0, 0), SIMD2(1, 0), SIMD2(1, 1), SIMD2(0, 1), SIMD2(0, 0)]]
        #expect(message { () throws(ScoutError) in try Region.polygon(fixed) } == nil)
        // A different CRS is a different input too.
        let itm: [[SIMD2<Double>]] = [[SIMD2(714000, 732000), SIMD2(718000, 732000), SIMD2(718000, 736000), SIMD2(714000, 736000), SIMD2(714000, 732000)]]
        #expect(message { () throws(ScoutError) in try Region.polygon(itm) } != nil, "ITM metres are out of lon/lat range")
        #expect(message { () throws(ScoutError) in try Region.polygon(itm, crs: "EPSG:2157") } == nil)
    }
}
