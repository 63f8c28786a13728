import ScoutCore

/// A moment in time: whole seconds since 1970-01-01T00:00:00Z (Unix time, no leap
/// seconds), plus the UTC offset it was written with.
///
/// ```swift
/// let t = try Instant.parse("2026-03-29T03:30:00+02:00", path: "at")
/// t.seconds            // 1_774_747_800 (2026-03-29T01:30:00Z)
/// t.utcOffsetSeconds   // 7200
/// t.rfc3339            // "2026-03-29T03:30:00+02:00"
/// ```
///
/// Equality, hashing and order look at ``seconds`` only: `12:00:00Z` and `14:00:00+02:00`
/// are the same instant. The offset only says how ``rfc3339`` writes it back.
public struct Instant: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// Seconds since 1970-01-01T00:00:00Z, negative before it. Fractions are not kept:
    /// a parsed fraction is dropped, which rounds the moment toward −∞.
    public let seconds: Int64
    /// The UTC offset the instant was written with, in seconds east of UTC (0 for `Z`).
    public let utcOffsetSeconds: Int32

    /// The instant `seconds` after the Unix epoch, to be written with `utcOffsetSeconds`
    /// (seconds east of UTC; see ``rfc3339`` for offsets that are not whole minutes).
    public init(seconds: Int64, utcOffsetSeconds: Int32 = 0) {
        self.seconds = seconds
        self.utcOffsetSeconds = utcOffsetSeconds
    }

    /// The same moment, to be written with another offset.
    public func writtenWith(utcOffsetSeconds offset: Int32) -> Instant {
        Instant(seconds: seconds, utcOffsetSeconds: offset)
    }

    /// Same moment (offsets ignored).
    public static func == (a: Instant, b: Instant) -> Bool { a.seconds == b.seconds }
    /// Hashes the moment only, consistently with `==`.
    public func hash(into hasher: inout Hasher) { hasher.combine(seconds) }
    /// Earlier moment first.
    public static func < (a: Instant, b: Instant) -> Bool { a.seconds < b.seconds }

    // MARK: Parsing

    /// Reads a strict RFC 3339 date-time: `YYYY-MM-DDTHH:MM:SS[.fraction](Z|±HH:MM)`.
    ///
    /// - `T` and `Z` may be lowercase; nothing else may differ (no space for `T`, no
    ///   missing offset, no `±HHMM`, no whitespace around the text).
    /// - The date must exist (February 29 only in leap years); hours are 00–23 (`24:00`
    ///   is rejected), minutes 00–59; offsets are at most ±23:59; `-00:00` reads as `Z`.
    /// - A fraction of one or more digits is accepted and dropped: the instant is
    ///   truncated toward −∞ to a whole second (`23:59:59.9Z` is `23:59:59Z`).
    /// - Second 60 is accepted only where RFC 3339 allows a leap second, at 23:59:60 UTC
    ///   (for example `1990-12-31T15:59:60-08:00`), and is clamped to second 59 of that
    ///   minute because Unix time has no leap seconds; any other second 60 is rejected.
    ///   The leap-second table is not consulted.
    ///
    /// Errors are `ScoutError(.invalidRequest, …, path: path)` saying which part was wrong
    /// and at which character; the text itself is never repeated.
    /// - Complexity: O(n) in the length of the text, no allocation on success.
    public static func parse(_ text: String, path: String) throws(ScoutError) -> Instant {
        var copy = text
        let outcome = copy.withUTF8 { parseRFC3339($0) }
        switch outcome {
        case .success(let instant): return instant
        case .failure(let failure): throw ScoutError(.invalidRequest, failure.message, path: path)
        }
    }

    // MARK: Formatting

    /// The instant as RFC 3339 text in its own offset: `YYYY-MM-DDTHH:MM:SSZ` when the
    /// offset is 0, else `…±HH:MM`.
    ///
    /// An offset that is not a whole number of minutes (local mean time in some zones before
    /// about 1920, e.g. Dublin's −00:25:21) is truncated toward zero to whole minutes, and
    /// one beyond ±23:59 is clamped; the wall time is written in that effective offset, so
    /// the text still names exactly this instant. Years outside 0000–9999 (in the written
    /// offset) use ISO 8601's expanded form (`-0001-…`, `+10000-…`), which is not RFC 3339.
    /// - Complexity: O(1).
    public var rfc3339: String {
        let offsetMinutes = max(-1439, min(1439, Int(utcOffsetSeconds) / 60))
        let wall = LocalDateTime(wallSeconds: seconds + Int64(offsetMinutes) * 60)
        return formatDateTime(wall, offsetMinutes: offsetMinutes)
    }

    /// ``rfc3339``.
    public var description: String { rfc3339 }

    /// The calendar date at this instant in its own written offset.
    public var localDate: LocalDate { LocalDateTime(wallSeconds: seconds + Int64(utcOffsetSeconds)).date }
}

// MARK: - RFC 3339 reader

/// Why an RFC 3339 text was refused (positions are 1-based characters).
enum RFC3339Failure: Error {
    case syntax(position: Int, expected: String)
    case month, day, hour, minute, second, offset

    var message: String {
        let form = "an RFC 3339 date-time (YYYY-MM-DDTHH:MM:SS, optional .fraction, then Z or ±HH:MM)"
        switch self {
        case .syntax(let position, let expected):
            return "at character \(position): expected \(expected) in \(form)"
        case .month: return "the month must be 01-12 in \(form)"
        case .day: return "the day does not exist in that month in \(form)"
        case .hour: return "the hour must be 00-23 in \(form)"
        case .minute: return "the minute must be 00-59 in \(form)"
        case .second: return "the second must be 00-59 (60 only for a leap second at 23:59:60 UTC) in \(form)"
        case .offset: return "the UTC offset must be Z or ±HH:MM with HH 00-23 and MM 00-59 in \(form)"
        }
    }
}

/// Parses `YYYY-MM-DDTHH:MM:SS[.frac](Z|±HH:MM)` from UTF-8 bytes.
func parseRFC3339(_ p: UnsafeBufferPointer<UInt8>) -> Result<Instant, RFC3339Failure> {
    let n = p.count
    var i = 0
    // Characters before `i` are ASCII (every byte accepted so far is), so byte i is
    // character i + 1.
    func digits(_ count: Int, _ what: String) -> Result<Int64, RFC3339Failure> {
        var v: Int64 = 0
        for _ in 0..<count {
            guard i < n, p[i] &- 48 < 10 else { return .failure(.syntax(position: i + 1, expected: what)) }
            v = v * 10 + Int64(p[i] &- 48)
            i += 1
        }
        return .success(v)
    }
    func literal(_ a: UInt8, _ b: UInt8, _ what: String) -> RFC3339Failure? {
        guard i < n, p[i] == a || p[i] == b else { return .syntax(position: i + 1, expected: what) }
        i += 1
        return nil
    }
    let year: Int64, month: Int64, day: Int64, hour: Int64, minute: Int64, second: Int64
    switch digits(4, "a four-digit year") { case .success(let v): year = v; case .failure(let f): return .failure(f) }
    if let f = literal(0x2D, 0x2D, "'-'") { return .failure(f) }
    switch digits(2, "a two-digit month") { case .success(let v): month = v; case .failure(let f): return .failure(f) }
    if let f = literal(0x2D, 0x2D, "'-'") { return .failure(f) }
    switch digits(2, "a two-digit day") { case .success(let v): day = v; case .failure(let f): return .failure(f) }
    if let f = literal(0x54, 0x74, "'T'") { return .failure(f) }
    switch digits(2, "a two-digit hour") { case .success(let v): hour = v; case .failure(let f): return .failure(f) }
    if let f = literal(0x3A, 0x3A, "':'") { return .failure(f) }
    switch digits(2, "two-digit minutes") { case .success(let v): minute = v; case .failure(let f): return .failure(f) }
    if let f = literal(0x3A, 0x3A, "':'") { return .failure(f) }
    switch digits(2, "two-digit seconds") { case .success(let v): second = v; case .failure(let f): return .failure(f) }
    if i < n, p[i] == 0x2E {                       // '.' fraction: read and dropped
        i += 1
        let start = i
        while i < n, p[i] &- 48 < 10 { i += 1 }
        if i == start { return .failure(.syntax(position: i + 1, expected: "fraction digits after '.'")) }
    }
    var offset: Int64 = 0
    var offsetHour: Int64 = 0, offsetMinute: Int64 = 0
    guard i < n else { return .failure(.syntax(position: i + 1, expected: "Z or ±HH:MM")) }
    switch p[i] {
    case 0x5A, 0x7A:                                // Z z
        i += 1
    case 0x2B, 0x2D:                                // + -
        let negative = p[i] == 0x2D
        i += 1
        switch digits(2, "a two-digit offset hour") { case .success(let v): offsetHour = v; case .failure(let f): return .failure(f) }
        if let f = literal(0x3A, 0x3A, "':' in the offset") { return .failure(f) }
        switch digits(2, "two-digit offset minutes") { case .success(let v): offsetMinute = v; case .failure(let f): return .failure(f) }
        offset = (offsetHour * 3600 + offsetMinute * 60) * (negative ? -1 : 1)
    default:
        return .failure(.syntax(position: i + 1, expected: "Z or ±HH:MM"))
    }
    guard i == n else { return .failure(.syntax(position: i + 1, expected: "the end of the text")) }

    guard (1...12).contains(month) else { return .failure(.month) }
    guard day >= 1, day <= daysIn(month: month, year: year) else { return .failure(.day) }
    guard hour <= 23 else { return .failure(.hour) }
    guard minute <= 59 else { return .failure(.minute) }
    guard offsetHour <= 23, offsetMinute <= 59 else { return .failure(.offset) }
    let timeOfDay = hour * 3600 + minute * 60
    var s = second
    if second == 60 {
        // A leap second is the 61st second of the last minute of a UTC day.
        guard floorMod(timeOfDay + 59 - offset, secondsPerDay) == secondsPerDay - 1 else { return .failure(.second) }
        s = 59
    } else if second > 60 {
        return .failure(.second)
    }
    let unix = daysFromCivil(year: year, month: month, day: day) * secondsPerDay + timeOfDay + s - offset
    return .success(Instant(seconds: unix, utcOffsetSeconds: Int32(offset)))
}
