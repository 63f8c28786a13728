import Foundation
import PropertyBased
import ScoutCore
import ScoutTestSupport
import Testing
@testable import ScoutTime

@Suite struct ZoneTests {
    static func zone(_ id: String) -> Zone { try! Zone(identifier: id, path: "tz") }
    static func instant(_ text: String) -> Instant { try! Instant.parse(text, path: "t") }
    static func wall(_ y: Int, _ mo: Int, _ d: Int, _ h: Int, _ mi: Int, _ s: Int = 0) -> LocalDateTime {
        LocalDateTime(year: y, month: mo, day: d, hour: h, minute: mi, second: s)!
    }

    @Test(arguments: ["Foo/Bar", "", "CEST", "Europe/Warsaw ", "Mars/Olympus_Mons",
                      // Offset names Foundation traps on or misreads (found by FuzzTime).
                      "UTC-00:r0", "UTC-12:a5", "GMT+10:b1", "UTC-00::0", "GMT+1:x", "UTC+0500x"])
    func unknownIdentifiers(id: String) {
        #expect(throws: ScoutError(.invalidRequest, "unknown time zone", path: "query.tz")) {
            _ = try Zone(identifier: id, path: "query.tz")
        }
    }

    /// The digit offset forms still reach Foundation and mean what they say.
    @Test(arguments: [("UTC-00:00", 0), ("GMT+5", 18_000), ("GMT+0530", 19_800), ("UTC-03:30", -12_600), ("GMT+05", 18_000)])
    func offsetNamesInDigits(id: String, offset: Int32) throws {
        #expect(try Zone(identifier: id, path: "tz").offset(at: Self.instant("2026-01-01T00:00:00Z")) == offset)
    }

    // EU rules: summer time from 01:00 UTC on the last Sunday of March to 01:00 UTC on the
    // last Sunday of October (2026-03-29 and 2026-10-25). Warsaw is +01:00/+02:00; London
    // +00:00/+01:00; Dublin the same (Irish law calls winter time the exception).
    @Test(arguments: [
        ("Europe/Warsaw", 3_600, 7_200), ("Europe/London", 0, 3_600), ("Europe/Dublin", 0, 3_600),
    ])
    func offsetsAroundTheTransitions(id: String, winter: Int32, summer: Int32) {
        let z = Self.zone(id)
        #expect(z.offset(at: Self.instant("2026-03-29T00:59:59Z")) == winter)
        #expect(z.offset(at: Self.instant("2026-03-29T01:00:00Z")) == summer)
        #expect(z.offset(at: Self.instant("2026-10-25T00:59:59Z")) == summer)
        #expect(z.offset(at: Self.instant("2026-10-25T01:00:00Z")) == winter)
        #expect(z.offset(at: Self.instant("2026-01-15T12:00:00Z")) == winter)
        #expect(z.offset(at: Self.instant("2026-07-15T12:00:00Z")) == summer)
        // The local clock jumps over the gap and repeats the overlap.
        let w = Int(winter / 3600), s = Int(summer / 3600)
        #expect(z.local(Self.instant("2026-03-29T00:59:59Z")) == Self.wall(2026, 3, 29, w, 59, 59))
        #expect(z.local(Self.instant("2026-03-29T01:00:00Z")) == Self.wall(2026, 3, 29, 1 + s, 0))
        #expect(z.local(Self.instant("2026-10-25T00:59:59Z")) == Self.wall(2026, 10, 25, s, 59, 59))
        #expect(z.local(Self.instant("2026-10-25T01:00:00Z")) == Self.wall(2026, 10, 25, 1 + w, 0))
    }

    @Test func warsawGapShiftsForwardByTheGap() {
        let z = Self.zone("Europe/Warsaw")
        let t = z.instant(of: Self.wall(2026, 3, 29, 2, 30))        // 02:00–03:00 does not exist
        #expect(t == Self.instant("2026-03-29T01:30:00Z"))
        #expect(t.rfc3339 == "2026-03-29T03:30:00+02:00")
        #expect(z.local(t) == Self.wall(2026, 3, 29, 3, 30))
        let first = z.instant(of: Self.wall(2026, 3, 29, 2, 30), resolving: .init(gap: .transition, overlap: .earlier))
        #expect(first.rfc3339 == "2026-03-29T03:00:00+02:00")
        // Either side of the gap nothing is ambiguous.
        #expect(z.instant(of: Self.wall(2026, 3, 29, 1, 59, 59)).rfc3339 == "2026-03-29T01:59:59+01:00")
        #expect(z.instant(of: Self.wall(2026, 3, 29, 3, 0)).rfc3339 == "2026-03-29T03:00:00+02:00")
    }

    @Test func warsawOverlapPicksTheEarlierInstant() {
        let z = Self.zone("Europe/Warsaw")
        let wall = Self.wall(2026, 10, 25, 2, 30)                    // 02:00–03:00 occurs twice
        #expect(z.instant(of: wall).rfc3339 == "2026-10-25T02:30:00+02:00")
        #expect(z.instant(of: wall) == Self.instant("2026-10-25T00:30:00Z"))
        let later = z.instant(of: wall, resolving: .init(gap: .shiftForward, overlap: .later))
        #expect(later.rfc3339 == "2026-10-25T02:30:00+01:00")
        #expect(later == Self.instant("2026-10-25T01:30:00Z"))
        #expect(z.instant(of: Self.wall(2026, 10, 25, 3, 0)).rfc3339 == "2026-10-25T03:00:00+01:00")
    }

    @Test(arguments: ["Europe/London", "Europe/Dublin"])
    func britishIslesGapAndOverlap(id: String) {
        let z = Self.zone(id)
        #expect(z.instant(of: Self.wall(2026, 3, 29, 1, 30)).rfc3339 == "2026-03-29T02:30:00+01:00")
        #expect(z.instant(of: Self.wall(2026, 3, 29, 1, 30), resolving: .init(gap: .transition, overlap: .earlier)).rfc3339
                == "2026-03-29T02:00:00+01:00")
        #expect(z.instant(of: Self.wall(2026, 10, 25, 1, 30)).rfc3339 == "2026-10-25T01:30:00+01:00")
        #expect(z.instant(of: Self.wall(2026, 10, 25, 1, 30), resolving: .init(gap: .shiftForward, overlap: .later)).rfc3339
                == "2026-10-25T01:30:00Z")
    }

    static let zones = [
        "Europe/Warsaw", "Europe/Dublin", "Europe/London", "America/New_York", "America/St_Johns",
        "Australia/Lord_Howe", "Asia/Kathmandu", "Pacific/Apia", "Pacific/Chatham", "Africa/Casablanca",
        "America/Sao_Paulo", "Asia/Tehran", "UTC",
    ]

    /// Every instant that shows wall time `wall` (as Unix seconds of the same clock reading
    /// at UTC), found with Foundation alone by trying every offset in effect within two days.
    static func instantsShowing(_ wall: Int64, in tz: TimeZone) -> [Int64] {
        func off(_ s: Int64) -> Int64 { Int64(tz.secondsFromGMT(for: Date(timeIntervalSince1970: Double(s)))) }
        var offsets = Set<Int64>()
        for k in Int64(-48)...48 { offsets.insert(off(wall + k * 3600)) }
        return offsets.map { wall - $0 }.filter { $0 + off($0) == wall }.sorted()
    }

    /// `local` agrees with Foundation's Calendar, and local → instant gives back every
    /// instant (the earlier or later one when the wall time occurs twice).
    @Test func randomInstantsRoundTripAgainstFoundation() async {
        await propertyCheck(count: 60, input: Gen.int(in: 0...Int(Int32.max))) { seed in
            var rng = SplitMix64(seed: seed)
            var log = FailureLog()
            for _ in 0..<10 {
                let id = rng.pick(Self.zones)
                let z = Self.zone(id), tz = TimeZone(identifier: id)!
                var cal = Calendar(identifier: .gregorian)
                cal.timeZone = tz
                let t = rng.int64(-2_208_988_800...4_102_444_800)            // 1900 … 2100
                let local = z.local(Instant(seconds: t))
                let c = cal.dateComponents([.year, .month, .day, .hour, .minute, .second], from: Date(timeIntervalSince1970: Double(t)))
                log.check(local == Self.wall(c.year!, c.month!, c.day!, c.hour!, c.minute!, c.second!),
                          "\(id) at \(t): \(local), Foundation \(c)")
                let wall = t + Int64(tz.secondsFromGMT(for: Date(timeIntervalSince1970: Double(t))))
                let all = Self.instantsShowing(wall, in: tz)
                log.check(all.contains(t), "\(id): oracle misses \(t)")
                let earlier = z.instant(of: local)
                let later = z.instant(of: local, resolving: .init(gap: .shiftForward, overlap: .later))
                log.check(earlier.seconds == all.first, "\(id) \(local): earlier \(earlier.seconds), oracle \(all)")
                log.check(later.seconds == all.last, "\(id) \(local): later \(later.seconds), oracle \(all)")
                log.check(Int64(earlier.utcOffsetSeconds) == wall - earlier.seconds, "\(id) \(local): written offset \(earlier.utcOffsetSeconds)")
            }
            #expect(log.isEmpty, "\(log.summary)")
        }
    }

    enum NearTransition { case none, unique, gap, overlap }

    /// Picks a zone, a transition Foundation reports and a wall time near it (often inside
    /// the gap or overlap), and checks both resolutions against an oracle built from
    /// Foundation alone: in a gap, `.shiftForward` is `wall - offset before` and
    /// `.transition` is the transition instant; otherwise the earliest/latest instant
    /// showing the wall time.
    static func checkNearTransition(_ rng: inout SplitMix64, _ log: inout FailureLog) -> NearTransition {
        let id = rng.pick(zones)
        let z = zone(id), tz = TimeZone(identifier: id)!
        func off(_ s: Int64) -> Int64 { Int64(tz.secondsFromGMT(for: Date(timeIntervalSince1970: Double(s)))) }
        let from = Date(timeIntervalSince1970: Double(rng.int64(31_536_000...2_114_380_800)))   // 1971 … 2037
        guard let transition = tz.nextDaylightSavingTimeTransition(after: from) else { return .none }
        let T = Int64(transition.timeIntervalSince1970)
        let before = off(T - 1), after = off(T)
        // Wall times [T + min, T + max) of the two offsets are skipped or repeated.
        let lo = T + min(before, after), hi = T + max(before, after)
        let wall = rng.chance(0.5) && hi > lo ? rng.int64(lo...(hi - 1)) : T + before + Int64(rng.int(-7_200...7_200))
        let local = LocalDateTime(wallSeconds: wall)
        let all = instantsShowing(wall, in: tz)
        let shifted = z.instant(of: local)
        let landed = z.instant(of: local, resolving: .init(gap: .transition, overlap: .later))
        if all.isEmpty {
            log.check(after > before, "\(id) \(local): no instant shows it, but no gap at \(T)")
            log.check(shifted.seconds == wall - before, "\(id) \(local) in gap: \(shifted.seconds), expected \(wall - before)")
            log.check(landed.seconds == T, "\(id) \(local) in gap: transition \(landed.seconds), expected \(T)")
            log.check(z.local(shifted).wallSeconds == wall + after - before, "\(id) \(local): shifted shows \(z.local(shifted))")
            return .gap
        }
        log.check(shifted.seconds == all.first, "\(id) \(local): earlier \(shifted.seconds), oracle \(all)")
        log.check(landed.seconds == all.last, "\(id) \(local): later \(landed.seconds), oracle \(all)")
        return all.count > 1 ? .overlap : .unique
    }

    @Test func wallTimesNearTransitionsAgainstFoundation() async {
        await propertyCheck(count: 60, input: Gen.int(in: 0...Int(Int32.max))) { seed in
            var rng = SplitMix64(seed: seed)
            var log = FailureLog()
            for _ in 0..<10 { _ = Self.checkNearTransition(&rng, &log) }
            #expect(log.isEmpty, "\(log.summary)")
        }
    }

    /// The generator above really reaches gaps and overlaps.
    @Test func transitionSamplesCoverGapsAndOverlaps() {
        var rng = SplitMix64(seed: 20_260_329)
        var log = FailureLog()
        var seen: [NearTransition: Int] = [:]
        for _ in 0..<300 { seen[Self.checkNearTransition(&rng, &log), default: 0] += 1 }
        #expect(log.isEmpty, "\(log.summary)")
        #expect(seen[.gap, default: 0] >= 30 && seen[.overlap, default: 0] >= 30 && seen[.unique, default: 0] >= 30, "\(seen)")
    }

    @Test func samoaSkippedADay() {
        // Pacific/Apia moved from -10:00 to +14:00 at 2011-12-30T10:00:00Z: Dec 30 never happened.
        let z = Self.zone("Pacific/Apia")
        let t = z.instant(of: Self.wall(2011, 12, 30, 12, 0))
        #expect(z.local(t) == Self.wall(2011, 12, 31, 12, 0))
        #expect(z.instant(of: Self.wall(2011, 12, 30, 12, 0), resolving: .init(gap: .transition, overlap: .earlier))
                == Self.instant("2011-12-30T10:00:00Z"))
    }
}
