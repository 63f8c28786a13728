import Foundation
import PropertyBased
import ScoutTestSupport
import Testing
@testable import ScoutSchedule
import ScoutTime

/// Random reminders against brute-force oracles written without the module's code: walk the
/// calendar one day at a time, ask Foundation's `Calendar` for the instant of each matching
/// wall time (it shifts forward in a gap and takes the earlier instant in an overlap, the
/// documented rule), and, for moves, step through time a minute at a time.
@Suite struct SchedulePropertyTests {
    static let zones = [
        "Europe/Dublin", "Europe/London", "America/New_York", "America/St_Johns", "Australia/Lord_Howe",
        "Asia/Kolkata", "Asia/Kathmandu", "Pacific/Chatham", "America/Sao_Paulo", "Africa/Casablanca",
        "Pacific/Apia", "America/Santiago", "Asia/Tehran", "UTC",
    ]

    /// A matching day and the instant (Unix seconds) its wall time names.
    struct Occurrence { var date: LocalDate; var seconds: Int64 }

    /// Whether `day` is an occurrence day of a reminder starting on `start`, by the rules a
    /// person states: every day; the same weekday; the same day of the month or the last
    /// day of a shorter month; the start day only.
    static func matches(_ day: LocalDate, _ start: LocalDate, _ frequency: Frequency) -> Bool {
        guard day >= start else { return false }
        switch frequency {
        case .once: return day == start
        case .daily: return true
        case .weekly: return day.weekday == start.weekday
        case .monthly: return day.day == min(start.day, day.daysInMonth)
        }
    }

    /// Occurrences from `start` through `last`, the instants asked of Foundation only from
    /// `from` on; sorted, one per instant (a skipped day's shifted time can coincide with
    /// the next day's).
    static func oracle(_ r: Reminder, _ tz: TimeZone, from: LocalDate, through last: LocalDate) -> [Occurrence] {
        var cal = Calendar(identifier: .gregorian)
        cal.timeZone = tz
        var out: [Occurrence] = []
        var day = r.start.date
        while day <= last {
            if day >= from, matches(day, r.start.date, r.frequency) {
                let date = cal.date(from: DateComponents(year: day.year, month: day.month, day: day.day, hour: r.start.hour,
                                                         minute: r.start.minute, second: r.start.second))!
                out.append(Occurrence(date: day, seconds: Int64(date.timeIntervalSince1970)))
            }
            day = day.adding(days: 1)
        }
        out.sort { $0.seconds < $1.seconds }
        var unique: [Occurrence] = []
        for o in out where unique.last?.seconds != o.seconds { unique.append(o) }
        return unique
    }

    static func offset(_ tz: TimeZone, _ t: Int64) -> Int64 {
        Int64(tz.secondsFromGMT(for: Date(timeIntervalSince1970: Double(t))))
    }

    /// Whether some instant within two days shows the wall clock reading `wall` (Unix
    /// seconds of the same reading at UTC).
    static func wallTimeExists(_ wall: Int64, _ tz: TimeZone) -> Bool {
        (-48...48).contains { k in
            let o = offset(tz, wall + Int64(k) * 3600)
            return offset(tz, wall - o) == o
        }
    }

    /// A zone, a `now` and a start. Half the time `now` is up to six days before one of the
    /// zone's clock changes and the start's time of day is in the skipped or repeated hour or
    /// next to it; otherwise all is uniform. Times of day are multiples of `step` seconds.
    static func scenario(_ rng: inout SplitMix64, daysBefore: Int, daysAfter: Int, step: Int)
        -> (id: String, zone: Zone, tz: TimeZone, now: Int64, start: LocalDateTime) {
        let id = rng.pick(zones)
        let tz = TimeZone(identifier: id)!
        var now = rng.int64(946_684_800...2_082_758_400)                     // 2000 … 2036
        var timeOfDay = rng.int(0...(86_399 / step)) * step
        var startDay = now / 86_400 + Int64(rng.int(-daysBefore...daysAfter))
        if rng.chance(0.5), let change = tz.nextDaylightSavingTimeTransition(after: Date(timeIntervalSince1970: Double(now))) {
            let t = Int64(change.timeIntervalSince1970)
            let before = offset(tz, t - 1), after = offset(tz, t)
            let span = Int(max(abs(after - before), 3_600))
            let wall = t + min(before, after) + Int64(rng.int(-span / 4...span) / step * step)
            timeOfDay = Int((wall % 86_400 + 86_400) % 86_400) / step * step
            now = t - rng.int64(0...(6 * 86_400))
            startDay = min(startDay, now / 86_400)
        }
        let start = LocalDateTime(date: LocalDate(daysSinceEpoch: startDay), hour: timeOfDay / 3600,
                                  minute: timeOfDay / 60 % 60, second: timeOfDay % 60)!
        return (id, T.zone(id), tz, now, start)
    }

    // MARK: Unmoved fires

    /// Checks one random reminder without moves; returns whether a fire was shifted by a gap.
    static func checkUnmoved(_ rng: inout SplitMix64, _ log: inout FailureLog) -> Bool {
        let (id, zone, tz, now, start) = scenario(&rng, daysBefore: 1_100, daysAfter: 60, step: rng.chance(0.2) ? 1 : 60)
        let frequency = rng.pick(Frequency.allCases)
        let count = rng.int(1...8)
        let reminder = Reminder(activity: "a", start: start, frequency: frequency)
        let fires = Schedule.compute(ScheduleRequest(zone: zone, now: Instant(seconds: now), reminders: [reminder],
                                                     count: count)).reminders[0].fires

        let nowDate = LocalDate(daysSinceEpoch: now / 86_400)
        let last = max(start.date, nowDate).adding(days: 31 * (count + 2))
        let expected = oracle(reminder, tz, from: nowDate.adding(days: -2), through: last).filter { $0.seconds > now }.prefix(count)
        let context = "\(id) \(frequency) from \(start), now \(now), count \(count)"
        log.check(fires.map(\.at.seconds) == expected.map(\.seconds),
                  "\(context): \(fires.map(\.at.rfc3339)), oracle \(expected.map(\.seconds))")
        log.check(zip(fires, fires.dropFirst()).allSatisfy { $0.at < $1.at }, "\(context): not increasing")
        log.check(fires.allSatisfy { $0.at.seconds > now && $0.at == $0.nominal && $0.movedFor.isEmpty }, "\(context): at or before now")
        log.check(fires.allSatisfy { Int64($0.at.utcOffsetSeconds) == offset(tz, $0.at.seconds) }, "\(context): written offset")
        var shifted = false
        for (fire, occurrence) in zip(fires, expected) {
            let wall = fire.at.seconds + offset(tz, fire.at.seconds)
            let intended = occurrence.date.daysSinceEpoch * 86_400 + Int64(start.secondOfDay)
            if wall != intended {
                // Only a wall time that does not exist may fire at another reading, and then later.
                log.check(!wallTimeExists(intended, tz) && wall > intended,
                          "\(context): fire \(fire.at.rfc3339) is not at the start's wall time though it exists")
                shifted = true
            }
        }
        if frequency != .once { log.check(fires.count == count, "\(context): \(fires.count) fires") }
        return shifted
    }

    @Test func unmovedFiresMatchADayByDayWalk() async {
        await propertyCheck(count: 60, input: Gen.int(in: 0...Int(Int32.max))) { seed in
            var rng = SplitMix64(seed: seed)
            var log = FailureLog()
            for _ in 0..<5 { _ = Self.checkUnmoved(&rng, &log) }
            #expect(log.isEmpty, "\(log.summary)")
        }
    }

    /// The generator does reach DST gaps (so the wall-time exception above is exercised).
    @Test func unmovedSamplesReachGaps() {
        var rng = SplitMix64(seed: 20_260_329)
        var log = FailureLog()
        var gaps = 0
        for _ in 0..<300 where Self.checkUnmoved(&rng, &log) { gaps += 1 }
        #expect(log.isEmpty, "\(log.summary)")
        #expect(gaps >= 3, "only \(gaps) cases hit a gap")
    }

    // MARK: Moved fires

    /// Checks one random reminder with quiet hours and busy intervals against an oracle that
    /// steps through time a minute at a time. Every boundary is a whole minute (wall times,
    /// waking hours and busy intervals are whole minutes, and so are the zones' offsets and
    /// transitions since 2000, including Newfoundland's at 00:01), so the first free minute
    /// is the first free instant. Returns the reasons seen.
    static func checkMoved(_ rng: inout SplitMix64, _ log: inout FailureLog) -> Set<[MoveReason]> {
        let (id, zone, tz, now, start) = scenario(&rng, daysBefore: 40, daysAfter: 3, step: 300)
        let frequency = rng.pick(Frequency.allCases)
        let count = rng.int(1...5)
        var waking = WakingHours.standard
        if rng.chance(0.6) {
            let a = rng.int(0...287) * 5, b = rng.int(1...288) * 5
            waking = WakingHours(startMinute: a, endMinute: b) ?? .standard
        }
        let grid = now / 300 * 300
        var busy: [BusyInterval] = []
        for _ in 0..<rng.int(0...7) {
            // Often chained to the previous interval: overlapping it or starting at its end.
            var s = grid + Int64(rng.int(-288...(12 * 288))) * 300
            if let previous = busy.last, rng.chance(0.4) { s = previous.end.seconds - Int64(rng.int(0...3)) * 300 }
            let length = Int64(rng.chance(0.8) ? rng.int(1...36) : rng.int(1...480)) * 300
            busy.append(BusyInterval(start: Instant(seconds: s, utcOffsetSeconds: 3_600), end: Instant(seconds: s + length)))
        }
        let avoidQuiet = rng.chance(0.7), avoidBusy = rng.chance(0.8)
        let reminder = Reminder(activity: "a", start: start, frequency: frequency)
        let fires = Schedule.compute(ScheduleRequest(
            zone: zone, now: Instant(seconds: now), reminders: [reminder], count: count,
            wakingHours: waking, avoidQuietHours: avoidQuiet, busy: busy, avoidBusy: avoidBusy)).reminders[0].fires

        // The oracle's notion of blocked: quiet by the local clock, or inside [start, end).
        func quiet(_ t: Int64) -> Bool {
            guard avoidQuiet else { return false }
            let m = Int(((t + offset(tz, t)) % 86_400 + 86_400) % 86_400 / 60)
            let (a, b) = (waking.startMinute, waking.endMinute)
            let awake = a < b ? (a <= m && m < b) : (m >= a || m < b)
            return !awake
        }
        func inBusy(_ t: Int64) -> Bool { avoidBusy && busy.contains { $0.start.seconds <= t && t < $0.end.seconds } }
        func firstFree(_ t: Int64) -> Int64 {
            var s = t
            while quiet(s) || inBusy(s) { s += 60 }
            return s
        }

        // Busy intervals start at most a day before now and quiet hours last under a day, so
        // occurrences more than 35 days before now cannot land after it.
        let nowDate = LocalDate(daysSinceEpoch: now / 86_400)
        let last = max(start.date, nowDate).adding(days: 31 * (count + 3) + 14)
        let occurrences = oracle(reminder, tz, from: nowDate.adding(days: -35), through: last)
        var expected: [(at: Int64, nominal: Int64)] = []
        for (i, o) in occurrences.enumerated() where expected.count < count {
            let next = i + 1 < occurrences.count ? occurrences[i + 1].seconds : Int64.max
            guard next > now else { continue }                  // it would have to land before `next`
            let at = firstFree(o.seconds)
            if at > now && at < next { expected.append((at, o.seconds)) }
        }
        let context = "\(id) \(frequency) from \(start), now \(now), count \(count), waking \(waking) \(avoidQuiet), "
            + "busy \(busy.map { ($0.start.seconds, $0.end.seconds) }) \(avoidBusy)"
        log.check(fires.map(\.at.seconds) == expected.map(\.at) && fires.map(\.nominal.seconds) == expected.map(\.nominal),
                  "\(context): \(fires.map { ($0.at.seconds, $0.nominal.seconds) }), oracle \(expected)")
        log.check(zip(fires, fires.dropFirst()).allSatisfy { $0.at < $1.at }, "\(context): not increasing")
        var seen = Set<[MoveReason]>()
        for fire in fires {
            seen.insert(fire.movedFor)
            log.check(fire.movedFor.isEmpty == (fire.at == fire.nominal), "\(context): reasons \(fire.movedFor) for \(fire.at)")
            if let first = fire.movedFor.first {
                log.check(first == .busy ? inBusy(fire.nominal.seconds) : quiet(fire.nominal.seconds),
                          "\(context): first reason \(first) does not hold at \(fire.nominal.seconds)")
            }
            log.check(Int64(fire.at.utcOffsetSeconds) == offset(tz, fire.at.seconds), "\(context): written offset")
        }
        if frequency != .once { log.check(fires.count == count, "\(context): \(fires.count) fires") }
        return seen
    }

    @Test func movedFiresMatchAMinuteByMinuteWalk() async {
        await propertyCheck(count: 60, input: Gen.int(in: 0...Int(Int32.max))) { seed in
            var rng = SplitMix64(seed: seed)
            var log = FailureLog()
            for _ in 0..<5 { _ = Self.checkMoved(&rng, &log) }
            #expect(log.isEmpty, "\(log.summary)")
        }
    }

    /// The generator reaches each kind of move, and chains of them.
    @Test func movedSamplesReachEveryKindOfMove() {
        var rng = SplitMix64(seed: 4)
        var log = FailureLog()
        var seen = Set<[MoveReason]>()
        for _ in 0..<300 { seen.formUnion(Self.checkMoved(&rng, &log)) }
        #expect(log.isEmpty, "\(log.summary)")
        for reasons: [MoveReason] in [[], [.busy], [.quietHours], [.busy, .quietHours], [.quietHours, .busy], [.busy, .busy]] {
            #expect(seen.contains(reasons), "never saw \(reasons)")
        }
    }
}
