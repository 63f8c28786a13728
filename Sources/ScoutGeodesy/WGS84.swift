import CIntrinsics
import Foundation
import ScoutCore

/// The WGS84 ellipsoid and the few quantities of it Scout's bounds need.
public enum WGS84 {
    /// Semi-major axis in metres.
    public static let a = 6_378_137.0
    /// Flattening.
    public static let f = 1 / 298.257223563
    /// First eccentricity squared.
    public static let e2 = f * (2 - f)
    /// Mean radius R1 = (2a + b) / 3 in metres: the radius of Scout's reference sphere.
    public static let meanRadius = 6_371_008.771415
    /// Radius of curvature in the meridian at the equator, a(1 − e²): the smallest radius of
    /// curvature anywhere on the ellipsoid.
    public static let minimumCurvatureRadius = a * (1 - e2)
    /// Radius of curvature at the poles, a / √(1 − e²): the largest anywhere on the ellipsoid.
    public static let maximumCurvatureRadius = a / (1 - e2).squareRoot()

    /// Lower bound of geodesic ÷ great-circle distance on the mean sphere, for any pair.
    ///
    /// The ellipsoid's metric `M²dφ² + N²cos²φ dλ²` lies between `(a(1−e²)/R)²` and
    /// `(a/√(1−e²)/R)²` times the sphere's `R²(dφ² + cos²φ dλ²)`, so every path length,
    /// and hence the geodesic distance, keeps within these factors of the sphere's.
    /// The constant is rounded down (and ``sphereToEllipsoidMax`` up) by 1e-6.
    public static let sphereToEllipsoidMin = minimumCurvatureRadius / meanRadius - 1e-6
    /// Upper bound of geodesic ÷ great-circle distance on the mean sphere, for any pair.
    public static let sphereToEllipsoidMax = maximumCurvatureRadius / meanRadius + 1e-6

    /// Radius of curvature in the meridian, M(φ), for a latitude in radians.
    @inlinable
    public static func meridianRadius(latitudeRadians phi: Double) -> Double {
        let s = sin(phi)
        let w = 1 - e2 * s * s
        return a * (1 - e2) / (w * w.squareRoot())
    }

    /// The radius of curvature in the meridian, M(φ) (as ``meridianRadius(latitudeRadians:)``),
    /// and the radius of the parallel, N(φ)·cos φ, where N is the radius of curvature in the
    /// prime vertical, for a latitude in radians: one sine and one cosine for both.
    @inlinable
    public static func curvatureRadii(latitudeRadians phi: Double) -> (meridian: Double, parallel: Double) {
        var s = 0.0, c = 0.0
        scout_sincos(phi, &s, &c)
        return curvatureRadii(sinLatitude: s, cosLatitude: c)
    }

    /// ``curvatureRadii(latitudeRadians:)`` from the latitude's sine and cosine.
    @inlinable
    public static func curvatureRadii(sinLatitude s: Double, cosLatitude c: Double) -> (meridian: Double, parallel: Double) {
        let w = 1 - e2 * s * s
        return (a * (1 - e2) / (w * w.squareRoot()), a / w.squareRoot() * c)
    }

    /// Earth-centred, earth-fixed coordinates of a point on the ellipsoid surface, in metres.
    @inlinable
    public static func ecef(_ p: GeoPoint) -> SIMD3<Double> {
        let phi = p.lat * .pi / 180, lambda = p.lon * .pi / 180
        var sp = 0.0, cp = 0.0, sl = 0.0, cl = 0.0
        scout_sincos(phi, &sp, &cp)
        scout_sincos(lambda, &sl, &cl)
        return ecef(sinLat: sp, cosLat: cp, sinLon: sl, cosLon: cl)
    }

    /// ``ecef(_:)`` from the sines and cosines of the latitude and longitude.
    @inlinable @inline(__always)
    static func ecef(sinLat sp: Double, cosLat cp: Double, sinLon sl: Double, cosLon cl: Double) -> SIMD3<Double> {
        let n = a / (1 - e2 * sp * sp).squareRoot()
        return SIMD3(n * cp * cl, n * cp * sl, n * (1 - e2) * sp)
    }
}

extension WGS84 {
    /// ECEF positions of points near one origin without maths-library calls: each point's
    /// sines and cosines come by angle addition from the origin's, with the small offsets'
    /// own from their Taylor series (to within a unit in the last place for offsets up to
    /// 0.01 rad, about 64 km). Points farther off use ``WGS84/ecef(_:)``. The positions
    /// agree with ``WGS84/ecef(_:)``'s to within ~1e-8 m (both round; next to ±180°, sin λ
    /// near π magnifies the rounding of λ), well inside the 1 µm that
    /// ``DistanceBounds/interval(chord:)`` allows for rounding.
    public struct NearbyECEF: Sendable {
        @usableFromInline let lat0: Double, lon0: Double
        @usableFromInline let sinLat0: Double, cosLat0: Double, sinLon0: Double, cosLon0: Double
        /// The origin's own position, as ``WGS84/ecef(_:)`` gives it (from the same sines and
        /// cosines).
        public let origin: SIMD3<Double>

        /// Prepares positions near `origin`.
        public init(origin: GeoPoint) {
            lat0 = origin.lat
            lon0 = origin.lon
            var s = 0.0, c = 0.0
            scout_sincos(origin.lat * .pi / 180, &s, &c)
            (sinLat0, cosLat0) = (s, c)
            scout_sincos(origin.lon * .pi / 180, &s, &c)
            (sinLon0, cosLon0) = (s, c)
            self.origin = WGS84.ecef(sinLat: sinLat0, cosLat: cosLat0, sinLon: sinLon0, cosLon: cosLon0)
        }

        /// Sine and cosine of a small angle (|x| ≤ 0.01): the series' next terms are below
        /// 3e-22 of the result.
        @inlinable @inline(__always)
        static func smallSinCos(_ x: Double) -> (sin: Double, cos: Double) {
            let x2 = x * x
            let s = x * (1 - x2 / 6 * (1 - x2 / 20 * (1 - x2 / 42)))
            let c = 1 - x2 / 2 * (1 - x2 / 12 * (1 - x2 / 30 * (1 - x2 / 56)))
            return (s, c)
        }

        /// The ECEF position of `p`, in metres.
        @inlinable
        public func ecef(_ p: GeoPoint) -> SIMD3<Double> {
            let rad = Double.pi / 180
            var dl = p.lon - lon0
            if dl > 180 { dl -= 360 } else if dl < -180 { dl += 360 }
            let dPhi = (p.lat - lat0) * rad, dLambda = dl * rad
            guard abs(dPhi) <= 0.01, abs(dLambda) <= 0.01 else { return WGS84.ecef(p) }
            let (sp, cp) = Self.smallSinCos(dPhi), (sl, cl) = Self.smallSinCos(dLambda)
            let sinPhi = sinLat0 * cp + cosLat0 * sp, cosPhi = cosLat0 * cp - sinLat0 * sp
            let sinLambda = sinLon0 * cl + cosLon0 * sl, cosLambda = cosLon0 * cl - sinLon0 * sl
            return WGS84.ecef(sinLat: sinPhi, cosLat: cosPhi, sinLon: sinLambda, cosLon: cosLambda)
        }
    }
}
