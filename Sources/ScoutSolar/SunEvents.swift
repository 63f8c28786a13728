import ScoutTime

/// The sun events of one local calendar day (those that happen; nil when not on that day: polar day or night).
///
/// ```swift
/// let d = LocalDate(year: 2026, month: 6, day: 21)!
/// let e = SunEvents.on(d, latitude: 53.3498, longitude: -6.2603, utcOffsetSeconds: 0)
/// e.sunrise?.rfc3339   // "2026-06-21T03:57:04Z"  (astral 3.2: 03:57:04Z)
/// e.dusk?.rfc3339      // "2026-06-21T21:50:16Z"  (astral 3.2: 21:50:16Z)
/// ```
///
/// Each event is the first whole second at which the new state holds, so it is exactly
/// where ``Daylight/at(latitude:longitude:_:)`` changes: at `sunrise` the level is `day` and
/// one second earlier it is not; at `dusk` it is `dark` and one second earlier it is not.
/// The thresholds are astral's (``SolarPosition/sunriseGeometricElevation``,
/// ``SolarPosition/civilDuskGeometricElevation``), so the times agree with astral 3.2 to a
/// few seconds wherever the sun crosses them clearly.
///
/// An event is `nil` when it does not happen on that local day: polar day or night,
/// twilight that lasts all night, or a rise or set that falls on the neighbouring day.
/// Should the sun cross the same threshold twice in the same direction within one local day
/// (possible only at high latitudes as polar day or night begins, or with a clock far from
/// solar time), the first crossing is reported.
public struct SunEvents: Sendable, Equatable {
    /// Civil dawn: the sun's centre rises through ≈ −6.0549° geometric (astral's `dawn`, depression 6°).
    public let dawn: Instant?
    /// Sunrise: the upper limb rises over the horizon (geometric elevation ≈ −0.7891°).
    public let sunrise: Instant?
    /// Sunset: the upper limb sinks below the horizon.
    public let sunset: Instant?
    /// Civil dusk: the sun's centre sinks below ≈ −6.0549° geometric.
    public let dusk: Instant?

    /// The events as given (for tests and callers that assemble their own).
    public init(dawn: Instant?, sunrise: Instant?, sunset: Instant?, dusk: Instant?) {
        self.dawn = dawn
        self.sunrise = sunrise
        self.sunset = sunset
        self.dusk = dusk
    }

    /// Events of the local day `date` at a place whose clock is `utcOffsetSeconds` from UTC: instants in [local midnight, next local midnight).
    ///
    /// The instants are written with `utcOffsetSeconds`, so their ``Instant/rfc3339`` shows
    /// local time. Latitude is clamped to ±89.8° and longitude taken modulo 360°, as in
    /// ``SolarPosition``.
    /// - Complexity: about 250 elevation evaluations (a 10-minute scan of the day, then
    ///   bisection to the second); tens of microseconds in a release build, no allocation.
    public static func on(_ date: LocalDate, latitude: Double, longitude: Double, utcOffsetSeconds: Int32) -> SunEvents {
        let site = SolarSite(latitude: latitude, longitude: longitude)
        let (dayStart, overflow) = date.daysSinceEpoch.multipliedReportingOverflow(by: 86_400)
        let midnight = overflow ? (date.year > 0 ? Int64.max : Int64.min) : saturatingAdd(dayStart, -Int64(utcOffsetSeconds))
        let rise = SolarPosition.sunriseGeometricElevation
        let civil = SolarPosition.civilDuskGeometricElevation
        var dawn: Int64?, sunrise: Int64?, sunset: Int64?, dusk: Int64?
        // An event is the first second s with the new state, s in [midnight, midnight + 86399]:
        // the change happens in (s − 1, s], so scan (midnight − 1, midnight + 86399].
        site.forEachMonotonicPiece(from: saturatingAdd(midnight, -1), to: saturatingAdd(midnight, 86_399)) { a, ea, b, eb in
            if ea < civil, eb >= civil, dawn == nil {
                dawn = site.firstSecond(after: a, by: b) { $0 >= civil }
            }
            if ea < rise, eb >= rise, sunrise == nil {
                sunrise = site.firstSecond(after: a, by: b) { $0 >= rise }
            }
            if ea >= rise, eb < rise, sunset == nil {
                sunset = site.firstSecond(after: a, by: b) { $0 < rise }
            }
            if ea >= civil, eb < civil, dusk == nil {
                dusk = site.firstSecond(after: a, by: b) { $0 < civil }
            }
            return dawn != nil && sunrise != nil && sunset != nil && dusk != nil
        }
        func instant(_ s: Int64?) -> Instant? { s.map { Instant(seconds: $0, utcOffsetSeconds: utcOffsetSeconds) } }
        return SunEvents(dawn: instant(dawn), sunrise: instant(sunrise), sunset: instant(sunset), dusk: instant(dusk))
    }
}

extension SolarPosition {
    /// The first instant strictly after `start` and at most `start + withinSeconds` when the light changes level
    /// (dark↔twilight↔day, in either direction), with the new level; nil when it does not change in that span.
    /// Accurate to 1 second. Used to say "light until 18:40" and to search for the next window.
    ///
    /// Exactly: the first whole second `s` in `(start, start + withinSeconds]` with
    /// `Daylight.at(latitude:longitude:s) != Daylight.at(latitude:longitude:start)`; the
    /// level one second before `s` is still the starting one, and `to` is the level at `s`.
    /// Brief grazes are found too (the scan splits time at the sun's highest and lowest
    /// points). The returned instant is written with `start`'s offset.
    /// - Complexity: O(withinSeconds / 600) elevation evaluations plus about 20 for the
    ///   bisection: about 10 µs per day scanned in a release build, no allocation.
    public static func nextDaylightChange(latitude: Double, longitude: Double, after start: Instant,
                                          withinSeconds: Int64) -> (at: Instant, to: Daylight)? {
        guard withinSeconds > 0 else { return nil }
        let site = SolarSite(latitude: latitude, longitude: longitude)
        let from = start.seconds
        let initial = Daylight.level(geometricElevation: site.geometricElevation(at: from))
        var found: (Int64, Daylight)?
        site.forEachMonotonicPiece(from: from, to: saturatingAdd(from, withinSeconds)) { a, _, b, eb in
            guard Daylight.level(geometricElevation: eb) != initial else { return false }
            let s = site.firstSecond(after: a, by: b) { Daylight.level(geometricElevation: $0) != initial }
            found = (s, Daylight.level(geometricElevation: site.geometricElevation(at: s)))
            return true
        }
        guard let (s, level) = found else { return nil }
        return (Instant(seconds: s, utcOffsetSeconds: start.utcOffsetSeconds), level)
    }
}
