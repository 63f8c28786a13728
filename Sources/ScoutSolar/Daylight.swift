import ScoutTime

/// How light it is outside, by the sun's apparent elevation.
///
/// ```swift
/// let t = try Instant.parse("2026-06-21T21:30:00Z", path: "at")
/// Daylight.at(latitude: 53.3498, longitude: -6.2603, t)   // .twilight (Dublin, after sunset)
/// ```
///
/// The levels are cut exactly where astral 3.2 puts sunrise/sunset and civil dawn/dusk, as
/// geometric elevations of the sun's centre: `day` from
/// ``SolarPosition/sunriseGeometricElevation`` (≈ −0.7891°) up, `twilight` from
/// ``SolarPosition/civilDuskGeometricElevation`` (≈ −6.0549°) up to that, `dark` below.
/// So the level changes at the instants ``SunEvents`` reports. Ordered
/// `dark < twilight < day`.
public enum Daylight: String, Sendable, CaseIterable, Comparable {
    /// The sun's centre below civil twilight: geometric elevation under ≈ −6.0549°
    /// (apparent under ≈ −6.0005°), after civil dusk or before civil dawn.
    case dark
    /// Civil twilight: geometric elevation from ≈ −6.0549° up to, not including, the
    /// sunrise/sunset elevation ≈ −0.7891° (the upper limb below the horizon).
    case twilight
    /// The sun is up: geometric elevation at least ≈ −0.7891°, between sunrise and sunset as
    /// astral defines them.
    case day

    /// The light at a place and instant.
    ///
    /// Same decision as comparing ``SolarPosition/geometricElevation(latitude:longitude:at:)``
    /// with the two thresholds (it is that computation).
    /// - Complexity: O(1), no allocation; about 0.1–0.2 µs in a release build.
    public static func at(latitude: Double, longitude: Double, _ instant: Instant) -> Daylight {
        level(geometricElevation: SolarPosition.geometricElevation(latitude: latitude, longitude: longitude, at: instant))
    }

    /// The level for a geometric elevation of the sun's centre, degrees.
    /// - Complexity: O(1).
    public static func level(geometricElevation e: Double) -> Daylight {
        if e >= SolarPosition.sunriseGeometricElevation { return .day }
        if e >= SolarPosition.civilDuskGeometricElevation { return .twilight }
        return .dark
    }

    /// `dark < twilight < day`.
    public static func < (a: Daylight, b: Daylight) -> Bool { a.rank < b.rank }

    private var rank: Int {
        switch self {
        case .dark: return 0
        case .twilight: return 1
        case .day: return 2
        }
    }
}
