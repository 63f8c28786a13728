import Foundation
import ScoutTime

/// Where the sun is, by NOAA's equations (the ones astral 3.2 implements).
///
/// ```swift
/// let t = try Instant.parse("2026-06-21T12:25:00Z", path: "at")
/// SolarPosition.geometricElevation(latitude: 53.3498, longitude: -6.2603, at: t)  // 60.0861
/// SolarPosition.elevation(latitude: 53.3498, longitude: -6.2603, at: t)           // 60.0954
/// ```
///
/// The equations are those of NOAA's Solar Calculator (after Meeus, *Astronomical
/// Algorithms*): the sun's mean longitude and anomaly, the equation of the centre, nutation
/// in longitude and obliquity by a single term, the declination and the equation of time,
/// then the hour angle at the observer. Time is Unix time taken as UT (no ΔT, no leap
/// seconds), the observer is at sea level, and the latitude is clamped to ±89.8° as astral
/// does (``latitudeLimit``). Longitudes are east-positive, any value (180 and −180 are the
/// same meridian and give bit-identical results).
///
/// Accuracy: the same numbers as astral 3.2 to about 1e-6° (see `Tests/ScoutSolarTests`
/// for the worst difference measured against the committed fixtures). NOAA states the
/// equations themselves are good to about 0.01° in elevation for years 1800–2100 (rise and
/// set times within about a minute between ±72° latitude).
public enum SolarPosition {
    /// The highest latitude the equations are evaluated at, in degrees: latitudes beyond
    /// ±89.8° are treated as ±89.8°, as astral does (the hour angle is undefined at a pole).
    public static let latitudeLimit = 89.8

    /// The sun's apparent radius that astral uses for sunrise and sunset, degrees.
    public static let apparentSolarRadius = 0.2667

    /// The geometric (refraction-free) elevation of the sun's centre at sunrise and sunset,
    /// degrees: the upper limb on the horizon, by astral's rule of zenith 90° plus
    /// ``apparentSolarRadius`` plus the refraction at that zenith. About −0.78912°.
    ///
    /// Computed from ``refraction(geometricElevation:)`` rather than written as a rounded
    /// number, so it is exactly the threshold the formula implies.
    public static let sunriseGeometricElevation: Double =
        -(apparentSolarRadius + refraction(geometricElevation: -apparentSolarRadius))

    /// The geometric elevation of the sun's centre at civil dawn and civil dusk, degrees:
    /// astral's zenith 96° plus the refraction at that zenith. About −6.05487°.
    ///
    /// The textbook civil twilight is −6° geometric; astral adds refraction, which moves the
    /// times by tens of seconds at mid latitudes. Apparent elevation here is −6.0005°.
    public static let civilDuskGeometricElevation: Double = -(6 + refraction(geometricElevation: -6))

    /// Geometric elevation of the sun's centre above the horizon, degrees, without refraction.
    /// Latitude clamped to ±89.8° like astral.
    ///
    /// - Parameters:
    ///   - latitude: degrees north (clamped to ±``latitudeLimit``).
    ///   - longitude: degrees east (any value; taken modulo 360°).
    ///   - instant: the moment (its written offset is ignored).
    /// - Returns: degrees in −90...90.
    /// - Complexity: O(1), about a dozen trigonometric calls, no allocation.
    public static func geometricElevation(latitude: Double, longitude: Double, at instant: Instant) -> Double {
        SolarSite(latitude: latitude, longitude: longitude).geometricElevation(at: instant.seconds)
    }

    /// Apparent elevation: geometric plus atmospheric refraction (NOAA's formula, applied below the horizon too, as astral does).
    ///
    /// This is astral's `elevation(observer, t)` with its default `with_refraction=True`.
    /// - Complexity: O(1), no allocation.
    public static func elevation(latitude: Double, longitude: Double, at instant: Instant) -> Double {
        let e = geometricElevation(latitude: latitude, longitude: longitude, at: instant)
        return e + refraction(geometricElevation: e)
    }

    /// NOAA refraction correction in degrees for a geometric elevation.
    ///
    /// In arc seconds, by the geometric elevation `e` in degrees: 0 for `e ≥ 85`;
    /// `58.1/tan e − 0.07/tan³e + 0.000086/tan⁵e` for `5 < e < 85`;
    /// `1735 + e(−518.2 + e(103.4 + e(−12.79 + 0.711e)))` for `−0.575 < e ≤ 5`; and
    /// `−20.774/tan e` for `e ≤ −0.575` (so the sun is lifted below the horizon too:
    /// about 0.33° at −1° and 0.01° at −30°). The branches do not meet exactly; that is
    /// NOAA's formula as published and as astral uses it.
    /// - Complexity: O(1).
    public static func refraction(geometricElevation e: Double) -> Double {
        if e >= 85 { return 0 }
        let arcSeconds: Double
        if e > 5 {
            let t = tan(e * radiansPerDegree)
            let t3 = t * t * t
            arcSeconds = 58.1 / t - 0.07 / t3 + 0.000086 / (t3 * t * t)
        } else if e > -0.575 {
            arcSeconds = 1735 + e * (-518.2 + e * (103.4 + e * (-12.79 + e * 0.711)))
        } else {
            arcSeconds = -20.774 / tan(e * radiansPerDegree)
        }
        return arcSeconds / 3600
    }
}

let radiansPerDegree = Double.pi / 180
let degreesPerRadian = 180 / Double.pi

/// An observer prepared for repeated evaluation: the clamped latitude's sine and cosine and
/// the longitude reduced to [−180, 180).
struct SolarSite {
    let sinLatitude: Double
    let cosLatitude: Double
    /// Degrees east in [−180, 180): 180 and −180 both become −180, so they agree to the bit.
    let longitude: Double

    @inline(__always)
    init(latitude: Double, longitude: Double) {
        let limit = SolarPosition.latitudeLimit
        let lat = latitude > limit ? limit : (latitude < -limit ? -limit : latitude)
        let phi = lat * radiansPerDegree
        sinLatitude = sin(phi)
        cosLatitude = cos(phi)
        var lon = longitude.remainder(dividingBy: 360)   // exact, in [−180, 180]
        if lon >= 180 { lon -= 360 }
        self.longitude = lon
    }

    /// Geometric elevation of the sun's centre, degrees, at `seconds` after the Unix epoch.
    @inline(__always)
    func geometricElevation(at seconds: Int64) -> Double {
        // Julian centuries since J2000.0 (2000-01-01T12:00:00 UT = Unix 946 728 000).
        // Both terms are exact in Double for any date within millions of years.
        let t = (Double(seconds) - 946_728_000) / 3_155_760_000
        let sun = SunAt(julianCenturies: t)
        // True solar time in minutes: UT minutes of the day + equation of time + 4 min/degree.
        var r = seconds % 86_400
        if r < 0 { r += 86_400 }
        let trueSolarMinutes = Double(r) / 60 + sun.equationOfTimeMinutes + 4 * longitude
        let hourAngle = (trueSolarMinutes / 4 - 180) * radiansPerDegree
        var cosZenith = sinLatitude * sun.sinDeclination + cosLatitude * sun.cosDeclination * cos(hourAngle)
        if cosZenith > 1 { cosZenith = 1 } else if cosZenith < -1 { cosZenith = -1 }
        return asin(cosZenith) * degreesPerRadian
    }
}

/// The sun's declination and the equation of time at an instant (NOAA's equations).
struct SunAt {
    let sinDeclination: Double
    let cosDeclination: Double
    /// Apparent minus mean solar time, minutes.
    let equationOfTimeMinutes: Double

    @inline(__always)
    init(julianCenturies t: Double) {
        // Geometric mean longitude and anomaly of the sun, eccentricity of Earth's orbit.
        let meanLongitude = (280.46646 + t * (36000.76983 + t * 0.0003032)).truncatingRemainder(dividingBy: 360)
        let meanAnomaly = (357.52911 + t * (35999.05029 - t * 0.0001537)) * radiansPerDegree
        let eccentricity = 0.016708634 - t * (0.000042037 + t * 0.0000001267)
        let sinM = sin(meanAnomaly), cosM = cos(meanAnomaly)
        let sin2M = 2 * sinM * cosM
        let sin3M = sinM * (3 - 4 * sinM * sinM)
        // Equation of the centre, apparent longitude (nutation and aberration, one term).
        let centre = sinM * (1.914602 - t * (0.004817 + t * 0.000014))
            + sin2M * (0.019993 - t * 0.000101)
            + sin3M * 0.000289
        let omega = (125.04 - 1934.136 * t) * radiansPerDegree
        let apparentLongitude = (meanLongitude + centre - 0.00569 - 0.00478 * sin(omega)) * radiansPerDegree
        // Obliquity of the ecliptic, mean plus the nutation correction.
        let arcSeconds = 21.448 - t * (46.815 + t * (0.00059 - t * 0.001813))
        let obliquity = (23 + (26 + arcSeconds / 60) / 60 + 0.00256 * cos(omega)) * radiansPerDegree
        let sinObliquity = sin(obliquity), cosObliquity = cos(obliquity)
        let sinDec = sinObliquity * sin(apparentLongitude)
        sinDeclination = sinDec
        cosDeclination = (1 - sinDec * sinDec).squareRoot()
        // Equation of time (Smart's series as NOAA writes it), y = tan²(ε/2).
        let tanHalf = sinObliquity / (1 + cosObliquity)
        let y = tanHalf * tanHalf
        let l0 = 2 * meanLongitude * radiansPerDegree
        let sin2L0 = sin(l0), cos2L0 = cos(l0)
        let sin4L0 = 2 * sin2L0 * cos2L0
        let e = eccentricity
        let radians = y * sin2L0 - 2 * e * sinM + 4 * e * y * sinM * cos2L0
            - 0.5 * y * y * sin4L0 - 1.25 * e * e * sin2M
        equationOfTimeMinutes = 4 * radians * degreesPerRadian
    }
}
