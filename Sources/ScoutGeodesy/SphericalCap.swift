import Foundation
import ScoutCore

/// Longitude/latitude boxes that hold every point within a geodesic distance of a centre.
///
/// A point within geodesic distance r lies within great-circle angle
/// `σ = r / (0.99441·R)` on the mean sphere (see ``WGS84/sphereToEllipsoidMin``); the
/// boxes hold that spherical cap. Caps that reach a pole take every longitude; caps that
/// cross the antimeridian give two boxes.
public struct SphericalCap: Sendable {
    /// Centre of the cap.
    public let center: GeoPoint
    /// Angular radius on the mean sphere in radians (conservative).
    public let angle: Double

    /// The cap holding every point within `radius` metres (geodesic) of `center`.
    public init(center: GeoPoint, radius: Double) {
        self.center = center
        self.angle = radius / (WGS84.meanRadius * WGS84.sphereToEllipsoidMin) * (1 + 1e-12) + 1e-12
    }

    /// Latitudes the cap reaches, in degrees, clamped to −90…90.
    public var latitudeBand: ClosedRange<Double> {
        let d = angle * 180 / .pi
        return max(-90, center.lat - d)...min(90, center.lat + d)
    }

    /// One box, or two across the antimeridian, covering the cap.
    public var boxes: [GeoBox] {
        let (first, second) = boxPair
        return second.map { [first, $0] } ?? [first]
    }

    /// ``boxes`` without an array: the first box, and the second when the cap crosses the
    /// antimeridian (for per-query paths that should not allocate).
    public var boxPair: (GeoBox, GeoBox?) {
        boxPair(sinAngle: sin(angle), cosLatitude: cos(center.lat * .pi / 180))
    }

    /// ``boxPair`` from the sine of ``angle`` and the cosine of the centre's latitude (for
    /// a caller that has them already), each to within a few units in the last place.
    public func boxPair(sinAngle: Double, cosLatitude: Double) -> (GeoBox, GeoBox?) {
        if angle >= .pi { return (GeoBox(west: -180, south: -90, east: 180, north: 90), nil) }
        let band = latitudeBand
        let phi = center.lat * .pi / 180
        // The cap contains a pole when its angular radius reaches past it.
        if phi + angle >= .pi / 2 || phi - angle <= -.pi / 2 {
            return (GeoBox(west: -180, south: band.lowerBound, east: 180, north: band.upperBound), nil)
        }
        let ratio = sinAngle / cosLatitude
        if ratio >= 1 { return (GeoBox(west: -180, south: band.lowerBound, east: 180, north: band.upperBound), nil) }
        let dLon = asin(ratio) * 180 / .pi * (1 + 1e-12) + 1e-12
        if dLon >= 180 { return (GeoBox(west: -180, south: band.lowerBound, east: 180, north: band.upperBound), nil) }
        let west = center.lon - dLon, east = center.lon + dLon
        if west < -180 {
            return (GeoBox(west: west + 360, south: band.lowerBound, east: 180, north: band.upperBound),
                    GeoBox(west: -180, south: band.lowerBound, east: east, north: band.upperBound))
        }
        if east >= 180 {
            return (GeoBox(west: west, south: band.lowerBound, east: 180, north: band.upperBound),
                    GeoBox(west: -180, south: band.lowerBound, east: east - 360, north: band.upperBound))
        }
        return (GeoBox(west: west, south: band.lowerBound, east: east, north: band.upperBound), nil)
    }
}

/// Great-circle lower bounds from a point to a longitude/latitude box, for best-first search.
public struct BoxDistance: Sendable {
    @usableFromInline let lat: Double, lon: Double
    @usableFromInline let latDegrees: Double
    @usableFromInline let sinLat: Double, cosLat: Double

    /// Prepares bounds measured from `origin`.
    public init(origin: GeoPoint) {
        lat = origin.lat * .pi / 180
        lon = origin.lon
        latDegrees = origin.lat
        sinLat = sin(lat)
        cosLat = cos(lat)
    }

    /// A lower bound, in metres, of the geodesic distance from the origin to any point of
    /// the box `[west, east] × [south, north]` (degrees, `west ≤ east`).
    ///
    /// Exact great-circle distance to the box on the mean sphere, times 0.99441.
    @inlinable
    public func lowerBound(west: Double, south: Double, east: Double, north: Double) -> Double {
        let rad = Double.pi / 180
        let angle: Double
        if lon >= west && lon <= east {
            if latDegrees < south { angle = (south - latDegrees) * rad }
            else if latDegrees > north { angle = (latDegrees - north) * rad }
            else { return 0 }
        } else {
            // The nearest point lies on one of the two meridian edges.
            angle = min(minAngle(meridian: west, south: south, north: north),
                        minAngle(meridian: east, south: south, north: north))
        }
        // Degrees to radians rounds by up to ulp(π/2)/2 ≈ 1.1e-16 rad (0.7 nm); the trigonometry
        // adds a few such errors (cos 90° is 6e-17, not 0). 10 nm absolute covers them, so
        // points at distance 0 (a pole under any longitude, ±180°) get a bound of 0.
        return max(0, angle * WGS84.meanRadius * WGS84.sphereToEllipsoidMin * (1 - 1e-12) - 1e-8)
    }

    /// Smallest central angle (radians) from the origin to the meridian segment.
    ///
    /// Computed with well-conditioned formulas (cross-track `asin`, haversine), not as
    /// `acos` of a cosine: near 1 a one-ulp error in the cosine moves `acos` by 1.5e-8 rad
    /// (9 cm), which made the "lower" bound exceed the distance for boxes within metres.
    @usableFromInline
    func minAngle(meridian: Double, south: Double, north: Double) -> Double {
        let rad = Double.pi / 180
        var dl = meridian - lon
        if dl > 180 { dl -= 360 } else if dl < -180 { dl += 360 }  // exact: −180 and 180 are one meridian
        let dLon = dl * rad
        // cos d(φ') = A sin φ' + B cos φ', largest at φ' = atan2(A, B) when that is on the segment.
        let a = sinLat, b = cosLat * cos(dLon)
        let theta = atan2(a, b)
        let s = south * rad, n = north * rad
        if theta >= s && theta <= n {
            // The foot of the perpendicular to the meridian's great circle is on the segment.
            return asin(min(1, cosLat * abs(sin(dLon))))
        }
        func haversine(_ phi: Double) -> Double {
            let s1 = sin((phi - lat) / 2), s2 = sin(dLon / 2)
            return 2 * asin(min(1, (s1 * s1 + cosLat * cos(phi) * s2 * s2).squareRoot()))
        }
        return min(haversine(s), haversine(n))
    }
}
