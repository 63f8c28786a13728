import Foundation
import ScoutCore
import ScoutTime

extension LocalDate {
    /// Reads an ISO 8601 calendar date `YYYY-MM-DD`; `invalid_request` at `path` otherwise.
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
    public static var today: LocalDate { LocalDate(daysSinceEpoch: Int64((Date().timeIntervalSince1970 / 86_400).rounded(.down))) }
}

extension Instant {
    /// The calendar date at this instant in its own written offset.
    public var localDate: LocalDate {
        let local = seconds + Int64(utcOffsetSeconds)
        return LocalDate(daysSinceEpoch: local >= 0 ? local / 86_400 : (local - 86_399) / 86_400)
    }
}
