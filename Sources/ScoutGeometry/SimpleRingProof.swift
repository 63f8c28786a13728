import CGEOS

/// A cheap proof that a one-ring polygon is valid, with GEOS judging every doubtful
/// predicate; anything it cannot prove goes to GEOS's full validity test.
///
/// GEOS's validity test (`GEOSisValidDetail_r`) nodes the whole ring: ~2.4 M instructions,
/// ~490 µs, for a 1,000-vertex city polygon, more than the rest of a first query. A polygon
/// made of one closed ring with at least four positions, no position repeated in a row,
/// finite coordinates and no holes is valid exactly when its ring is simple: two segments
/// that follow each other meet only at their shared vertex, and any other two never meet.
/// The proof checks that in O(n) expected time:
/// - at each vertex, the turn is not straight: a floating-point orientation whose sign an
///   error bound certifies (Shewchuk's `orient2d` filter), else GEOS's own
///   `GEOSOrientationIndex_r`; a straight (or reversing) turn ends the proof;
/// - segments that do not follow each other and whose closed bounding boxes overlap (found
///   through a grid of buckets) are apart when the same filter certifies that one segment's
///   ends lie strictly on one side of the other's line; the few pairs it cannot separate go
///   to GEOS's `GEOSSegmentIntersection_r`, and any answer but "no intersection" ends the
///   proof.
///
/// The proof only ever says "valid"; when it ends without a proof, the caller runs GEOS's
/// full validity test, which gives the verdict and its reason. Invalid polygons therefore
/// always get GEOS's verdict and message, and a valid polygon the proof cannot handle
/// (holes, several parts, straight turns, touching segments) costs what it did before.
enum SimpleRingProof {
    /// Most candidate pairs handed to GEOS before giving up (GEOS's test is cheaper then).
    static let maximumAsks = 4_096

    /// True when the geometry is proved valid; false when GEOS's validity test must decide.
    ///
    /// - Complexity: O(n) expected for a ring of n vertices whose segments are short against
    ///   the ring's extent; at most O(n) GEOS calls (usually a handful).
    static func provesValid(_ geometry: OpaquePointer, in ctx: GEOSContext) -> Bool {
        let h = ctx.handle
        var polygon = geometry
        let type = GEOSGeomTypeId_r(h, geometry)
        if type == Int32(GEOS_MULTIPOLYGON.rawValue) {
            guard GEOSGetNumGeometries_r(h, geometry) == 1, let part = GEOSGetGeometryN_r(h, geometry, 0) else { return false }
            polygon = part
        } else if type != Int32(GEOS_POLYGON.rawValue) {
            return false
        }
        guard GEOSisEmpty_r(h, polygon) == 0, GEOSGetNumInteriorRings_r(h, polygon) == 0,
              let shell = GEOSGetExteriorRing_r(h, polygon) else { return false }
        let ring = ctx.coordinates(of: shell)
        return ring.withUnsafeBufferPointer { provesSimple($0, ctx: ctx) }
    }

    /// True when the closed ring `p` is proved simple (see the type's summary).
    static func provesSimple(_ p: UnsafeBufferPointer<SIMD2<Double>>, ctx: GEOSContext) -> Bool {
        let m = p.count
        guard m >= 4, p[0] == p[m - 1] else { return false }
        let n = m - 1   // segments: i runs from p[i] to p[i + 1]
        // Coordinates 0 or of magnitude 1e-100…1e100 (so the orientation filter's products
        // neither overflow nor underflow; also refuses NaN and infinities), no position
        // repeated in a row.
        var xmin = Double.infinity, xmax = -Double.infinity, ymin = Double.infinity, ymax = -Double.infinity
        for i in 0..<m {
            let v = p[i]
            guard inRange(v.x), inRange(v.y) else { return false }
            if i > 0, v == p[i - 1] { return false }
            xmin = min(xmin, v.x); xmax = max(xmax, v.x); ymin = min(ymin, v.y); ymax = max(ymax, v.y)
        }
        guard xmax > xmin, ymax > ymin else { return false }
        // No straight turn: consecutive segments meet only at their shared vertex.
        for j in 0..<n {
            let a = p[j == 0 ? n - 1 : j - 1], b = p[j], c = p[j + 1]
            if !turns(a, b, c, ctx: ctx) { return false }
        }
        if n == 3 { return true }   // every pair of a triangle's sides follows each other
        return noOtherSegmentsMeet(p, segments: n, box: (xmin, xmax, ymin, ymax), ctx: ctx)
    }

    @inline(__always) static func inRange(_ v: Double) -> Bool {
        let m = abs(v)
        return m == 0 || (m >= 1e-100 && m <= 1e100)
    }

    /// True when `a`, `b`, `c` are certainly not collinear (the filter, else GEOS).
    @inline(__always)
    static func turns(_ a: SIMD2<Double>, _ b: SIMD2<Double>, _ c: SIMD2<Double>, ctx: GEOSContext) -> Bool {
        if certainSide(a, b, c) != 0 { return true }
        return GEOSOrientationIndex_r(ctx.handle, a.x, a.y, b.x, b.y, c.x, c.y) != 0
    }

    /// The sign of the orientation of `c` against the line `a`–`b` when the filter
    /// certifies it (1 or −1), else 0 (unknown, perhaps collinear): Shewchuk's `orient2d`
    /// with its first error bound, exact when no product overflows or underflows, which
    /// ``provesSimple(_:ctx:)``'s coordinate range guarantees.
    @inline(__always)
    static func certainSide(_ a: SIMD2<Double>, _ b: SIMD2<Double>, _ c: SIMD2<Double>) -> Int {
        let left = (a.x - c.x) * (b.y - c.y), right = (a.y - c.y) * (b.x - c.x)
        let det = left - right
        let bound = orientBound * (abs(left) + abs(right))
        if det > bound { return 1 }
        if -det > bound { return -1 }
        return 0
    }

    /// True when `c` and `d` lie certainly on the same side of the line through `a` and `b`
    /// (so the segments `a`–`b` and `c`–`d` cannot meet).
    @inline(__always)
    static func certainlyApart(_ a: SIMD2<Double>, _ b: SIMD2<Double>, _ c: SIMD2<Double>, _ d: SIMD2<Double>) -> Bool {
        let s = certainSide(a, b, c)
        return s != 0 && s == certainSide(a, b, d)
    }

    /// `(3 + 16ε)ε` with ε = 2⁻⁵³.
    static let orientBound: Double = {
        let e = Double.ulpOfOne / 2
        return (3 + 16 * e) * e
    }()

    /// True when no two segments that do not follow each other meet (GEOS judging every
    /// pair whose closed bounding boxes overlap).
    private static func noOtherSegmentsMeet(_ p: UnsafeBufferPointer<SIMD2<Double>>, segments n: Int,
                                            box: (Double, Double, Double, Double), ctx: GEOSContext) -> Bool {
        let (xmin, xmax, ymin, ymax) = box
        let width = xmax - xmin, height = ymax - ymin
        let target = min(max(2 * n, 16), 1 << 20)
        let cols = min(max(Int((Double(target) * width / height).squareRoot().rounded()), 1), target)
        let rows = max(target / cols, 1)
        let sx = Double(cols) / width, sy = Double(rows) / height
        // A monotone map from coordinates to cells: two boxes sharing a point share that
        // point's cell, which lies in both boxes' cell ranges.
        @inline(__always) func column(_ x: Double) -> Int { min(Int(max((x - xmin) * sx, 0)), cols - 1) }
        @inline(__always) func row(_ y: Double) -> Int { min(Int(max((y - ymin) * sy, 0)), rows - 1) }
        let cellCount = cols * rows
        // Bucket start offsets (counting pass, then prefix sums), then the segments.
        var start = [Int32](repeating: 0, count: cellCount + 1)
        var total = 0
        let budget = 32 * n + 1024
        for i in 0..<n {
            let a = p[i], b = p[i + 1]
            let c0 = column(min(a.x, b.x)), c1 = column(max(a.x, b.x)), r0 = row(min(a.y, b.y)), r1 = row(max(a.y, b.y))
            total += (c1 - c0 + 1) * (r1 - r0 + 1)
            if total > budget { return false }   // long segments: GEOS's noding does better
            for r in r0...r1 { for c in c0...c1 { start[r * cols + c + 1] &+= 1 } }
        }
        for k in 0..<cellCount { start[k + 1] &+= start[k] }
        var fill = Array(start[0..<cellCount])
        var members = [Int32](repeating: 0, count: total)
        for i in 0..<n {
            let a = p[i], b = p[i + 1]
            let c0 = column(min(a.x, b.x)), c1 = column(max(a.x, b.x)), r0 = row(min(a.y, b.y)), r1 = row(max(a.y, b.y))
            for r in r0...r1 {
                for c in c0...c1 {
                    let k = r * cols + c
                    members[Int(fill[k])] = Int32(i)
                    fill[k] &+= 1
                }
            }
        }
        var asks = 0
        for k in 0..<cellCount {
            let lo = Int(start[k]), hi = Int(start[k + 1])
            guard hi - lo > 1 else { continue }
            for u in lo..<(hi - 1) {
                let i = Int(members[u])
                let a0 = p[i], a1 = p[i + 1]
                let axmin = min(a0.x, a1.x), axmax = max(a0.x, a1.x), aymin = min(a0.y, a1.y), aymax = max(a0.y, a1.y)
                for w in (u + 1)..<hi {
                    let j = Int(members[w])
                    // Segments that follow each other were settled by the turns.
                    let d = abs(i - j)
                    if d == 1 || d == n - 1 { continue }
                    let b0 = p[j], b1 = p[j + 1]
                    let bxmin = min(b0.x, b1.x), bxmax = max(b0.x, b1.x), bymin = min(b0.y, b1.y), bymax = max(b0.y, b1.y)
                    guard axmin <= bxmax, bxmin <= axmax, aymin <= bymax, bymin <= aymax else { continue }
                    // Each overlapping pair once: in the cell of its overlap's lower-left corner.
                    guard row(max(aymin, bymin)) * cols + column(max(axmin, bxmin)) == k else { continue }
                    // One segment's ends certainly on one side of the other's line: apart.
                    if certainlyApart(a0, a1, b0, b1) || certainlyApart(b0, b1, a0, a1) { continue }
                    asks += 1
                    if asks > maximumAsks { return false }
                    var x = 0.0, y = 0.0
                    let verdict = GEOSSegmentIntersection_r(ctx.handle, a0.x, a0.y, a1.x, a1.y, b0.x, b0.y, b1.x, b1.y, &x, &y)
                    if verdict != -1 { return false }   // they meet (or GEOS failed): GEOS's full test decides
                }
            }
        }
        return true
    }
}

extension SimpleRingProof {
    /// For tests: the proof's answer and GEOS's full verdict on the polygon with the single
    /// ring `ring`; `nil` when GEOS cannot build the polygon.
    static func verdicts(ring: [SIMD2<Double>]) -> (proved: Bool, geosValid: Bool)? {
        let ctx = GEOSContext()
        let h = ctx.handle
        guard let seq = ctx.coordinateSequence(ring), let shell = GEOSGeom_createLinearRing_r(h, seq) else { return nil }
        guard let polygon = GEOSGeom_createPolygon_r(h, shell, nil, 0) else { GEOSGeom_destroy_r(h, shell); return nil }
        defer { GEOSGeom_destroy_r(h, polygon) }
        let proved = provesValid(polygon, in: ctx)
        return (proved, GEOSisValid_r(h, polygon) == 1)
    }
}
