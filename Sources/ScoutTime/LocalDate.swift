import Foundation
import ScoutCore
/// A calendar date without a time zone, in the proleptic Gregorian calendar.
///
/// ```swift
/// let d = LocalDate(year: 2024, month: 1, day: 31)!
/// d.adding(months: 1)   // 2024-02-29 (clamped to the end of February)
/// d.weekday             // 3 (Wednesday)
/// ```
///
/// The Gregorian rules are applied to every year, including those before 1582 and year 0
/// (which is a leap year, 1 BC); Foundation's `Calendar(identifier: .gregorian)` switches to
/// the Julian calendar before 1582-10-15, so the two agree only from that day on.
/// Arithmetic is exact on day counts; it traps on overflow only for years beyond about ±10¹⁴.
public struct LocalDate: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The year (astronomical numbering: 0 is 1 BC, −1 is 2 BC).
    public let year: Int
    /// The month, 1 (January) through 12.
    public let month: Int
    /// The day of the month, 1 through ``daysInMonth``.
    public let day: Int

    /// The date `year-month-day`, or `nil` when the month is not 1...12 or the day does not
    /// exist in that month (February 29 exists only in leap years).
    public init?(year: Int, month: Int, day: Int) {
        guard (1...12).contains(month), day >= 1,
              day <= Int(daysIn(month: Int64(month), year: Int64(year))) else { return nil }
        self.year = year
        self.month = month
        self.day = day
    }

    /// The date `daysSinceEpoch` days after 1970-01-01 (negative: before it).
    /// - Complexity: O(1).
    public init(daysSinceEpoch: Int64) {
        let c = civilFromDays(daysSinceEpoch)
        self.year = Int(c.year)
        self.month = Int(c.month)
        self.day = Int(c.day)
    }

    /// Already validated fields.
    @inline(__always)
    init(unchecked year: Int, _ month: Int, _ day: Int) {
        self.year = year
        self.month = month
        self.day = day
    }

    /// Days from 1970-01-01 to this date (negative before it).
    /// - Complexity: O(1).
    public var daysSinceEpoch: Int64 {
        daysFromCivil(year: Int64(year), month: Int64(month), day: Int64(day))
    }

    /// ISO 8601 day of the week: 1 = Monday … 7 = Sunday.
    /// - Complexity: O(1).
    public var weekday: Int { isoWeekday(days: daysSinceEpoch) }

    /// The number of days in this date's month (28...31).
    public var daysInMonth: Int { Int(daysIn(month: Int64(month), year: Int64(year))) }

    /// Whether this date's year is a leap year.
    public var isInLeapYear: Bool { isLeap(Int64(year)) }

    /// The date `days` days later (earlier when negative).
    /// - Complexity: O(1).
    public func adding(days: Int) -> LocalDate {
        LocalDate(daysSinceEpoch: daysSinceEpoch + Int64(days))
    }

    /// The same day of the month `months` months later (earlier when negative), clamped to
    /// the last day of a shorter month: January 31 + 1 month is February 28 (29 in a leap
    /// year), March 31 − 1 month is February 28/29, and August 31 + 1 month is September 30.
    ///
    /// Clamping means the operation is not invertible: `d.adding(months: 1).adding(months: -1)`
    /// can be earlier than `d`. Adding 12 months to February 29 gives February 28.
    /// - Complexity: O(1).
    public func adding(months: Int) -> LocalDate {
        let total = Int64(year) * 12 + Int64(month - 1) + Int64(months)
        let y = floorDiv(total, 12)
        let m = floorMod(total, 12) + 1
        let d = min(Int64(day), daysIn(month: m, year: y))
        return LocalDate(unchecked: Int(y), Int(m), Int(d))
    }

    /// Chronological order.
    public static func < (a: LocalDate, b: LocalDate) -> Bool {
        (a.year, a.month, a.day) < (b.year, b.month, b.day)
    }

    /// `YYYY-MM-DD` (years outside 0...9999 carry a sign and at least four digits).
    public var description: String {
        var s = formatYear(year)
        s += "-"
        appendTwoDigits(month, to: &s)
        s += "-"
        appendTwoDigits(day, to: &s)
        return s
    }
}

/// `year` as four digits, or with a sign and at least four digits outside 0...9999
/// (ISO 8601's expanded representation).
func formatYear(_ year: Int) -> String {
    if (0...9999).contains(year) {
        let digits = String(year)
        return String(repeating: "0", count: 4 - digits.count) + digits
    }
    let digits = String(year.magnitude)
    return (year < 0 ? "-" : "+") + String(repeating: "0", count: max(0, 4 - digits.count)) + digits
}

@inline(__always)
func appendTwoDigits(_ v: Int, to s: inout String) {
    s.unicodeScalars.append(Unicode.Scalar(UInt8(48 + v / 10)))
    s.unicodeScalars.append(Unicode.Scalar(UInt8(48 + v % 10)))
}

extension LocalDate {
    /// Reads an ISO 8601 calendar date `YYYY-MM-DD`; `invalid_request` at `path` otherwise
    /// (the message never repeats the text).
    public static func parse(_ text: String, path: String) throws(ScoutError) -> LocalDate {
        let b = Array(text.utf8)
        func digits(_ r: Range<Int>) -> Int? {
            var v = 0
            for i in r { guard b[i] >= 0x30, b[i] <= 0x39 else { return nil }; v = v * 10 + Int(b[i] - 0x30) }
            return v
        }
        guard b.count == 10, b[4] == 0x2D, b[7] == 0x2D, let y = digits(0..<4), let m = digits(5..<7), let d = digits(8..<10),
              let date = LocalDate(year: y, month: m, day: d) else {
            throw ScoutError(.invalidRequest, "expected a calendar date YYYY-MM-DD that exists", path: path)
        }
        return date
    }

    /// Today's date in UTC, from the system clock.
    public static var today: LocalDate { LocalDate(daysSinceEpoch: floorDiv(Int64(Date().timeIntervalSince1970), 86_400)) }
}
