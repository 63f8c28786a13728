import Foundation
import PropertyBased
import ScoutCore
import ScoutTestSupport
import Testing
@testable import ScoutTime

@Suite struct LocalDateTests {
    /// Foundation's Gregorian calendar in UTC, the oracle (Julian before 1582-10-15, so
    /// the random dates start in 1583).
    static let utcCalendar: Calendar = {
        var c = Calendar(identifier: .gregorian)
        c.timeZone = TimeZone(identifier: "UTC")!
        return c
    }()
    /// 1583-01-01 and 9999-12-31 as days since 1970-01-01 (Python's `date` arithmetic).
    static let firstDay: Int64 = -141_349
    static let lastDay: Int64 = 2_932_896

    @Test func dayCountsAgreeWithFoundationCalendar() async {
        await propertyCheck(count: 200, input: Gen.int(in: 0...Int(Int32.max))) { seed in
            var rng = SplitMix64(seed: seed)
            var log = FailureLog()
            let cal = Self.utcCalendar
            for _ in 0..<50 {
                let days = rng.int64(Self.firstDay...Self.lastDay)
                let date = LocalDate(daysSinceEpoch: days)
                let c = cal.dateComponents([.year, .month, .day, .weekday], from: Date(timeIntervalSince1970: Double(days) * 86_400))
                // Foundation weekday: 1 = Sunday … 7 = Saturday; ISO: 1 = Monday … 7 = Sunday.
                let isoWeekday = (c.weekday! + 5) % 7 + 1
                log.check(date.year == c.year && date.month == c.month && date.day == c.day,
                          "day \(days): \(date), Foundation \(c.year!)-\(c.month!)-\(c.day!)")
                log.check(date.weekday == isoWeekday, "day \(days): weekday \(date.weekday), Foundation ISO \(isoWeekday)")
                log.check(LocalDate(year: c.year!, month: c.month!, day: c.day!)?.daysSinceEpoch == days,
                          "\(c.year!)-\(c.month!)-\(c.day!) does not count back to \(days)")
                let monthRange = cal.range(of: .day, in: .month, for: Date(timeIntervalSince1970: Double(days) * 86_400))!
                log.check(date.daysInMonth == monthRange.count, "\(date): \(date.daysInMonth) days in month, Foundation \(monthRange.count)")
            }
            #expect(log.isEmpty, "\(log.summary)")
        }
    }

    @Test func addingDaysAndMonthsAgreesWithFoundationCalendar() async {
        await propertyCheck(count: 200, input: Gen.int(in: 0...Int(Int32.max))) { seed in
            var rng = SplitMix64(seed: seed)
            var log = FailureLog()
            let cal = Self.utcCalendar
            for _ in 0..<30 {
                let days = rng.int64((Self.firstDay + 40_000)...(Self.lastDay - 40_000))
                // Month ends are where clamping matters: pick them often.
                var date = LocalDate(daysSinceEpoch: days)
                if rng.chance(0.5) { date = LocalDate(year: date.year, month: date.month, day: date.daysInMonth - rng.int(0...3))! }
                let start = Date(timeIntervalSince1970: Double(date.daysSinceEpoch) * 86_400)
                let n = rng.chance(0.5) ? rng.int(-40...40) : rng.int(-1000...1000)
                let byDays = cal.dateComponents([.year, .month, .day], from: cal.date(byAdding: .day, value: n, to: start)!)
                let d1 = date.adding(days: n)
                log.check(d1.year == byDays.year && d1.month == byDays.month && d1.day == byDays.day,
                          "\(date) + \(n) days = \(d1), Foundation \(byDays)")
                let m1 = date.adding(months: n)
                // Oracle 1: step one month at a time, then clamp to the month length Foundation reports.
                var (y, m) = (date.year, date.month)
                for _ in 0..<abs(n) {
                    m += n > 0 ? 1 : -1
                    if m == 13 { (y, m) = (y + 1, 1) }
                    if m == 0 { (y, m) = (y - 1, 12) }
                }
                let firstOfMonth = cal.date(from: DateComponents(year: y, month: m, day: 1))!
                let length = cal.range(of: .day, in: .month, for: firstOfMonth)!.count
                log.check(m1 == LocalDate(year: y, month: m, day: min(date.day, length)),
                          "\(date) + \(n) months = \(m1), expected \(y)-\(m)-\(min(date.day, length))")
                // Oracle 2: Foundation's own month addition. Forward only: on Linux it sends
                // 2028-04-30 − 26 months to 2026-03-01 instead of clamping to 2026-02-28.
                if n >= 0 {
                    let byMonths = cal.dateComponents([.year, .month, .day], from: cal.date(byAdding: .month, value: n, to: start)!)
                    log.check(m1.year == byMonths.year && m1.month == byMonths.month && m1.day == byMonths.day,
                              "\(date) + \(n) months = \(m1), Foundation \(byMonths)")
                }
            }
            #expect(log.isEmpty, "\(log.summary)")
        }
    }

    /// Over a much wider range than Foundation can check (negative years included): days
    /// count back to themselves and consecutive days step through the calendar correctly.
    @Test func civilArithmeticIsConsistentFarFromToday() async {
        await propertyCheck(count: 200, input: Gen.int(in: 0...Int(Int32.max))) { seed in
            var rng = SplitMix64(seed: seed)
            var log = FailureLog()
            for _ in 0..<50 {
                let days = rng.int64(-400_000_000...400_000_000)
                let a = LocalDate(daysSinceEpoch: days), b = LocalDate(daysSinceEpoch: days + 1)
                log.check(a.daysSinceEpoch == days, "\(days) → \(a) → \(a.daysSinceEpoch)")
                log.check(LocalDate(year: a.year, month: a.month, day: a.day) == a, "\(a) fails validation")
                let stepsWithinMonth = b.year == a.year && b.month == a.month && b.day == a.day + 1
                let stepsToNextMonth = a.day == a.daysInMonth && b.day == 1
                    && (a.month < 12 ? (b.year == a.year && b.month == a.month + 1) : (b.year == a.year + 1 && b.month == 1))
                log.check(stepsWithinMonth || stepsToNextMonth, "\(a) is followed by \(b)")
                log.check(b.weekday == a.weekday % 7 + 1, "\(a) weekday \(a.weekday), \(b) weekday \(b.weekday)")
                log.check(a < b && !(b < a), "\(a) is not before \(b)")
            }
            #expect(log.isEmpty, "\(log.summary)")
        }
    }

    @Test func knownDates() {
        #expect(LocalDate(daysSinceEpoch: 0) == LocalDate(year: 1970, month: 1, day: 1))
        #expect(LocalDate(daysSinceEpoch: 0).weekday == 4)                      // Thursday
        #expect(LocalDate(year: 2000, month: 3, day: 1)!.daysSinceEpoch == 11_017)
        #expect(LocalDate(year: 0, month: 1, day: 1)!.daysSinceEpoch == -719_528)
        #expect(LocalDate(year: 2026, month: 3, day: 29)!.weekday == 7)        // Sunday
        #expect(LocalDate(year: 2026, month: 3, day: 30)!.weekday == 1)        // Monday
        #expect(LocalDate(year: 2024, month: 2, day: 29) != nil)
        #expect(LocalDate(year: 2000, month: 2, day: 29) != nil)
        #expect(LocalDate(year: 0, month: 2, day: 29) != nil)                  // year 0 is leap
        #expect(LocalDate(year: 2026, month: 2, day: 29) == nil)
        #expect(LocalDate(year: 1900, month: 2, day: 29) == nil)
        #expect(LocalDate(year: 2026, month: 13, day: 1) == nil)
        #expect(LocalDate(year: 2026, month: 0, day: 1) == nil)
        #expect(LocalDate(year: 2026, month: 4, day: 31) == nil)
        #expect(LocalDate(year: 2026, month: 4, day: 0) == nil)
        #expect(LocalDate(year: -1, month: 12, day: 31)!.description == "-0001-12-31")
        #expect(LocalDate(year: 2026, month: 3, day: 9)!.description == "2026-03-09")
        let lengths = (1...12).map { LocalDate(year: 2026, month: $0, day: 1)!.daysInMonth }
        #expect(lengths == [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31])
        #expect(LocalDate(year: 2024, month: 2, day: 1)!.daysInMonth == 29)
    }

    @Test(arguments: [
        ((2024, 1, 31), 1, (2024, 2, 29)),
        ((2026, 1, 31), 1, (2026, 2, 28)),
        ((2026, 3, 31), -1, (2026, 2, 28)),
        ((2026, 8, 31), 1, (2026, 9, 30)),
        ((2026, 12, 31), 2, (2027, 2, 28)),
        ((2026, 1, 15), -13, (2024, 12, 15)),
        ((2024, 2, 29), 12, (2025, 2, 28)),
        ((2024, 2, 29), 48, (2028, 2, 29)),
        ((2026, 5, 31), 0, (2026, 5, 31)),
        ((1, 1, 31), -12, (0, 1, 31)),
    ])
    func monthEndClamping(start: (Int, Int, Int), months: Int, expected: (Int, Int, Int)) {
        let d = LocalDate(year: start.0, month: start.1, day: start.2)!.adding(months: months)
        #expect(d == LocalDate(year: expected.0, month: expected.1, day: expected.2))
    }

    @Test func localDateTimeFields() {
        let t = LocalDateTime(year: 2026, month: 3, day: 29, hour: 2, minute: 30, second: 15)!
        #expect(t.weekday == 7)
        #expect(t.minuteOfDay == 150)
        #expect(t.secondOfDay == 9_015)
        #expect(t.date == LocalDate(year: 2026, month: 3, day: 29))
        #expect(t.description == "2026-03-29T02:30:15")
        #expect(LocalDateTime(year: 2026, month: 3, day: 29, hour: 24, minute: 0) == nil)
        #expect(LocalDateTime(year: 2026, month: 3, day: 29, hour: 23, minute: 60) == nil)
        #expect(LocalDateTime(year: 2026, month: 3, day: 29, hour: 23, minute: 59, second: 60) == nil)
        #expect(LocalDateTime(year: 2026, month: 2, day: 29, hour: 0, minute: 0) == nil)
        let earlier = LocalDateTime(year: 2026, month: 3, day: 28, hour: 23, minute: 59, second: 59)!
        #expect(earlier < t && !(t < earlier))
        #expect(LocalDateTime(year: 2026, month: 3, day: 29, hour: 2, minute: 30, second: 16)! > t)
    }
}

@Suite struct CalendarDateTextTests {
    @Test(arguments: [("2024-02-29", 2024, 2, 29), ("1970-01-01", 1970, 1, 1), ("0001-12-31", 1, 12, 31)])
    func readsISODates(_ text: String, _ y: Int, _ m: Int, _ d: Int) throws {
        #expect(try LocalDate.parse(text, path: "birth_date") == LocalDate(year: y, month: m, day: d))
    }

    @Test(arguments: ["2023-02-29", "2024-13-01", "2024-1-01", "2024-01-01T00:00:00Z", " 2024-01-01", "2024/01/01", ""])
    func refusesOthersWithoutEchoingThem(_ text: String) {
        let e = #expect(throws: ScoutError.self) { try LocalDate.parse(text, path: "birth_date") }
        #expect(e?.path == "birth_date")
        #expect(text.isEmpty || e?.message.contains(text) == false)
    }

    // The date in the instant's own written offset, worked by hand.
    @Test(arguments: [("2026-11-21T23:30:00-05:00", 2026, 11, 21), ("2026-11-22T01:00:00+02:00", 2026, 11, 22),
                      ("1969-12-31T23:59:59Z", 1969, 12, 31), ("2026-11-21T00:00:00+14:00", 2026, 11, 21)])
    func anInstantsDateIsTheDateInItsOwnOffset(_ text: String, _ y: Int, _ m: Int, _ d: Int) throws {
        #expect(try Instant.parse(text, path: "now").localDate == LocalDate(year: y, month: m, day: d))
    }
}
