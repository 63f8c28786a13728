import CGEOS
import ScoutCore

/// A polygonal area in longitude/latitude (EPSG:4326), judged by a GEOS prepared geometry.
///
/// Semantics are those of PostGIS `geometry` with `ST_Covers`: planar in degrees, boundary
/// points included, holes excluded. A region is built from GeoJSON-style rings or WKT,
/// optionally in another CRS (transformed by PROJ), checked for validity, and prepared once.
/// Validity: a one-ring polygon whose ring ``SimpleRingProof`` proves simple (GEOS judging
/// every doubtful predicate) is valid at once; any other goes to GEOS's validity test, whose
/// verdict and reason are final. The proof and the marking of the boundary grid's cells run
/// on a ``SpareCore`` when a core is idle, while this thread has GEOS build its point-in-area
/// index, which the grid's labels and the first query need.
///
/// ```swift
/// let park = try Region.polygon([[SIMD2(-9.06, 53.27), SIMD2(-9.05, 53.27), SIMD2(-9.05, 53.28), SIMD2(-9.06, 53.27)]])
/// park.covers(lon: -9.055, lat: 53.272)
/// ```
/// Threading: a region owns its GEOS context and prepared geometry (whose index GEOS
/// builds lazily on first use), so it is used by one thread at a time: not `Sendable`.
public final class Region {
    /// How a box relates to the region.
    public enum Relation: Sendable {
        /// Every point of the (closed) box is covered by the region.
        case inside
        /// No point of the box is in the region.
        case outside
        /// Anything else: points must be judged one by one.
        case boundary
    }

    let ctx: GEOSContext
    let geometry: OpaquePointer
    let prepared: OpaquePointer
    private var builtGrid: BoundaryGrid?
    /// The boundary grid's marking, posted to the spare core beside the validity proof,
    /// until the grid is built.
    private var pendingMarks: SpareCore.Job<BoundaryGrid.Marks>?
    /// The region's bounding box; `nil` for an empty region.
    public let envelope: GeoBox?
    /// Total number of vertices.
    public let vertexCount: Int
    /// The exact input the region was built from; ``RegionCache`` files regions under it.
    public let key: RegionKey

    private init(ctx: GEOSContext, geometry: OpaquePointer, path: String?, key: RegionKey) throws(ScoutError) {
        let h = ctx.handle
        let type = GEOSGeomTypeId_r(h, geometry)
        guard type == Int32(GEOS_POLYGON.rawValue) || type == Int32(GEOS_MULTIPOLYGON.rawValue) else {
            GEOSGeom_destroy_r(h, geometry)
            throw ScoutError(.invalidGeometry, "expected a Polygon or MultiPolygon", path: path)
        }
        var invalidReason: String?
        // A one-ring polygon's validity proof (unless its verdict is known) and its boundary
        // grid's marking, two jobs for a spare core, while this thread prepares the region
        // and has GEOS build its point-in-area index, which the first query needs (below).
        var proof: SpareCore.Job<Bool>?
        var marking: SpareCore.Job<BoundaryGrid.Marks>?
        let known = ValidityCache.verdict(key)
        if let known { invalidReason = known }
        if invalidReason == nil, let ring = SimpleRingProof.ring(of: geometry, in: ctx) {
            // Expected: the proof ~20 ns a vertex for a star-shaped ring, ~35 for others;
            // the marking ~15 for short segments.
            let marksTime = 5_000 + 30 * ring.count
            if known == nil {
                (proof, marking) = SpareCore.post(expectedNanoseconds: 5_000 + 50 * ring.count, { SimpleRingProof.provesSimple(ring) },
                                                  thenExpectedNanoseconds: marksTime, { Region.marks(of: ring) })
            } else {
                marking = SpareCore.post(expectedNanoseconds: marksTime) { Region.marks(of: ring) }
            }
        } else if known == nil {
            do { invalidReason = try Region.validityTest(ctx, geometry, key, path: path) } catch {
                GEOSGeom_destroy_r(h, geometry)
                throw error
            }
        }
        if let invalidReason {
            GEOSGeom_destroy_r(h, geometry)
            throw ScoutError(.invalidGeometry, "the polygon is not valid: \(invalidReason)", path: path)
        }
        var xmin = 0.0, ymin = 0.0, xmax = 0.0, ymax = 0.0
        if GEOSisEmpty_r(h, geometry) == 1 {
            envelope = nil
        } else {
            GEOSGeom_getExtent_r(h, geometry, &xmin, &ymin, &xmax, &ymax)
            guard xmin >= -180, xmax <= 180, ymin >= -90, ymax <= 90 else {
                // Validity is reported first, as when the proof ran before this check.
                if let proof, !proof.result(), case .some(.some(let reason)) = try? Region.validityTest(ctx, geometry, key, path: path) {
                    GEOSGeom_destroy_r(h, geometry)
                    throw ScoutError(.invalidGeometry, "the polygon is not valid: \(reason)", path: path)
                }
                GEOSGeom_destroy_r(h, geometry)
                throw ScoutError(.invalidGeometry, "polygon positions must be longitudes -180…180 and latitudes -90…90 (after any CRS transform)", path: path)
            }
            envelope = GeoBox(west: xmin, south: ymin, east: xmax, north: ymax)
        }
        guard let prep = GEOSPrepare_r(h, geometry) else {
            GEOSGeom_destroy_r(h, geometry)
            throw ctx.error("GEOS could not prepare the polygon", path: path)
        }
        self.ctx = ctx
        self.geometry = geometry
        self.prepared = prep
        self.vertexCount = Int(GEOSGetNumCoordinates_r(h, geometry))
        self.key = key
        pendingMarks = marking
        // While a spare core runs the proof: GEOS's point-in-area index, which the first
        // query would build anyway (a region is made to be queried), then the grid, whose
        // labels ask it. Its marks are the helper's if it got to them, else made here while
        // the helper still proves (so neither thread idles on a ring whose proof or marking
        // is long). With no spare core the proof runs here first, and an invalid polygon is
        // refused before either is built, as before.
        let helped = proof.map { $0.takenByHelper } ?? marking?.takenByHelper ?? false
        if helped {
            if let e = envelope { _ = covers(lon: e.west, lat: e.south) }
            buildGrid()
        }
        if let proof {
            if proof.result() {
                // One ring, proved simple with GEOS judging each doubtful predicate: valid
                // without GEOS's full test (see ``SimpleRingProof``).
                ValidityCache.record(key, reason: nil)
            } else if let reason = try Region.validityTest(ctx, geometry, key, path: path) {
                // Thrown after every property is set: `deinit` frees the geometry.
                throw ScoutError(.invalidGeometry, "the polygon is not valid: \(reason)", path: path)
            }
        }
    }

    /// GEOS's full validity test: `nil` for a valid geometry, else GEOS's reason (without
    /// its coordinates); the verdict is remembered under `key`. A failed test (an interrupt
    /// at the request's deadline) throws, and no verdict is remembered.
    private static func validityTest(_ ctx: GEOSContext, _ geometry: OpaquePointer, _ key: RegionKey,
                                     path: String?) throws(ScoutError) -> String? {
        var reason: UnsafeMutablePointer<CChar>?
        var location: OpaquePointer?
        let verdict = GEOSisValidDetail_r(ctx.handle, geometry, 0, &reason, &location)
        if let location { GEOSGeom_destroy_r(ctx.handle, location) }
        defer { if let reason { GEOSFree_r(ctx.handle, reason) } }
        guard verdict == 0 || verdict == 1 else { throw ctx.error("GEOS could not test the polygon's validity", path: path) }
        let invalidReason = verdict == 1 ? nil : reason.map { Region.redactCoordinates(String(cString: $0)) } ?? "unknown reason"
        ValidityCache.record(key, reason: invalidReason)
        return invalidReason
    }

    /// The boundary grid's marks of a one-ring polygon's ring (not empty), over the ring's
    /// box: the part of a first sight that needs no GEOS, for a spare core.
    private static func marks(of ring: [SIMD2<Double>]) -> BoundaryGrid.Marks {
        var (w, s, e, n) = (ring[0].x, ring[0].y, ring[0].x, ring[0].y)
        for p in ring { w = min(w, p.x); e = max(e, p.x); s = min(s, p.y); n = max(n, p.y) }
        return BoundaryGrid.Marks(rings: [ring], envelope: GeoBox(west: w, south: s, east: e, north: n), vertexCount: ring.count)
    }

    deinit {
        GEOSPreparedGeom_destroy_r(ctx.handle, prepared)
        GEOSGeom_destroy_r(ctx.handle, geometry)
    }

    /// GEOS validity reasons end with a location ("Self-intersection[12.3 45.6]"): keep the
    /// kind of problem, drop the coordinates, which may be a user's data.
    static func redactCoordinates(_ reason: String) -> String {
        if let i = reason.firstIndex(of: "[") { return String(reason[..<i]) }
        return reason
    }

    /// A polygon from GeoJSON-style rings (`[x, y]` positions; the first ring is the shell,
    /// the others holes). Each ring needs at least four positions and must be closed.
    public static func polygon(_ rings: [[SIMD2<Double>]], crs: String? = nil, transforms: CRSTransform.Pool? = nil,
                               path: String? = nil) throws(ScoutError) -> Region {
        try multiPolygon([rings], single: true, crs: crs, transforms: transforms, path: path)
    }

    /// A multipolygon from GeoJSON-style polygons (each a list of rings).
    public static func multiPolygon(_ polygons: [[[SIMD2<Double>]]], crs: String? = nil, transforms: CRSTransform.Pool? = nil,
                                    path: String? = nil) throws(ScoutError) -> Region {
        try multiPolygon(polygons, single: false, crs: crs, transforms: transforms, path: path)
    }

    private static func multiPolygon(_ polygons: [[[SIMD2<Double>]]], single: Bool, crs: String?, transforms: CRSTransform.Pool?,
                                     path: String?) throws(ScoutError) -> Region {
        func at(_ suffix: String) -> String {
            guard let path, !path.isEmpty else { return suffix.hasPrefix(".") ? String(suffix.dropFirst()) : suffix }
            return path + suffix
        }
        let ctx = GEOSContext()
        let h = ctx.handle
        var built: [OpaquePointer] = []
        var failure: ScoutError?
        func cleanup() { for g in built { GEOSGeom_destroy_r(h, g) } }
        outer: for (pi, rings) in polygons.enumerated() {
            let ppath = single ? ".coordinates" : ".coordinates[\(pi)]"
            guard !rings.isEmpty else {
                failure = ScoutError(.invalidGeometry, "a polygon needs at least one ring", path: at(ppath)); break
            }
            var ringGeoms: [OpaquePointer] = []
            for (ri, ring) in rings.enumerated() {
                let rpath = at("\(ppath)[\(ri)]")
                for (vi, v) in ring.enumerated() where !(v.x.isFinite && v.y.isFinite) {
                    failure = ScoutError(.invalidGeometry, "positions must be finite numbers", path: "\(rpath)[\(vi)]"); break
                }
                if failure == nil, ring.count < 4 {
                    failure = ScoutError(.invalidGeometry, "a ring needs at least 4 positions", path: rpath)
                }
                if failure == nil, ring.first != ring.last {
                    failure = ScoutError(.invalidGeometry, "a ring must be closed: its last position must equal its first", path: rpath)
                }
                if failure == nil {
                    if let seq = ctx.coordinateSequence(ring), let g = GEOSGeom_createLinearRing_r(h, seq) {
                        ringGeoms.append(g)
                    } else {
                        failure = ctx.error("GEOS could not build the ring", path: rpath)
                    }
                }
                if failure != nil {
                    for g in ringGeoms { GEOSGeom_destroy_r(h, g) }
                    break outer
                }
            }
            let shell = ringGeoms[0]
            var holes: [OpaquePointer?] = Array(ringGeoms.dropFirst())
            let poly = holes.withUnsafeMutableBufferPointer { buf in
                GEOSGeom_createPolygon_r(h, shell, buf.baseAddress, UInt32(buf.count))
            }
            guard let poly else { failure = ctx.error("GEOS could not build the polygon", path: at(ppath)); break }
            built.append(poly)
        }
        if let failure { cleanup(); throw failure }
        let geom: OpaquePointer?
        if single {
            geom = built.first
        } else {
            var parts: [OpaquePointer?] = built
            geom = parts.withUnsafeMutableBufferPointer { buf in
                GEOSGeom_createCollection_r(h, Int32(GEOS_MULTIPOLYGON.rawValue), buf.baseAddress, UInt32(buf.count))
            }
        }
        guard let geom else { cleanup(); throw ctx.error("GEOS could not build the multipolygon", path: path) }
        let key = RegionKey(polygons: polygons, crs: crs)
        return try finish(ctx: ctx, geometry: geom, crs: crs, transforms: transforms, path: path, key: key)
    }

    /// Deepest parenthesis nesting a WKT text may have (a MULTIPOLYGON needs 3). Checked
    /// before GEOS reads the text: GEOS's reader recurses once per level.
    public static let maximumWKTNesting = 16

    /// Refuses WKT nested deeper than ``maximumWKTNesting`` with `limit_exceeded`.
    /// - Complexity: O(n) in the text's bytes.
    static func checkWKTNesting(_ text: String, path: String?) throws(ScoutError) {
        var depth = 0
        for b in text.utf8 {
            if b == UInt8(ascii: "(") {
                depth += 1
                if depth > maximumWKTNesting {
                    throw ScoutError(.limitExceeded, "WKT may nest at most \(maximumWKTNesting) levels of parentheses", path: path)
                }
            } else if b == UInt8(ascii: ")") {
                depth -= 1
            }
        }
    }

    /// A region from WKT (`POLYGON`/`MULTIPOLYGON`).
    public static func wkt(_ text: String, crs: String? = nil, transforms: CRSTransform.Pool? = nil,
                           path: String? = nil) throws(ScoutError) -> Region {
        try checkWKTNesting(text, path: path)
        let ctx = GEOSContext()
        guard let reader = GEOSWKTReader_create_r(ctx.handle) else { throw ScoutError(.internal, "GEOS could not create a WKT reader") }
        defer { GEOSWKTReader_destroy_r(ctx.handle, reader) }
        guard let geom = GEOSWKTReader_read_r(ctx.handle, reader, text) else {
            throw ctx.error("the WKT could not be read", path: path)
        }
        let key = RegionKey(wkt: text, crs: crs)
        return try finish(ctx: ctx, geometry: geom, crs: crs, transforms: transforms, path: path, key: key)
    }

    private static func finish(ctx: GEOSContext, geometry: OpaquePointer, crs: String?, transforms: CRSTransform.Pool?,
                               path: String?, key: RegionKey) throws(ScoutError) -> Region {
        var geometry = geometry
        if let crs, !Region.isLonLat(crs) {
            let pool = transforms ?? CRSTransform.Pool()
            let transformed: OpaquePointer?
            do throws(ScoutError) {
                transformed = try pool.withTransform(from: crs) { t throws(ScoutError) in
                var tref = t
                return withUnsafeMutablePointer(to: &tref) { ptr in
                    GEOSGeom_transformXY_r(ctx.handle, geometry, { x, y, userdata in
                        guard let x, let y, let userdata else { return 0 }
                        let t = userdata.assumingMemoryBound(to: CRSTransform.self).pointee
                        guard let r = t.forward(x.pointee, y.pointee) else { return 0 }
                        x.pointee = r.x
                        y.pointee = r.y
                        return 1
                    }, ptr)
                }
                }
            } catch {
                // An unknown CRS: the untransformed geometry is ours to free.
                GEOSGeom_destroy_r(ctx.handle, geometry)
                throw error
            }
            GEOSGeom_destroy_r(ctx.handle, geometry)
            guard let transformed else {
                throw ScoutError(.invalidGeometry, "a position could not be transformed from \(crs.prefix(32)) to EPSG:4326", path: path)
            }
            geometry = transformed
        }
        return try Region(ctx: ctx, geometry: geometry, path: path, key: key)
    }

    /// True for the names of WGS84 longitude/latitude (no transform needed).
    static func isLonLat(_ crs: String) -> Bool {
        ["EPSG:4326", "OGC:CRS84", "CRS:84", "URN:OGC:DEF:CRS:OGC:1.3:CRS84", "URN:OGC:DEF:CRS:EPSG::4326"]
            .contains(crs.uppercased())
    }

    /// True when the point `(lon, lat)` is inside the region or on its boundary.
    ///
    /// - Complexity: one GEOS point and one prepared `covers` test, ~0.2–0.5 µs.
    public func covers(lon: Double, lat: Double) -> Bool {
        guard let pt = GEOSGeom_createPointFromXY_r(ctx.handle, lon, lat) else { return false }
        defer { GEOSGeom_destroy_r(ctx.handle, pt) }
        return GEOSPreparedCovers_r(ctx.handle, prepared, pt) == 1
    }

    /// Which cells of the envelope a ring passes through, and what GEOS said of the others:
    /// built on first use (about 2 cells per vertex, one GEOS test per boundary-free area),
    /// then kept. Queries read it once and ask it about each candidate.
    public var boundaryGrid: BoundaryGrid {
        buildGrid()
        return builtGrid.unsafelyUnwrapped
    }

    /// Builds the boundary grid on first use.
    @inline(__always) private func buildGrid() {
        // A pattern, not `== nil`: with `BoundaryGrid` `Equatable`, `==` would copy the grid
        // (a reference count up and down on every candidate).
        if case .none = builtGrid { builtGrid = makeGrid() }
    }

    /// What the boundary grid knows of the point `(lon, lat)` without asking GEOS (see
    /// ``BoundaryGrid/relation(lon:lat:)``).
    public func relation(lon: Double, lat: Double) -> Relation {
        gridRelation(lon: lon, lat: lat)
    }

    /// ``relation(lon:lat:)`` reading the stored grid in place: asked once per candidate,
    /// so it must not copy the grid (a copy costs a reference count up and down).
    @inline(__always) func gridRelation(lon: Double, lat: Double) -> Relation {
        buildGrid()
        return builtGrid.unsafelyUnwrapped.relation(lon: lon, lat: lat)
    }

    /// How the closed box relates to the region: `.inside` or `.outside` when every cell of
    /// the boundary grid the box meets says so, else `.boundary` (which a box that only
    /// comes near a ring may get too).
    public func relation(to box: GeoBox) -> Relation {
        // A box across the antimeridian (or a malformed one) is not decided by cells.
        if box.west > box.east || box.south > box.north { return .boundary }
        guard let env = envelope, box.west <= env.east, box.east >= env.west, box.south <= env.north, box.north >= env.south else {
            return .outside
        }
        let inside = boundaryGrid.relation(west: max(box.west, env.west), south: max(box.south, env.south),
                                east: min(box.east, env.east), north: min(box.north, env.north))
        // A box reaching past the envelope holds points the region does not cover.
        let within = box.west >= env.west && box.east <= env.east && box.south >= env.south && box.north <= env.north
        if inside == .inside && !within { return .boundary }
        return inside
    }

    /// The boundary grid, from the rings GEOS holds (after any CRS transform).
    private func makeGrid() -> BoundaryGrid {
        if let job = pendingMarks {
            pendingMarks = nil
            // The marks are of the same ring over the same envelope (GEOS's extent of a
            // one-ring polygon is its ring's); checked, not assumed.
            let marks = job.result()
            if marks.envelope == envelope { return BoundaryGrid(marks) { x, y in covers(lon: x, lat: y) } }
        }
        let h = ctx.handle
        var rings: [[SIMD2<Double>]] = []
        for part in 0..<max(GEOSGetNumGeometries_r(h, geometry), 0) {
            guard let polygon = GEOSGetGeometryN_r(h, geometry, part) else { continue }
            if let shell = GEOSGetExteriorRing_r(h, polygon) { rings.append(ctx.coordinates(of: shell)) }
            for i in 0..<max(GEOSGetNumInteriorRings_r(h, polygon), 0) {
                if let hole = GEOSGetInteriorRingN_r(h, polygon, i) { rings.append(ctx.coordinates(of: hole)) }
            }
        }
        return BoundaryGrid(rings: rings, envelope: envelope, vertexCount: vertexCount) { x, y in covers(lon: x, lat: y) }
    }
}
