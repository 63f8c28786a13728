import CGEOS
import Foundation
import ScoutCore
import ScoutGeodesy

/// The points within a distance of a route (a GeoJSON LineString of `[lon, lat]`).
///
/// The route is projected with PROJ into an ellipsoidal azimuthal equidistant projection
/// centred on it and cut into pieces of at most ``verticesPerPiece`` vertices (neighbours
/// share their end vertex). GEOS buffers each piece (32 segments a quarter circle, round
/// caps and joins), and a point is in the corridor when a piece's prepared `covers` says
/// so. The buffer of a line is the union of its pieces' buffers, so this is the same set
/// as one buffer of the whole route, but its cost grows with the number of vertices, not
/// with how often a tangled route crosses itself (a 3,000-vertex self-crossing route
/// buffered whole took GEOS minutes and gigabytes).
///
/// Accuracy contract: every point whose geodesic distance to the route is at most
/// `distance × (1 − 0.001)` is inside; no point farther than `distance × (1 + 0.001)` is.
/// The buffer's chords cut at most `1 − cos(π/128) ≈ 0.03%` off the distance, and the
/// projection's scale error is below 0.03% within ``maximumExtent`` of its centre.
/// Segments are straight in the projection, which matches the geodesic to well under
/// 0.1% for routes of walking length.
///
/// Threading: like ``Region``, a corridor is used by one thread at a time.
public final class Corridor {
    /// Farthest a route vertex may be from the route's centre, in metres.
    public static let maximumExtent = 250_000.0
    /// Largest corridor half-width, in metres.
    public static let maximumDistance = 100_000.0
    /// Most positions a route may have.
    public static let maximumVertices = 10_000
    /// Most vertices of a route buffered as one piece.
    public static let verticesPerPiece = 32

    /// The projection's centre: a point all candidates are measured from.
    public let center: GeoPoint
    /// Every point of the corridor is within this geodesic distance of ``center``.
    public let reach: Double
    /// The corridor's half-width in metres.
    public let distance: Double

    private let projection: CRSTransform
    private let ctx: GEOSContext
    /// One buffered piece of the route and its envelope in projected metres.
    private struct Piece {
        let buffer: OpaquePointer
        let prepared: OpaquePointer
        let minX: Double, minY: Double, maxX: Double, maxY: Double
    }
    private var pieces: [Piece] = []

    /// Builds the corridor of `distance` metres around `line`.
    public init(line: [GeoPoint], distance: Double, path: String = "along") throws(ScoutError) {
        guard distance.isFinite, distance > 0 else {
            throw ScoutError(.invalidRequest, "distance_m must be a positive number of metres", path: "distance_m")
        }
        guard distance <= Corridor.maximumDistance else {
            throw ScoutError(.limitExceeded, "distance_m must be at most \(Int(Corridor.maximumDistance)) m", path: "distance_m")
        }
        guard line.count >= 2 else {
            throw ScoutError(.invalidGeometry, "a LineString needs at least 2 positions", path: "\(path).coordinates")
        }
        guard line.count <= Corridor.maximumVertices else {
            throw ScoutError(.limitExceeded, "a route may have at most \(Corridor.maximumVertices) positions", path: "\(path).coordinates")
        }
        for (i, p) in line.enumerated() where !p.isValid {
            throw ScoutError(.invalidGeometry, "positions must be [lon, lat] with lon -180…180 and lat -90…90", path: "\(path).coordinates[\(i)]")
        }
        // Centre: the mean of the vertices on the unit sphere, which is well defined across
        // the antimeridian.
        var sum = SIMD3<Double>(0, 0, 0)
        for p in line {
            let phi = p.lat * .pi / 180, lam = p.lon * .pi / 180
            sum += SIMD3(cos(phi) * cos(lam), cos(phi) * sin(lam), sin(phi))
        }
        let norm = (sum * sum).sum().squareRoot()
        let center = norm < 1e-9 ? line[0]
            : GeoPoint(lat: asin(max(-1, min(1, sum.z / norm))) * 180 / .pi, lon: atan2(sum.y, sum.x) * 180 / .pi)
        var farthest = 0.0
        for (i, p) in line.enumerated() {
            let d = Geodesic.distance(center, p)
            guard d <= Corridor.maximumExtent else {
                throw ScoutError(.limitExceeded, "a route may reach at most \(Int(Corridor.maximumExtent / 1000)) km from its centre; split longer routes", path: "\(path).coordinates[\(i)]")
            }
            farthest = max(farthest, d)
        }
        self.center = center
        self.distance = distance
        self.reach = farthest + distance * 1.01 + 1
        let definition = String(format: "+proj=pipeline +step +proj=unitconvert +xy_in=deg +xy_out=rad +step +proj=aeqd +lat_0=%.12f +lon_0=%.12f +ellps=WGS84", center.lat, center.lon)
        projection = try CRSTransform(definition: definition)

        let ctx = GEOSContext()
        self.ctx = ctx
        var projected: [SIMD2<Double>] = []
        for p in line {
            guard let q = projection.forward(p.lon, p.lat) else {
                throw ScoutError(.invalidGeometry, "a route position could not be projected", path: "\(path).coordinates")
            }
            projected.append(q)
        }
        let h = ctx.handle
        var first = 0
        while first < projected.count - 1 {
            let last = min(first + Corridor.verticesPerPiece - 1, projected.count - 1)
            guard let seq = ctx.coordinateSequence(Array(projected[first...last])), let ls = GEOSGeom_createLineString_r(h, seq) else {
                throw ctx.error("GEOS could not build the LineString", path: "\(path).coordinates")
            }
            defer { GEOSGeom_destroy_r(h, ls) }
            guard let buf = GEOSBufferWithStyle_r(h, ls, distance, 32, Int32(GEOSBUF_CAP_ROUND.rawValue),
                                                  Int32(GEOSBUF_JOIN_ROUND.rawValue), 5) else {
                throw ctx.error("GEOS could not buffer the route", path: path)
            }
            guard let prep = GEOSPrepare_r(h, buf) else {
                GEOSGeom_destroy_r(h, buf)
                throw ctx.error("GEOS could not prepare the corridor", path: path)
            }
            var minX = 0.0, minY = 0.0, maxX = 0.0, maxY = 0.0
            GEOSGeom_getXMin_r(h, buf, &minX); GEOSGeom_getYMin_r(h, buf, &minY)
            GEOSGeom_getXMax_r(h, buf, &maxX); GEOSGeom_getYMax_r(h, buf, &maxY)
            pieces.append(Piece(buffer: buf, prepared: prep, minX: minX, minY: minY, maxX: maxX, maxY: maxY))
            first = last
        }
    }

    deinit {
        for p in pieces {
            GEOSPreparedGeom_destroy_r(ctx.handle, p.prepared)
            GEOSGeom_destroy_r(ctx.handle, p.buffer)
        }
    }

    /// True when the point is in the corridor (see the accuracy contract above).
    public func contains(lon: Double, lat: Double) -> Bool {
        guard let q = projection.forward(lon, lat) else { return false }
        var pt: OpaquePointer?
        defer { if let pt { GEOSGeom_destroy_r(ctx.handle, pt) } }
        for p in pieces where q.x >= p.minX && q.x <= p.maxX && q.y >= p.minY && q.y <= p.maxY {
            if pt == nil { pt = GEOSGeom_createPointFromXY_r(ctx.handle, q.x, q.y) }
            guard let pt else { return false }
            if GEOSPreparedCovers_r(ctx.handle, p.prepared, pt) == 1 { return true }
        }
        return false
    }
}
