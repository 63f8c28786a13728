import CGEOS
import ScoutCore
import Synchronization

/// What GEOS said of the validity of polygons seen recently, keyed by their exact input
/// (positions or WKT, and CRS). GEOS's validity test costs ~0.4 ms for a 1,000-vertex
/// polygon, more than the rest of a query; apps send the same areas again and again.
/// Only the verdict is shared, never a GEOS object, so threads stay independent.
enum ValidityCache {
    struct Key: Hashable, Sendable {
        let crs: String?
        let wkt: String?
        let polygons: [[[SIMD2<Double>]]]
    }
    /// Most verdicts kept; the cache is emptied when it is full.
    static let capacity = 256
    /// `nil` reason: valid.
    private static let verdicts = Mutex<[Key: String?]>([:])

    static func verdict(_ key: Key) -> String?? { verdicts.withLock { $0[key] } }

    static func record(_ key: Key, reason: String?) {
        verdicts.withLock { v in
            if v.count >= capacity { v.removeAll(keepingCapacity: true) }
            v[key] = .some(reason)
        }
    }
}

/// A polygonal area in longitude/latitude (EPSG:4326), judged by a GEOS prepared geometry.
///
/// Semantics are those of PostGIS `geometry` with `ST_Covers`: planar in degrees, boundary
/// points included, holes excluded. A region is built from GeoJSON-style rings or WKT,
/// optionally in another CRS (transformed by PROJ), checked with GEOS's validity test, and
/// prepared once.
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
    /// The rings as lines, prepared on first use: a box that meets no ring is wholly in or
    /// wholly out.
    private var boundary: OpaquePointer?
    private var preparedBoundary: OpaquePointer?
    /// The region's bounding box; `nil` for an empty region.
    public let envelope: GeoBox?
    /// Total number of vertices.
    public let vertexCount: Int

    private init(ctx: GEOSContext, geometry: OpaquePointer, path: String?, key: ValidityCache.Key?) throws(ScoutError) {
        let h = ctx.handle
        let type = GEOSGeomTypeId_r(h, geometry)
        guard type == Int32(GEOS_POLYGON.rawValue) || type == Int32(GEOS_MULTIPOLYGON.rawValue) else {
            GEOSGeom_destroy_r(h, geometry)
            throw ScoutError(.invalidGeometry, "expected a Polygon or MultiPolygon", path: path)
        }
        var invalidReason: String?
        if let key, let known = ValidityCache.verdict(key) {
            invalidReason = known
        } else {
            if GEOSisValid_r(h, geometry) != 1 {
                invalidReason = GEOSisValidReason_r(h, geometry).map { p -> String in
                    defer { GEOSFree_r(h, p) }
                    return Region.redactCoordinates(String(cString: p))
                } ?? "unknown reason"
            }
            if let key { ValidityCache.record(key, reason: invalidReason) }
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
    }

    deinit {
        if let preparedBoundary { GEOSPreparedGeom_destroy_r(ctx.handle, preparedBoundary) }
        if let boundary { GEOSGeom_destroy_r(ctx.handle, boundary) }
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
        let key = ValidityCache.Key(crs: crs, wkt: nil, polygons: polygons)
        return try finish(ctx: ctx, geometry: geom, crs: crs, transforms: transforms, path: path, key: key)
    }

    /// A region from WKT (`POLYGON`/`MULTIPOLYGON`).
    public static func wkt(_ text: String, crs: String? = nil, transforms: CRSTransform.Pool? = nil,
                           path: String? = nil) throws(ScoutError) -> Region {
        let ctx = GEOSContext()
        guard let reader = GEOSWKTReader_create_r(ctx.handle) else { throw ScoutError(.internal, "GEOS could not create a WKT reader") }
        defer { GEOSWKTReader_destroy_r(ctx.handle, reader) }
        guard let geom = GEOSWKTReader_read_r(ctx.handle, reader, text) else {
            throw ctx.error("the WKT could not be read", path: path)
        }
        let key = ValidityCache.Key(crs: crs, wkt: text, polygons: [])
        return try finish(ctx: ctx, geometry: geom, crs: crs, transforms: transforms, path: path, key: key)
    }

    private static func finish(ctx: GEOSContext, geometry: OpaquePointer, crs: String?, transforms: CRSTransform.Pool?,
                               path: String?, key: ValidityCache.Key?) throws(ScoutError) -> Region {
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

    /// How the closed box relates to the region, decided by GEOS.
    ///
    /// A box that no ring of the region touches lies wholly inside or wholly outside, so
    /// one GEOS test against the prepared rings and one point test decide most boxes.
    public func relation(to box: GeoBox) -> Relation {
        guard let rect = GEOSGeom_createRectangle_r(ctx.handle, box.west, box.south, box.east, box.north) else { return .boundary }
        defer { GEOSGeom_destroy_r(ctx.handle, rect) }
        if preparedBoundary == nil, boundary == nil {
            boundary = GEOSBoundary_r(ctx.handle, geometry)
            preparedBoundary = boundary.flatMap { GEOSPrepare_r(ctx.handle, $0) }
        }
        if let preparedBoundary {
            if GEOSPreparedIntersects_r(ctx.handle, preparedBoundary, rect) == 1 { return .boundary }
            return covers(lon: box.west, lat: box.south) ? .inside : .outside
        }
        if GEOSPreparedIntersects_r(ctx.handle, prepared, rect) != 1 { return .outside }
        if GEOSPreparedCovers_r(ctx.handle, prepared, rect) == 1 { return .inside }
        return .boundary
    }
}
