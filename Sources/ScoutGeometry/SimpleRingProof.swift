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
/// - a ring that is star-shaped (city polygons, user-drawn areas, anything convex or nearly)
///   is proved at once: a point is found inside every segment's inner half-plane (two small
///   linear programs, ``kernelPoint(_:segments:box:)``); if the filter certifies every
///   segment turns the same way about it and the ring winds exactly once around it, each
///   segment lies in a wedge of its own around that point, so no two meet but at a shared
///   vertex;
/// - otherwise, segments that do not follow each other and whose closed bounding boxes overlap (found
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

    /// The shell of a polygon (or one-part multipolygon) without holes and with finite
    /// coordinates, the only shape the proof handles; `nil` for any other (GEOS's validity
    /// test decides those). A ring returned here is safe to build a ``BoundaryGrid`` on
    /// while the proof runs.
    static func ring(of geometry: OpaquePointer, in ctx: GEOSContext) -> [SIMD2<Double>]? {
        let h = ctx.handle
        var polygon = geometry
        let type = GEOSGeomTypeId_r(h, geometry)
        if type == Int32(GEOS_MULTIPOLYGON.rawValue) {
            guard GEOSGetNumGeometries_r(h, geometry) == 1, let part = GEOSGetGeometryN_r(h, geometry, 0) else { return nil }
            polygon = part
        } else if type != Int32(GEOS_POLYGON.rawValue) {
            return nil
        }
        guard GEOSisEmpty_r(h, polygon) == 0, GEOSGetNumInteriorRings_r(h, polygon) == 0,
              let shell = GEOSGetExteriorRing_r(h, polygon) else { return nil }
        let ring = ctx.coordinates(of: shell)
        for v in ring where !v.x.isFinite || !v.y.isFinite { return nil }
        return ring
    }

    /// ``provesSimple(_:ctx:)`` with a GEOS context of its own (30 ns to make), so that it
    /// runs on any thread: ``Region`` hands it to ``SpareCore``.
    ///
    /// - Complexity: O(n) expected for a ring of n vertices whose segments are short against
    ///   the ring's extent; at most O(n) GEOS calls (usually a handful).
    static func provesSimple(_ ring: [SIMD2<Double>]) -> Bool {
        let ctx = GEOSContext()
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
        if provesStarShaped(p, segments: n, box: (xmin, xmax, ymin, ymax)) { return true }
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
    @inline(__always) static var orientBound: Double {
        let e = 0x1p-53
        return (3 + 16 * e) * e
    }

    /// A closed box.
    struct Box {
        var x0, y0, x1, y1: Double
        /// True when the closed boxes share a point.
        @inline(__always) func overlaps(_ o: Box) -> Bool { x0 <= o.x1 && o.x0 <= x1 && y0 <= o.y1 && o.y0 <= y1 }
    }

    /// Segments per chain (8 measured fastest on the benchmark polygons; 4–16 tried): pairs
    /// closer along the ring than two chains are tested directly, farther ones only where
    /// their chains' boxes overlap.
    static let chainLength = 8

    /// True when no two segments that do not follow each other meet (GEOS judging every
    /// pair whose closed bounding boxes overlap and the filter cannot separate).
    ///
    /// Pairs at most `2 · chainLength − 1` apart along the ring are tested directly; the ring
    /// is cut into chains of `chainLength` segments, chains are put in the buckets of a grid
    /// by their boxes, and two chains that are not neighbours and whose boxes overlap have
    /// all their pairs tested. Two segments that meet have overlapping boxes, so do their
    /// chains, and a monotone map from coordinates to cells puts both chains in the cell of
    /// a point their boxes share.
    private static func noOtherSegmentsMeet(_ p: UnsafeBufferPointer<SIMD2<Double>>, segments n: Int,
                                            box: (Double, Double, Double, Double), ctx: GEOSContext) -> Bool {
        var asks = 0
        let boxes = UnsafeMutableBufferPointer<Box>.allocate(capacity: n)
        defer { boxes.deallocate() }
        for i in 0..<n {
            let a = p[i], b = p[i &+ 1]
            boxes[i] = Box(x0: min(a.x, b.x), y0: min(a.y, b.y), x1: max(a.x, b.x), y1: max(a.y, b.y))
        }
        /// False when segments `i` and `j` (not following each other) may meet.
        @inline(__always) func apart(_ i: Int, _ j: Int) -> Bool {
            if !boxes[i].overlaps(boxes[j]) { return true }
            let a0 = p[i], a1 = p[i &+ 1], b0 = p[j], b1 = p[j &+ 1]
            // One segment's ends certainly on one side of the other's line: apart.
            if certainlyApart(a0, a1, b0, b1) || certainlyApart(b0, b1, a0, a1) { return true }
            asks &+= 1
            if asks > maximumAsks { return false }
            var x = 0.0, y = 0.0
            // Any answer but "no intersection" (they meet, or GEOS failed): GEOS's full test decides.
            return GEOSSegmentIntersection_r(ctx.handle, a0.x, a0.y, a1.x, a1.y, b0.x, b0.y, b1.x, b1.y, &x, &y) == -1
        }
        let k = chainLength, window = 2 * chainLength - 1
        if n <= 4 * window {
            // Small rings: every pair.
            for i in 0..<n {
                for j in (i &+ 2)..<max(n, i &+ 2) where !(i == 0 && j == n &- 1) {
                    if !apart(i, j) { return false }
                }
            }
            return true
        }
        // Pairs close along the ring (each once: j = i + d, wrapping).
        for i in 0..<(n &- window) {
            for d in 2...window where !apart(i, i &+ d) { return false }
        }
        for i in (n &- window)..<n {
            for d in 2...window {
                let j = i &+ d
                if !apart(i, j >= n ? j &- n : j) { return false }
            }
        }
        // Chains and their boxes.
        let chains = (n + k - 1) / k
        let chainBoxes = UnsafeMutableBufferPointer<Box>.allocate(capacity: chains)
        defer { chainBoxes.deallocate() }
        for c in 0..<chains {
            var e = boxes[c &* k]
            for i in (c &* k &+ 1)..<min(c &* k &+ k, n) {
                let f = boxes[i]
                e = Box(x0: min(e.x0, f.x0), y0: min(e.y0, f.y0), x1: max(e.x1, f.x1), y1: max(e.y1, f.y1))
            }
            chainBoxes[c] = e
        }
        let (xmin, xmax, ymin, ymax) = box
        let width = xmax - xmin, height = ymax - ymin
        let target = min(max(2 * chains, 16), 1 << 20)
        // Cells the boundary grid's way, clamped before converting to `Int` (a ring 360
        // wide and 1e-99 tall has a side ratio whose square root is past `Int`'s range).
        let cols = BoundaryGrid.columns(of: target, width: width, height: height)
        let rows = max(target / cols, 1)
        let sx = Double(cols) / width, sy = Double(rows) / height
        @inline(__always) func column(_ x: Double) -> Int { BoundaryGrid.cell((x - xmin) * sx, below: cols) }
        @inline(__always) func row(_ y: Double) -> Int { BoundaryGrid.cell((y - ymin) * sy, below: rows) }
        let cellCount = cols * rows
        let budget = 32 * chains + 1024
        // Bucket offsets (a counting pass, then prefix sums), then each bucket's chains.
        let start = UnsafeMutableBufferPointer<Int32>.allocate(capacity: cellCount + 1)
        defer { start.deallocate() }
        start.initialize(repeating: 0)
        var total = 0
        for c in 0..<chains {
            let e = chainBoxes[c]
            let c0 = column(e.x0), c1 = column(e.x1), r0 = row(e.y0), r1 = row(e.y1)
            total &+= (c1 &- c0 &+ 1) &* (r1 &- r0 &+ 1)
            if total > budget { return false }   // long segments: GEOS's noding does better
            for r in r0...r1 { for x in c0...c1 { start[r &* cols &+ x &+ 1] &+= 1 } }
        }
        for cell in 0..<cellCount { start[cell &+ 1] &+= start[cell] }
        let members = UnsafeMutableBufferPointer<Int32>.allocate(capacity: max(total, 1))
        let fill = UnsafeMutableBufferPointer<Int32>.allocate(capacity: cellCount)
        defer { members.deallocate(); fill.deallocate() }
        _ = fill.initialize(from: start[0..<cellCount])
        for c in 0..<chains {
            let e = chainBoxes[c]
            for r in row(e.y0)...row(e.y1) {
                for x in column(e.x0)...column(e.x1) {
                    let cell = r &* cols &+ x
                    members[Int(fill[cell])] = Int32(truncatingIfNeeded: c)
                    fill[cell] &+= 1
                }
            }
        }
        for cell in 0..<cellCount {
            let lo = Int(start[cell]), hi = Int(start[cell &+ 1])
            var u = lo
            while u < hi &- 1 {
                let a = Int(members[u])
                let ea = chainBoxes[a]
                var w = u &+ 1
                while w < hi {
                    let b = Int(members[w])
                    w &+= 1
                    // Neighbouring chains' pairs were tested as close pairs.
                    let d = abs(a &- b)
                    if d <= 1 || d == chains &- 1 { continue }
                    let eb = chainBoxes[b]
                    guard ea.overlaps(eb) else { continue }
                    // Each overlapping pair of chains once: in the cell of its overlap's lower-left corner.
                    guard row(max(ea.y0, eb.y0)) &* cols &+ column(max(ea.x0, eb.x0)) == cell else { continue }
                    for i in (a &* k)..<min(a &* k &+ k, n) {
                        for j in (b &* k)..<min(b &* k &+ k, n) where !apart(i, j) { return false }
                    }
                }
                u &+= 1
            }
        }
        return true
    }
}

extension SimpleRingProof {
    /// True when the ring `p` (of `n` segments, every turn already certified not straight)
    /// is proved simple by being star-shaped about a point `c`:
    /// - the filter certifies that `c` lies strictly on the same side of every segment's line
    ///   (so no segment passes through `c`, and along each one the direction from `c` turns
    ///   one way, by less than half a turn);
    /// - the ring winds exactly once around `c` (the crossing rule on the horizontal through
    ///   `c`, exact with those signs: a ring that winds twice, like a pentagram, is refused).
    /// Then the segments' wedges of directions from `c` follow each other around `c` once,
    /// overlapping nowhere but on the rays through shared vertices: two segments that do not
    /// follow each other lie in disjoint wedges, and two that do meet only at their vertex.
    static func provesStarShaped(_ p: UnsafeBufferPointer<SIMD2<Double>>, segments n: Int,
                                 box: (Double, Double, Double, Double)) -> Bool {
        guard let c = kernelPoint(p, segments: n, box: box), inRange(c.x), inRange(c.y) else { return false }
        let side = certainSide(p[0], p[1], c)
        if side == 0 { return false }
        var crossings = 0
        for i in 0..<n {
            let a = p[i], b = p[i &+ 1]
            if certainSide(a, b, c) != side { return false }
            // Anticlockwise about `c`, upward segments cross the horizontal right of `c`
            // and downward ones left of it; clockwise, the other way round.
            if side > 0 ? (a.y <= c.y && b.y > c.y) : (a.y > c.y && b.y <= c.y) { crossings &+= 1 }
        }
        return crossings == 1
    }

    /// A point that should lie inside every segment's inner half-plane (the ring's kernel),
    /// or `nil` when none was found: the midpoint of the kernel's westernmost and
    /// easternmost points, each from Seidel's randomized linear programming in O(n)
    /// expected time, with a work budget so that no ring costs more than O(n). Plain
    /// floating point: the point is only a candidate, which ``provesStarShaped`` certifies.
    /// Deterministic (a fixed shuffle), so the same ring always gets the same answer.
    static func kernelPoint(_ p: UnsafeBufferPointer<SIMD2<Double>>, segments n: Int,
                            box: (Double, Double, Double, Double)) -> SIMD2<Double>? {
        let (xmin, xmax, ymin, ymax) = box
        // Coordinates relative to the box's centre (smaller magnitudes, smaller rounding).
        let o = SIMD2((xmin + xmax) / 2, (ymin + ymax) / 2)
        let hw = (xmax - xmin) / 2, hh = (ymax - ymin) / 2
        guard hw.isFinite, hh.isFinite else { return nil }
        // Orientation from the shoelace sum (a wrong sign leaves the programs infeasible).
        var area = 0.0
        for i in 0..<n {
            let a = p[i] - o, b = p[i &+ 1] - o
            area += a.x * b.y - a.y * b.x
        }
        let s = area > 0 ? 1.0 : area < 0 ? -1.0 : 0
        if s == 0 { return nil }
        // Half-planes `normal · c <= offset`: segment i's inner side, in a shuffled order.
        let planes = UnsafeMutableBufferPointer<SIMD3<Double>>.allocate(capacity: n)
        defer { planes.deallocate() }
        for i in 0..<n {
            let a = p[i] - o, d = p[i &+ 1] - p[i]
            planes[i] = SIMD3(s * d.y, -s * d.x, s * (d.y * a.x - d.x * a.y))
        }
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15 ^ UInt64(truncatingIfNeeded: n)
        for i in stride(from: n &- 1, to: 0, by: -1) {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            let j = Int(truncatingIfNeeded: ((state >> 32) &* UInt64(i &+ 1)) >> 32)   // 0...i
            planes.swapAt(i, j)
        }
        var budget = 16 &* n &+ 256
        /// The optimum of `w · c` over every half-plane and the ring's box (`nil` when
        /// infeasible, or past the budget).
        func maximum(_ w: SIMD2<Double>) -> SIMD2<Double>? {
            var c = SIMD2(w.x >= 0 ? hw : -hw, w.y >= 0 ? hh : -hh)
            for k in 0..<n {
                let h = planes[k]
                let normal = SIMD2(h.x, h.y)
                if (normal * c).sum() <= h.z { continue }
                // The optimum lies on this half-plane's line: `p0 + t u`, bounded by the
                // half-planes before it and the box.
                let nn = (normal * normal).sum()
                guard nn > 0 else { return nil }
                let p0 = normal * (h.z / nn), u = SIMD2(-normal.y, normal.x)
                var lo = -Double.infinity, hi = Double.infinity, infeasible = false
                /// Narrows `lo...hi` to the part of the line inside `m · c <= e` (branch-free:
                /// the signs of `den` are a coin toss to a branch predictor).
                @inline(__always) func bound(_ mx: Double, _ my: Double, _ e: Double) {
                    let den = mx * u.x + my * u.y, num = e - (mx * p0.x + my * p0.y)
                    let t = num / den
                    hi = Swift.min(hi, den > 0 ? t : .infinity)
                    lo = Swift.max(lo, den < 0 ? t : -.infinity)
                    infeasible = infeasible || (den == 0 && num < 0)
                }
                bound(1, 0, hw); bound(-1, 0, hw); bound(0, 1, hh); bound(0, -1, hh)
                budget &-= k
                if budget < 0 { return nil }
                for j in 0..<k {
                    let g = planes[j]
                    bound(g.x, g.y, g.z)
                }
                guard !infeasible, lo <= hi, lo.isFinite, hi.isFinite else { return nil }
                let slope = (w * u).sum()
                c = p0 + u * (slope > 0 ? hi : slope < 0 ? lo : (lo + hi) / 2)
            }
            return c
        }
        guard let east = maximum(SIMD2(1, 0)), let west = maximum(SIMD2(-1, 0)) else { return nil }
        return (east + west) / 2 + o
    }

    /// For tests: the proof's answer and GEOS's full verdict on the polygon with the single
    /// ring `ring`; `nil` when GEOS cannot build the polygon.
    static func verdicts(ring: [SIMD2<Double>]) -> (proved: Bool, geosValid: Bool)? {
        let ctx = GEOSContext()
        let h = ctx.handle
        guard let seq = ctx.coordinateSequence(ring), let shell = GEOSGeom_createLinearRing_r(h, seq) else { return nil }
        guard let polygon = GEOSGeom_createPolygon_r(h, shell, nil, 0) else { GEOSGeom_destroy_r(h, shell); return nil }
        defer { GEOSGeom_destroy_r(h, polygon) }
        let proved = SimpleRingProof.ring(of: polygon, in: ctx).map { provesSimple($0) } ?? false
        return (proved, GEOSisValid_r(h, polygon) == 1)
    }
}
