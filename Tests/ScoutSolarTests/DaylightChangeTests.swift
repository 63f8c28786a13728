import Foundation
import ScoutSolar
import ScoutTestSupport
import ScoutTime
import Testing

@Suite struct DaylightChangeTests {
    static func level(_ lat: Double, _ lon: Double, _ s: Int64) -> Daylight {
        Daylight.at(latitude: lat, longitude: lon, Instant(seconds: s))
    }

    /// Random places (a third of them beyond the polar circles, up to 89.5°; some on the
    /// antimeridian), instants in 2000–2050 and spans up to 36 h. The answer must be a true
    /// change (the level differs 2 s either side, and it is the exact second the level
    /// changes) and the first one: sampled every 60 s from the start, nothing changes before.
    @Test func nextChangeIsTheFirstTrueChange() {
        var rng = SplitMix64(seed: 20_260_621)
        var log = FailureLog()
        var changes = 0, none = 0, polar = 0
        for n in 0..<300 {
            let lat: Double
            switch rng.unit() {
            case ..<0.55: lat = asin(rng.uniform(-1, 1)) * 180 / .pi
            case ..<0.90: lat = rng.sign() * rng.uniform(60, 89.5)
            default: lat = rng.sign() * 89.5
            }
            let lon = rng.chance(0.2) ? rng.pick([179.9, -179.9, 180, -180]) : rng.uniform(-179.9, 179.9)
            let start = rng.int64(946_684_800...2_524_608_000)
            let within = rng.chance(0.2) ? rng.int64(1...3_600) : rng.int64(3_600...129_600)
            let before = Self.level(lat, lon, start)
            let context = "case \(n): (\(lat), \(lon)) after \(Instant(seconds: start)) within \(within) s"
            if abs(lat) > 66.6 { polar += 1 }
            let found = SolarPosition.nextDaylightChange(latitude: lat, longitude: lon, after: Instant(seconds: start, utcOffsetSeconds: 3_600),
                                                         withinSeconds: within)
            let last: Int64
            if let (at, to) = found {
                changes += 1
                let t = at.seconds
                log.check(t > start && t <= start + within, "\(context): \(at) is outside the span")
                log.check(at.utcOffsetSeconds == 3_600, "\(context): written with offset \(at.utcOffsetSeconds)")
                log.check(to != before, "\(context): 'change' to the same level \(to)")
                log.check(Self.level(lat, lon, t) == to, "\(context): at \(at) the level is \(Self.level(lat, lon, t)), not \(to)")
                log.check(Self.level(lat, lon, t - 1) == before, "\(context): a second before \(at) it is already \(Self.level(lat, lon, t - 1))")
                log.check(Self.level(lat, lon, t - 2) != Self.level(lat, lon, t + 2), "\(context): no change around \(at)")
                last = t - 1
            } else {
                none += 1
                last = start + within
            }
            for s in stride(from: start + 60, through: last, by: 60) where Self.level(lat, lon, s) != before {
                log.check(false, "\(context): \(Self.level(lat, lon, s)) at \(Instant(seconds: s)), before the answer \(found.map { "\($0.at)" } ?? "nil")")
                break
            }
            log.check(Self.level(lat, lon, last) == before, "\(context): changed by \(Instant(seconds: last))")
        }
        #expect(changes >= 150 && none >= 30 && polar >= 80, "\(changes) changes, \(none) none, \(polar) polar")
        #expect(log.isEmpty, "\(log.summary)")
    }

    /// A sun that grazes the horizon: the day lasts about 2.5 minutes, far less than the
    /// 10-minute scanning step. The latitude is solved so that on 2026-12-01 the highest sun
    /// is 0.0003° above the sunrise threshold (near 67.4°N, just before polar night). A scan
    /// that only looked for sign changes between 10-minute samples would miss this day
    /// whenever no sample falls inside it; starting the search at ten different minutes
    /// (and shifting the local day by ten different offsets) makes sure most grids miss it.
    @Test func aGrazingSunIsFound() throws {
        let lon = 0.0
        let day = LocalDate(year: 2026, month: 12, day: 1)!
        let midnight = day.daysSinceEpoch * 86_400
        let noonRange = (midnight + 11 * 3_600)...(midnight + 12 * 3_600 + 2_400)   // noon is near 11:49Z
        func highest(_ lat: Double) -> Double {
            stride(from: noonRange.lowerBound, through: noonRange.upperBound, by: 5)
                .map { SolarPosition.geometricElevation(latitude: lat, longitude: lon, at: Instant(seconds: $0)) }.max()!
        }
        let target = SolarPosition.sunriseGeometricElevation + 0.0003
        var lo = 60.0, hi = 75.0          // highest(lo) > target > highest(hi)
        for _ in 0..<40 {
            let mid = (lo + hi) / 2
            if highest(mid) > target { lo = mid } else { hi = mid }
        }
        let lat = lo
        let start = Instant(seconds: noonRange.lowerBound)
        let rise = try #require(SolarPosition.nextDaylightChange(latitude: lat, longitude: lon, after: start, withinSeconds: 4 * 3_600))
        #expect(rise.to == .day)
        let set = try #require(SolarPosition.nextDaylightChange(latitude: lat, longitude: lon, after: rise.at, withinSeconds: 4 * 3_600))
        #expect(set.to == .twilight)
        let length = set.at.seconds - rise.at.seconds
        #expect(length > 60 && length < 300, "day of \(length) s at latitude \(lat)")
        // Brute force, every second: day exactly on [rise, set).
        var firstDay: Int64?, lastDay: Int64?
        for s in (rise.at.seconds - 1_800)...(set.at.seconds + 1_800) where Self.level(lat, lon, s) == .day {
            if firstDay == nil { firstDay = s }
            lastDay = s
        }
        #expect(firstDay == rise.at.seconds && lastDay == set.at.seconds - 1)
        // Whatever the phase of the sampling grid, the same short day is found.
        for k in Int64(1)..<10 {
            let r = SolarPosition.nextDaylightChange(latitude: lat, longitude: lon, after: Instant(seconds: start.seconds + 60 * k),
                                                     withinSeconds: 4 * 3_600)
            #expect(r?.at == rise.at && r?.to == .day, "search from 11:0\(k)Z")
            let e = SunEvents.on(day, latitude: lat, longitude: lon, utcOffsetSeconds: Int32(60 * k))
            #expect(e.sunrise == rise.at && e.sunset == set.at && e.dawn != nil && e.dusk != nil, "offset \(60 * k) s")
        }
        // 0.001° further north the sun stays below the threshold: no day at all.
        let dim = SunEvents.on(day, latitude: lat + 0.001, longitude: lon, utcOffsetSeconds: 0)
        #expect(dim.sunrise == nil && dim.sunset == nil && dim.dawn != nil)
        #expect(SolarPosition.nextDaylightChange(latitude: lat + 0.001, longitude: lon, after: start, withinSeconds: 4 * 3_600)?.to == .dark)
    }

    @Test func emptyOrNegativeSpansHaveNoChange() {
        let t = Instant(seconds: 1_782_043_200)   // 2026-06-21T12:00:00Z
        #expect(SolarPosition.nextDaylightChange(latitude: 53.35, longitude: -6.26, after: t, withinSeconds: 0) == nil)
        #expect(SolarPosition.nextDaylightChange(latitude: 53.35, longitude: -6.26, after: t, withinSeconds: -5) == nil)
        // Dublin's sunset that day is 20:56:40Z (astral): a span ending a second short sees nothing.
        let sunset = SolarPosition.nextDaylightChange(latitude: 53.3498, longitude: -6.2603, after: t, withinSeconds: 86_400)!
        #expect(sunset.to == .twilight && abs(sunset.at.seconds - (1_782_043_200 + 8 * 3_600 + 56 * 60 + 40)) <= 2)
        let span = sunset.at.seconds - t.seconds
        #expect(SolarPosition.nextDaylightChange(latitude: 53.3498, longitude: -6.2603, after: t, withinSeconds: span - 1) == nil)
        #expect(SolarPosition.nextDaylightChange(latitude: 53.3498, longitude: -6.2603, after: t, withinSeconds: span)?.at == sunset.at)
        // Starting on the change itself, the next one is dusk.
        let dusk = SolarPosition.nextDaylightChange(latitude: 53.3498, longitude: -6.2603, after: sunset.at, withinSeconds: 86_400)!
        #expect(dusk.to == .dark && dusk.at.seconds - sunset.at.seconds > 3_000)
    }
}
