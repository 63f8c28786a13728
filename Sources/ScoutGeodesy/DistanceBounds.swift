import CIntrinsics
import Foundation
import ScoutCore

/// Cheap, rigorous lower and upper bounds of the WGS84 geodesic distance.
///
/// Scout decides "is this point within r?" and "which is nearer?" with these bounds and
/// calls ``Geodesic/distance(_:_:)`` only when an interval straddles the answer. Every
/// bound here is proven, not fitted; the tests check them against `geod_inverse` on
/// random and adversarial pairs.
public enum DistanceBounds {
    /// Great-circle distance on the mean sphere (haversine), in metres.
    ///
    /// The geodesic lies within `[0.99441, 1.00449]` × this value (see
    /// ``WGS84/sphereToEllipsoidMin``); ~25 ns a call.
    @inlinable
    public static func haversine(_ a: GeoPoint, _ b: GeoPoint) -> Double {
        let rad = Double.pi / 180
        let dLat = (b.lat - a.lat) * rad, dLon = (b.lon - a.lon) * rad
        let s1 = sin(dLat / 2), s2 = sin(dLon / 2)
        let h = s1 * s1 + cos(a.lat * rad) * cos(b.lat * rad) * s2 * s2
        return 2 * WGS84.meanRadius * asin(min(1, h.squareRoot()))
    }

    /// Bounds of the geodesic distance from the haversine distance.
    @inlinable
    public static func interval(haversine h: Double) -> ClosedRange<Double> {
        (h * WGS84.sphereToEllipsoidMin)...(h * WGS84.sphereToEllipsoidMax)
    }

    /// Largest chord for which ``interval(chord:)`` uses the curvature bound.
    public static let chordBoundLimit = 1_000_000.0

    /// Bounds of the geodesic distance from the straight-line (chord) distance between the
    /// two points' ECEF positions, valid for chords up to ``chordBoundLimit``.
    ///
    /// A geodesic's curvature as a space curve is its normal curvature, at most
    /// `κ = 1/(a(1−e²))`. Schur's comparison theorem then gives
    /// `c ≥ (2/κ)·sin(κs/2)`, so `s − c ≤ κ²s³/24`, with `s ≤ 1.002·c` for chords up to
    /// 1,000 km. The width of the interval is 0.07 mm at 4 km and 8 mm at 20 km. A margin of
    /// 1 µm covers rounding in the ECEF arithmetic.
    @inlinable
    public static func interval(chord c: Double) -> ClosedRange<Double> {
        let kappa = 1 / WGS84.minimumCurvatureRadius
        let s = c * 1.002
        let excess = kappa * kappa * s * s * s / 24
        return max(0, c - 1e-6)...(c + excess + 1e-6)
    }

    /// Bounds of the geodesic distance between two points, from their chord when short and
    /// from the haversine otherwise. About 60–90 ns.
    @inlinable
    public static func interval(_ a: GeoPoint, _ b: GeoPoint) -> ClosedRange<Double> {
        interval(a, b, ecefOfB: WGS84.ecef(b))
    }

    /// ``interval(_:_:)`` with `b`'s ECEF position precomputed (for many points measured
    /// from one origin).
    @inlinable
    public static func interval(_ a: GeoPoint, _ b: GeoPoint, ecefOfB: SIMD3<Double>) -> ClosedRange<Double> {
        interval(a, b, ecefOfA: WGS84.ecef(a), ecefOfB: ecefOfB)
    }

    /// ``interval(_:_:)`` with both ECEF positions given (to within nanometres of
    /// ``WGS84/ecef(_:)``'s; see ``WGS84/NearbyECEF``).
    @inlinable
    public static func interval(_ a: GeoPoint, _ b: GeoPoint, ecefOfA: SIMD3<Double>, ecefOfB: SIMD3<Double>) -> ClosedRange<Double> {
        let d = ecefOfA - ecefOfB
        let chord = (d * d).sum().squareRoot()
        if chord <= chordBoundLimit { return interval(chord: chord) }
        return interval(haversine: haversine(a, b))
    }

    /// The geodesic distance rounded to the millimetre, computed from ``interval(_:_:)``
    /// when the interval rounds to one value and from `geod_inverse` otherwise.
    ///
    /// Equal to `(Geodesic.distance(a, b) * 1000).rounded() / 1000` for every pair.
    @inlinable
    public static func millimetres(_ a: GeoPoint, _ b: GeoPoint) -> Double {
        millimetres(a, b, ecefOfB: WGS84.ecef(b))
    }

    /// ``millimetres(_:_:)`` with `b`'s ECEF position precomputed (for many points
    /// measured from one origin).
    @inlinable
    public static func millimetres(_ a: GeoPoint, _ b: GeoPoint, ecefOfB: SIMD3<Double>) -> Double {
        millimetres(a, b, ecefOfA: WGS84.ecef(a), ecefOfB: ecefOfB)
    }

    /// ``millimetres(_:_:)`` with both ECEF positions given (see
    /// ``interval(_:_:ecefOfA:ecefOfB:)``).
    @inlinable
    public static func millimetres(_ a: GeoPoint, _ b: GeoPoint, ecefOfA: SIMD3<Double>, ecefOfB: SIMD3<Double>) -> Double {
        let r = interval(a, b, ecefOfA: ecefOfA, ecefOfB: ecefOfB)
        let lo = (r.lowerBound * 1000).rounded(), hi = (r.upperBound * 1000).rounded()
        if lo == hi { return lo / 1000 }
        return (Geodesic.distance(a, b) * 1000).rounded() / 1000
    }
}

/// A precomputed membership test for "geodesic distance from `center` ≤ `radius`".
///
/// For radii up to 200 km whose disc stays clear of the poles, it compares a flat metric
/// with the extreme radii of curvature over the disc's latitude band: a lower and an
/// upper bound of the geodesic that differ by about 0.2% at 4 km. Elsewhere it uses the
/// haversine bounds. Points the bounds cannot decide go to `geod_inverse`, so membership
/// is exactly the ellipsoidal one.
public struct RadiusTest: Sendable {
    /// The centre of the disc.
    public let center: GeoPoint
    /// The radius in metres.
    public let radius: Double
    /// The boxes (one, or two across the antimeridian) that hold the whole disc.
    ///
    /// Made on each use from ``boxPair``, so that the test itself holds no reference and
    /// copies of it (one per visitor of a tree walk) cost no reference counting.
    public var boxes: [GeoBox] { boxPair.1.map { [boxPair.0, $0] } ?? [boxPair.0] }
    /// ``boxes`` without an array (``SphericalCap/boxPair``, computed with the test from the
    /// same sines and cosines).
    public let boxPair: (GeoBox, GeoBox?)
    @usableFromInline let flat: Bool
    @usableFromInline let kyLo: Double, kyHi: Double, kxLo: Double, kxHi: Double
    /// Squares of `radius ± 1 µm`: the flat bounds decide only points at least 1 µm from
    /// the circle (more than `geod_inverse`'s 15 nm error, as in ``DistanceBounds/interval(chord:)``),
    /// so that every point they decide gets the answer `geod_inverse` would give.
    @usableFromInline let rOuter2: Double, rInner2: Double

    /// Creates the test; `radius` must be finite and non-negative.
    public init(center: GeoPoint, radius: Double) {
        self.center = center
        self.radius = radius
        let margin = 1e-6
        self.rOuter2 = (radius + margin) * (radius + margin)
        self.rInner2 = radius > margin ? (radius - margin) * (radius - margin) : -1
        let cap = SphericalCap(center: center, radius: radius)
        let rad = Double.pi / 180
        let band = cap.latitudeBand
        // One sine and cosine of the centre's latitude, and of the cap's angle (a short
        // series for the angles of the flat metric): the boxes and, by angle addition, the
        // band's edges need no other trigonometry.
        var sinLat = 0.0, cosLat = 0.0
        scout_sincos(center.lat * .pi / 180, &sinLat, &cosLat)
        let (sinAngle, cosAngle) = RadiusTest.sineAndCosine(cap.angle)
        boxPair = cap.boxPair(sinAngle: sinAngle, cosLatitude: cosLat)
        if radius <= 200_000, band.upperBound < 89.5, band.lowerBound > -89.5 {
            // The sines and cosines of the band's edges, φ ∓ angle (to a few units in the
            // last place of the edges' own, which the slack below covers many times over).
            let south = (sin: sinLat * cosAngle - cosLat * sinAngle, cos: cosLat * cosAngle + sinLat * sinAngle)
            let north = (sin: sinLat * cosAngle + cosLat * sinAngle, cos: cosLat * cosAngle - sinLat * sinAngle)
            let southNearer = abs(band.lowerBound) < abs(band.upperBound)
            let nearest = (band.lowerBound <= 0 && band.upperBound >= 0) ? (sin: 0.0, cos: 1.0) : (southNearer ? south : north)
            let farthest = southNearer ? north : south
            // M grows and N·cos φ shrinks with |φ|.
            let (mMin, cMax) = WGS84.curvatureRadii(sinLatitude: abs(nearest.sin), cosLatitude: nearest.cos)
            let (mMax, cMin) = WGS84.curvatureRadii(sinLatitude: abs(farthest.sin), cosLatitude: farthest.cos)
            let slack = 1e-9
            kyLo = mMin * rad * (1 - slack); kyHi = mMax * rad * (1 + slack)
            kxLo = cMin * rad * (1 - slack); kxHi = cMax * rad * (1 + slack)
            flat = true
        } else {
            kyLo = 0; kyHi = 0; kxLo = 0; kxHi = 0
            flat = false
        }
    }

    /// `sin(x)` and `cos(x)`; for `|x| ≤ 0.05` (the flat metric's angles, up to ~320 km) from
    /// their Taylor series to the x⁹ and x¹⁰ terms, whose remainders are below 1e-18 there.
    @usableFromInline
    static func sineAndCosine(_ x: Double) -> (sin: Double, cos: Double) {
        if abs(x) > 0.05 {
            var s = 0.0, c = 0.0
            scout_sincos(x, &s, &c)
            return (s, c)
        }
        let x2 = x * x
        let s = x * (1 - x2 / 6 * (1 - x2 / 20 * (1 - x2 / 42 * (1 - x2 / 72))))
        let c = 1 - x2 / 2 * (1 - x2 / 12 * (1 - x2 / 30 * (1 - x2 / 56 * (1 - x2 / 90))))
        return (s, c)
    }

    /// Cheap lower and upper bounds of the geodesic distance from the centre to a point
    /// of the disc's boxes (no trigonometry on the fast path).
    @inlinable
    public func bounds(lat: Double, lon: Double) -> (lower: Double, upper: Double) {
        if flat {
            let dy = lat - center.lat
            var dx = lon - center.lon
            if dx > 180 { dx -= 360 } else if dx < -180 { dx += 360 }
            let ly = dy * kyLo, lx = dx * kxLo, uy = dy * kyHi, ux = dx * kxHi
            return ((ly * ly + lx * lx).squareRoot(), (uy * uy + ux * ux).squareRoot())
        }
        let r = DistanceBounds.interval(GeoPoint(lat: lat, lon: lon), center)
        return (r.lowerBound, r.upperBound)
    }

    /// Whether every point of the closed box is certainly within the radius, by the same
    /// upper bound that ``contains(lat:lon:)`` accepts points with (so the two never
    /// disagree). Only the flat metric decides boxes; elsewhere the answer is `false`.
    ///
    /// The flat upper bound is `√((kx·Δλ)² + (ky·Δφ)²)`, separable and convex, so over a box
    /// it peaks at a corner, provided the longitude offset does not wrap inside the box.
    @inlinable
    public func covers(west: Double, south: Double, east: Double, north: Double) -> Bool {
        guard flat else { return false }
        let lo = west - center.lon, hi = east - center.lon
        // Offsets wrap at ±180°: the box must lie on one side of each break.
        if (lo < 180 && hi > 180) || (lo < -180 && hi > -180) { return false }
        @inline(__always) func wrapped(_ d: Double) -> Double { d > 180 ? d - 360 : (d < -180 ? d + 360 : d) }
        let dx = max(abs(wrapped(lo)), abs(wrapped(hi))) * kxHi
        let dy = max(abs(south - center.lat), abs(north - center.lat)) * kyHi
        return dx * dx + dy * dy <= rInner2
    }

    /// Whether the flat metric applies (radius up to 200 km, disc clear of the poles): then
    /// ``bounds(lat:lon:)`` needs no trigonometry, and ``squaredBounds(lat:lon:)`` and
    /// ``squaredLowerBound(west:south:east:north:)`` answer.
    @inlinable public var isFlat: Bool { flat }

    /// The squares of ``bounds(lat:lon:)``'s flat bounds (no square roots); only when
    /// ``isFlat``, for a point of one of ``boxPair``'s boxes.
    @inlinable @inline(__always)
    public func squaredBounds(lat: Double, lon: Double) -> (lower: Double, upper: Double) {
        let dy = lat - center.lat
        var dx = lon - center.lon
        if dx > 180 { dx -= 360 } else if dx < -180 { dx += 360 }
        let ly = dy * kyLo, lx = dx * kxLo, uy = dy * kyHi, ux = dx * kxHi
        return (ly * ly + lx * lx, uy * uy + ux * ux)
    }

    /// The square of a lower bound of the geodesic distance from the centre to every point
    /// of the closed box, which must lie within one of ``boxPair``'s boxes; only when
    /// ``isFlat``. The flat lower bound of ``bounds(lat:lon:)`` grows with the latitude and
    /// longitude offsets, so over a box it is least at the box's point nearest the centre
    /// on each axis.
    @inlinable
    public func squaredLowerBound(west: Double, south: Double, east: Double, north: Double) -> Double {
        let dy = max(0, south - center.lat, center.lat - north)
        var lo = west - center.lon, hi = east - center.lon
        // The box lies within 200 km of the centre: both ends wrap alike.
        if lo > 180 { lo -= 360; hi -= 360 } else if hi < -180 { lo += 360; hi += 360 }
        let dx = max(0, lo, -hi)
        let ly = dy * kyLo, lx = dx * kxLo
        return ly * ly + lx * lx
    }

    /// Exact membership of the point `(lat, lon)`: geodesic distance ≤ radius.
    @inlinable
    public func contains(lat: Double, lon: Double) -> Bool {
        if flat {
            let dy = lat - center.lat
            var dx = lon - center.lon
            if dx > 180 { dx -= 360 } else if dx < -180 { dx += 360 }
            let ly = dy * kyLo, lx = dx * kxLo
            if ly * ly + lx * lx > rOuter2 { return false }
            let uy = dy * kyHi, ux = dx * kxHi
            if uy * uy + ux * ux <= rInner2 { return true }
        } else {
            let p = GeoPoint(lat: lat, lon: lon)
            let range = DistanceBounds.interval(p, center)
            if range.lowerBound > radius { return false }
            if range.upperBound <= radius { return true }
        }
        return Geodesic.distance(lat1: center.lat, lon1: center.lon, lat2: lat, lon2: lon) <= radius
    }
}
