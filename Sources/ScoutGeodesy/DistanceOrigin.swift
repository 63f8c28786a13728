import Foundation
import ScoutCore

/// A point that many distances are measured from, prepared once: the bounds and
/// millimetre distances of ``DistanceBounds``, measured from here to other points.
///
/// The chord bounds need each point's earth-centred (ECEF) position, which takes the sine
/// and cosine of its latitude and longitude. For a point within 0.05 rad (about 320 km)
/// of the origin in both latitude and longitude, they come from the origin's own sines and
/// cosines by angle addition, with short Taylor series for the small differences (their
/// truncation error is below 1e-20): no call into the maths library. The position agrees
/// with ``WGS84/ecef(_:)`` to about 1e-8 m, far inside the 1 µm margin of
/// ``DistanceBounds/interval(chord:)``. Farther points use ``WGS84/ecef(_:)``.
public struct DistanceOrigin: Sendable {
    /// The origin.
    public let point: GeoPoint
    /// The origin's ECEF position, in metres.
    public let position: SIMD3<Double>
    @usableFromInline let sinLat: Double, cosLat: Double, sinLon: Double, cosLon: Double

    /// Prepares distances measured from `point`.
    public init(_ point: GeoPoint) {
        self.point = point
        let phi = point.lat * .pi / 180, lambda = point.lon * .pi / 180
        sinLat = sin(phi); cosLat = cos(phi)
        sinLon = sin(lambda); cosLon = cos(lambda)
        position = DistanceOrigin.surface(sinLat: sinLat, cosLat: cosLat, sinLon: sinLon, cosLon: cosLon)
    }

    /// Largest latitude and longitude difference, in radians, served by the series.
    @usableFromInline static let seriesLimit = 0.05

    /// The ECEF position of the surface point with these sines and cosines.
    @inlinable
    static func surface(sinLat sp: Double, cosLat cp: Double, sinLon sl: Double, cosLon cl: Double) -> SIMD3<Double> {
        let n = WGS84.a / (1 - WGS84.e2 * sp * sp).squareRoot()
        return SIMD3(n * cp * cl, n * cp * sl, n * (1 - WGS84.e2) * sp)
    }

    /// Sine and cosine of `x`, for `|x| ≤ 0.05`, by their Taylor series.
    @inlinable
    static func smallSinCos(_ x: Double) -> (sin: Double, cos: Double) {
        let x2 = x * x
        let s = x * (1 - x2 / 6 * (1 - x2 / 20 * (1 - x2 / 42 * (1 - x2 / 72))))
        let c = 1 - x2 / 2 * (1 - x2 / 12 * (1 - x2 / 30 * (1 - x2 / 56 * (1 - x2 / 90))))
        return (s, c)
    }

    /// The ECEF position of `p`, in metres.
    @inlinable
    public func ecef(of p: GeoPoint) -> SIMD3<Double> {
        let rad = Double.pi / 180
        var dLon = p.lon - point.lon
        if dLon > 180 { dLon -= 360 } else if dLon < -180 { dLon += 360 }
        let dPhi = (p.lat - point.lat) * rad, dLambda = dLon * rad
        guard abs(dPhi) <= DistanceOrigin.seriesLimit, abs(dLambda) <= DistanceOrigin.seriesLimit else {
            return WGS84.ecef(p)
        }
        let a = DistanceOrigin.smallSinCos(dPhi), b = DistanceOrigin.smallSinCos(dLambda)
        return DistanceOrigin.surface(sinLat: sinLat * a.cos + cosLat * a.sin, cosLat: cosLat * a.cos - sinLat * a.sin,
                                      sinLon: sinLon * b.cos + cosLon * b.sin, cosLon: cosLon * b.cos - sinLon * b.sin)
    }

    /// Bounds of the geodesic distance from the origin to `p`: from their chord when short,
    /// from the haversine otherwise (as ``DistanceBounds/interval(_:_:)``).
    @inlinable
    public func interval(to p: GeoPoint) -> ClosedRange<Double> {
        let d = ecef(of: p) - position
        let chord = (d * d).sum().squareRoot()
        if chord <= DistanceBounds.chordBoundLimit { return DistanceBounds.interval(chord: chord) }
        return DistanceBounds.interval(haversine: DistanceBounds.haversine(p, point))
    }

    /// The geodesic distance from the origin to `p` rounded to the millimetre: from
    /// ``interval(to:)`` when it rounds to one value, from `geod_inverse` otherwise. Equal to
    /// `(Geodesic.distance(p, origin) * 1000).rounded() / 1000`.
    @inlinable
    public func millimetres(to p: GeoPoint) -> Double {
        let r = interval(to: p)
        let lo = (r.lowerBound * 1000).rounded(), hi = (r.upperBound * 1000).rounded()
        if lo == hi { return lo / 1000 }
        return (Geodesic.distance(p, point) * 1000).rounded() / 1000
    }
}
