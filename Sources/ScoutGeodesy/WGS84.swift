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
        let n = a / (1 - e2 * sp * sp).squareRoot()
        return SIMD3(n * cp * cl, n * cp * sl, n * (1 - e2) * sp)
    }
}
