/// A wall-clock date and time without a time zone, to the second.
///
/// ```swift
/// let t = LocalDateTime(year: 2026, month: 3, day: 29, hour: 2, minute: 30)!
/// t.weekday        // 7 (Sunday)
/// t.minuteOfDay    // 150
/// ```
///
/// There is no second 60: a leap second in RFC 3339 input is read as second 59
/// (see ``Instant/parse(_:path:)``).
public struct LocalDateTime: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The calendar date.
    public let date: LocalDate
    /// The hour, 0...23.
    public let hour: Int
    /// The minute, 0...59.
    public let minute: Int
    /// The second, 0...59.
    public let second: Int

    /// The wall time `year-month-day hour:minute:second`, or `nil` when the date does not
    /// exist or a time field is out of range (hour 0...23, minute and second 0...59).
    public init?(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int = 0) {
        guard let date = LocalDate(year: year, month: month, day: day) else { return nil }
        self.init(date: date, hour: hour, minute: minute, second: second)
    }

    /// The wall time `hour:minute:second` on `date`, or `nil` when a time field is out of
    /// range (hour 0...23, minute and second 0...59).
    public init?(date: LocalDate, hour: Int, minute: Int, second: Int = 0) {
        guard (0...23).contains(hour), (0...59).contains(minute), (0...59).contains(second) else { return nil }
        self.date = date
        self.hour = hour
        self.minute = minute
        self.second = second
    }

    /// The wall time `wallSeconds` seconds after 1970-01-01T00:00:00 (local, no offset).
    @inline(__always)
    init(wallSeconds: Int64) {
        let days = floorDiv(wallSeconds, secondsPerDay)
        let s = Int(wallSeconds - days * secondsPerDay)
        self.date = LocalDate(daysSinceEpoch: days)
        self.hour = s / 3600
        self.minute = s / 60 % 60
        self.second = s % 60
    }

    /// Seconds from 1970-01-01T00:00:00 to this wall time, counting every day as 86,400 s
    /// (the instant this wall time names at UTC offset 0).
    @inline(__always)
    var wallSeconds: Int64 {
        date.daysSinceEpoch * secondsPerDay + Int64(secondOfDay)
    }

    /// The year of ``date``.
    public var year: Int { date.year }
    /// The month of ``date``, 1...12.
    public var month: Int { date.month }
    /// The day of the month of ``date``.
    public var day: Int { date.day }

    /// ISO 8601 day of the week of ``date``: 1 = Monday … 7 = Sunday.
    /// - Complexity: O(1).
    public var weekday: Int { date.weekday }

    /// Minutes since midnight, 0...1439.
    public var minuteOfDay: Int { hour * 60 + minute }

    /// Seconds since midnight, 0...86_399.
    public var secondOfDay: Int { hour * 3600 + minute * 60 + second }

    /// Chronological order.
    public static func < (a: LocalDateTime, b: LocalDateTime) -> Bool {
        a.date != b.date ? a.date < b.date : a.secondOfDay < b.secondOfDay
    }

    /// `YYYY-MM-DDTHH:MM:SS`.
    public var description: String { formatDateTime(self, offsetMinutes: nil) }
}

/// `YYYY-MM-DDTHH:MM:SS`, followed by `Z` or `±HH:MM` when `offsetMinutes` is given
/// (|offsetMinutes| ≤ 1439).
func formatDateTime(_ t: LocalDateTime, offsetMinutes: Int?) -> String {
    guard (0...9999).contains(t.year) else {
        // Expanded years: rare, so the simple way.
        var s = t.date.description + "T"
        appendTwoDigits(t.hour, to: &s)
        s += ":"
        appendTwoDigits(t.minute, to: &s)
        s += ":"
        appendTwoDigits(t.second, to: &s)
        if let offsetMinutes {
            if offsetMinutes == 0 { s += "Z" } else {
                s += offsetMinutes < 0 ? "-" : "+"
                appendTwoDigits(abs(offsetMinutes) / 60, to: &s)
                s += ":"
                appendTwoDigits(abs(offsetMinutes) % 60, to: &s)
            }
        }
        return s
    }
    let count = offsetMinutes == nil ? 19 : (offsetMinutes == 0 ? 20 : 25)
    return String(unsafeUninitializedCapacity: count) { b in
        func two(_ v: Int, at i: Int) {
            b[i] = UInt8(48 + v / 10)
            b[i + 1] = UInt8(48 + v % 10)
        }
        two(t.year / 100, at: 0)
        two(t.year % 100, at: 2)
        b[4] = 0x2D
        two(t.month, at: 5)
        b[7] = 0x2D
        two(t.day, at: 8)
        b[10] = 0x54
        two(t.hour, at: 11)
        b[13] = 0x3A
        two(t.minute, at: 14)
        b[16] = 0x3A
        two(t.second, at: 17)
        if let offsetMinutes {
            if offsetMinutes == 0 {
                b[19] = 0x5A
            } else {
                b[19] = offsetMinutes < 0 ? 0x2D : 0x2B
                two(abs(offsetMinutes) / 60, at: 20)
                b[22] = 0x3A
                two(abs(offsetMinutes) % 60, at: 23)
            }
        }
        return count
    }
}
