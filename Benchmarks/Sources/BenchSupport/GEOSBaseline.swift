import CGEOSBaseline
import Foundation
import ScoutCore
import ScoutGeodesy

/// The peer Scout is measured against: a GEOS STRtree (node capacity 10) over point
/// geometries, queried through GEOS's C API with the query's exact lon/lat extent,
/// candidates checked with haversine (radius), exact geodesics (nearest), or a prepared
/// polygon (`contains`, the point geometries reused).
public final class GEOSBaseline: @unchecked Sendable {
    // @unchecked: used by one benchmark thread at a time.
    let ctx: GEOSContextHandle_t
    public let tree: OpaquePointer
    var points: [OpaquePointer] = []
    let lats: [Double], lons: [Double]

    public init(lats: [Double], lons: [Double]) {
        ctx = GEOS_init_r()
        tree = GEOSSTRtree_create_r(ctx, 10)
        self.lats = lats
        self.lons = lons
        points.reserveCapacity(lats.count)
        for i in 0..<lats.count {
            let p = GEOSGeom_createPointFromXY_r(ctx, lons[i], lats[i])!
            points.append(p)
            GEOSSTRtree_insert_r(ctx, tree, p, UnsafeMutableRawPointer(bitPattern: i + 1))
        }
        // GEOS 3.11 has no explicit build: the first query builds the tree.
        _ = query(west: 0, south: 0, east: 0, north: 0) { _ in }
    }

    deinit {
        GEOSSTRtree_destroy_r(ctx, tree)
        for p in points { GEOSGeom_destroy_r(ctx, p) }
        GEOS_finish_r(ctx)
    }

    final class Visitor {
        let body: (Int) -> Void
        init(_ body: @escaping (Int) -> Void) { self.body = body }
    }

    @discardableResult
    func query(west: Double, south: Double, east: Double, north: Double, _ body: @escaping (Int) -> Void) -> Int {
        let env = GEOSGeom_createRectangle_r(ctx, west, south, east, north)!
        defer { GEOSGeom_destroy_r(ctx, env) }
        let v = Visitor(body)
        withExtendedLifetime(v) {
            GEOSSTRtree_query_r(ctx, tree, env, { item, data in
                let i = Int(bitPattern: item) - 1
                Unmanaged<Visitor>.fromOpaque(data!).takeUnretainedValue().body(i)
            }, Unmanaged.passUnretained(v).toOpaque())
        }
        return 0
    }

    /// Haversine extent of a circle on the sphere (the baseline's own, spherical notion).
    static func extent(center: GeoPoint, radius: Double) -> [GeoBox] {
        let cap = SphericalCap(center: center, radius: radius * WGS84.sphereToEllipsoidMin)
        return cap.boxes
    }

    public func radius(center: GeoPoint, meters r: Double) -> [Int] {
        var out: [Int] = []
        for b in GEOSBaseline.extent(center: center, radius: r) {
            query(west: b.west, south: b.south, east: b.east, north: b.north) { [lats, lons] i in
                if DistanceBounds.haversine(GeoPoint(lat: lats[i], lon: lons[i]), center) <= r { out.append(i) }
            }
        }
        return out
    }

    /// Box-growing k-nearest with exact geodesic distances.
    public func nearest(to center: GeoPoint, k: Int) -> [Int] {
        var r = 500.0
        while true {
            var found: [(Double, Int)] = []
            for b in GEOSBaseline.extent(center: center, radius: r) {
                query(west: b.west, south: b.south, east: b.east, north: b.north) { [lats, lons] i in
                    let d = Geodesic.distance(GeoPoint(lat: lats[i], lon: lons[i]), center)
                    if d <= r { found.append((d, i)) }
                }
            }
            if found.count >= k || r > 2e7 {
                found.sort { $0 < $1 }
                return found.prefix(k).map(\.1)
            }
            r *= 2
        }
    }

    public func polygon(_ ring: [SIMD2<Double>]) -> [Int] {
        let seq = GEOSCoordSeq_create_r(ctx, UInt32(ring.count), 2)!
        for (i, p) in ring.enumerated() { GEOSCoordSeq_setXY_r(ctx, seq, UInt32(i), p.x, p.y) }
        let shell = GEOSGeom_createLinearRing_r(ctx, seq)!
        let poly = GEOSGeom_createPolygon_r(ctx, shell, nil, 0)!
        defer { GEOSGeom_destroy_r(ctx, poly) }
        let prep = GEOSPrepare_r(ctx, poly)!
        defer { GEOSPreparedGeom_destroy_r(ctx, prep) }
        var xmin = 0.0, ymin = 0.0, xmax = 0.0, ymax = 0.0
        GEOSGeom_getExtent_r(ctx, poly, &xmin, &ymin, &xmax, &ymax)
        var out: [Int] = []
        query(west: xmin, south: ymin, east: xmax, north: ymax) { [ctx, points] i in
            if GEOSPreparedContains_r(ctx, prep, points[i]) == 1 { out.append(i) }
        }
        return out
    }
}
