import ScoutCore

/// Weekly opening hours in OpenStreetMap's `opening_hours` syntax, answering "open at …?".
///
/// ```swift
/// let h = try OpeningHours(parsing: "Mo-Fr 06:00-22:00; Sa,Su 08:00-20:00; Su off", path: "opening_hours")
/// h.isOpen(at: LocalDateTime(year: 2026, month: 3, day: 28, hour: 9, minute: 0)!)   // true (Saturday)
/// h.isOpen(at: LocalDateTime(year: 2026, month: 3, day: 29, hour: 9, minute: 0)!)   // false (Sunday)
/// ```
///
/// **Supported** (a subset of the OSM specification, with its meaning):
/// - `24/7`: always open; also as one rule among others (`24/7; Su off`) and after
///   weekdays, meaning all day (`Sa,Su 24/7`).
/// - Rules separated by `;`. A later rule *replaces* the schedule of every day it names,
///   as in OSM: in `Mo-Fr 08:00-18:00; We 10:00-12:00` Wednesday is open 10–12 only.
/// - Weekday selectors `Mo Tu We Th Fr Sa Su`: ranges `Mo-Fr`, ranges that wrap across
///   the week end `Fr-Mo` (Fr, Sa, Su, Mo), lists `Mo,We,Fr` and mixtures `Mo-Fr,Su`.
///   A rule without weekdays applies to every day; a rule with weekdays and no time
///   (`Sa,Su`) means open all day on those days.
/// - Time spans `HH:MM-HH:MM`, several per rule (`06:00-09:00,17:00-21:00`), half-open:
///   `08:00-18:00` is open at 17:59:59 and closed at 18:00. `24:00` ends a day. An end at
///   or before the start (`22:00-02:00`, `18:00-18:00`) or after 24:00 (`22:00-26:00`, up
///   to `48:00`) runs past midnight, and the part after midnight belongs to the next day:
///   it is added to that day's schedule, and a later rule naming the next day replaces it
///   (so in `Fr 22:00-02:00; Sa off` Saturday 01:00 is closed), again as in OSM.
/// - `off` and `closed`, for whole days: `Mo-Sa 08:00-20:00; Su off`, or `off` alone.
/// - Public and school holidays `PH`, `SH` are **accepted and ignored**: Scout has no
///   holiday calendar, so `PH` is dropped from a selector (`Su,PH off` acts as `Su off`)
///   and a rule naming only holidays (`PH off`) has no effect. Answers on a holiday are
///   those of an ordinary day of that weekday; ``ignoresHolidayRules`` reports this.
/// - Weekday names and keywords are matched without regard to case; spaces and tabs
///   between tokens are ignored.
///
/// **Rejected** with a message naming the unsupported feature and its character
/// position: month, week, year and date selectors (`Jan`, `week 1-10`, `2026`,
/// `easter`), nth weekdays (`Mo[1]`), sun-relative times (`sunrise`), open ends (`18:00+`),
/// additional rules after `,` (`Mo 10:00-12:00, We 14:00-16:00`), `off` after a time span,
/// fallback rules (`||`) and comments (`"…"`).
///
/// The schedule is compiled into the sorted minutes of the week at which the state changes,
/// so a query is a binary search over a few dozen 16-bit numbers.
public struct OpeningHours: Sendable, Hashable {
    /// Minutes of the week (0 = Monday 00:00, 10_080 = the next Monday) at which the state
    /// flips, sorted: open on [b[0], b[1]), [b[2], b[3]), … Always an even count.
    let boundaries: [UInt16]

    /// Whether the text named public or school holidays (`PH`, `SH`), which were ignored;
    /// answers on holidays may then be wrong.
    public let ignoresHolidayRules: Bool

    /// Minutes in a week.
    static let minutesPerWeek = 10_080

    /// Reads opening hours in the OSM `opening_hours` syntax (see the type's documentation
    /// for the supported subset).
    ///
    /// Errors are `ScoutError(.invalidRequest, message, path: path)` where the message says
    /// what was expected at which character, e.g. `"at character 12: expected a time span
    /// (HH:MM-HH:MM)"`; the text itself is never repeated.
    /// - Complexity: O(n + r) in the text's length n and number of rules r.
    public init(parsing text: String, path: String) throws(ScoutError) {
        var copy = text
        let parsed: Result<OpeningHoursParser.Output, OpeningHoursParser.Failure> = copy.withUTF8 { bytes in
            var parser = OpeningHoursParser(bytes)
            do throws(OpeningHoursParser.Failure) { return .success(try parser.parse()) } catch { return .failure(error) }
        }
        switch parsed {
        case .success(let output):
            self.boundaries = WeekSchedule(rules: output.rules).boundaries()
            self.ignoresHolidayRules = output.sawHoliday
        case .failure(let failure):
            throw ScoutError(.invalidRequest, "at character \(failure.position): \(failure.expected)", path: path)
        }
    }

    /// Opening hours that are always open (`24/7`).
    public static let alwaysOpen = OpeningHours(boundaries: [0, UInt16(minutesPerWeek)], ignoresHolidayRules: false)

    init(boundaries: [UInt16], ignoresHolidayRules: Bool) {
        self.boundaries = boundaries
        self.ignoresHolidayRules = ignoresHolidayRules
    }

    /// Whether the place is open at every minute of the week (written `24/7`, `Mo-Su
    /// 00:00-24:00` or otherwise).
    public var isAlwaysOpen: Bool {
        boundaries.count == 2 && boundaries[0] == 0 && Int(boundaries[1]) == Self.minutesPerWeek
    }

    /// The open intervals of the week in minutes, 0 = Monday 00:00 through 10_080 = the next
    /// Monday 00:00, sorted and disjoint; an interval running from Sunday into Monday
    /// appears as two pieces, one at each end.
    public var weeklyIntervals: [Range<Int>] {
        stride(from: 0, to: boundaries.count, by: 2).map { Int(boundaries[$0])..<Int(boundaries[$0 + 1]) }
    }

    /// Whether the place is open at the wall time `local` (seconds are ignored: spans start
    /// and end on whole minutes).
    /// - Complexity: O(log k) for k state changes in the week; no allocation.
    public func isOpen(at local: LocalDateTime) -> Bool {
        isOpen(weekday: local.weekday, minuteOfDay: local.minuteOfDay)
    }

    /// Whether the place, whose hours are wall-clock times in `zone`, is open at `instant`.
    ///
    /// During a repeated hour (clocks falling back) both occurrences of a wall time get the
    /// same answer; wall times skipped by a gap are never asked about.
    /// - Complexity: O(log k) plus one offset lookup; no allocation.
    public func isOpen(at instant: Instant, in zone: Zone) -> Bool {
        isOpen(at: zone.local(instant))
    }

    /// Whether the place is open on ISO weekday `weekday` (1 = Monday … 7 = Sunday) at
    /// `minuteOfDay` (0...1439). Values outside those ranges are a programming error.
    /// - Complexity: O(log k); no allocation.
    public func isOpen(weekday: Int, minuteOfDay: Int) -> Bool {
        assert((1...7).contains(weekday) && (0..<1440).contains(minuteOfDay), "weekday 1...7, minute 0..<1440")
        let m = UInt16(truncatingIfNeeded: (weekday - 1) * 1440 + minuteOfDay)
        // Number of boundaries <= m; odd means inside an open interval.
        var lo = 0, hi = boundaries.count
        while lo < hi {
            let mid = (lo + hi) >> 1
            if boundaries[mid] <= m { lo = mid + 1 } else { hi = mid }
        }
        return lo & 1 == 1
    }
}

// MARK: - Rules

/// One `;`-separated rule after parsing.
struct OpeningRule {
    /// Days named, bit 0 = Monday … bit 6 = Sunday.
    var days: UInt8
    /// Open spans in minutes from the named day's midnight: start in 0..<1440, end in
    /// start+1...2880 (past 1440 = the next day). Empty means closed (`off`).
    var spans: [(start: Int, end: Int)]
}

/// A week of minutes being filled in by rules in order (10_080 bits).
struct WeekSchedule {
    private var words = [UInt64](repeating: 0, count: (OpeningHours.minutesPerWeek + 63) / 64)

    init(rules: [OpeningRule]) {
        for rule in rules {
            // A rule replaces the days it names (including what earlier rules spilled into
            // them past midnight), then adds its spans; the part of a span after midnight
            // goes to the next day.
            for d in 0..<7 where rule.days & (1 << d) != 0 { set(d * 1440, (d + 1) * 1440, to: false) }
            for d in 0..<7 where rule.days & (1 << d) != 0 {
                for span in rule.spans {
                    set(d * 1440 + span.start, d * 1440 + min(span.end, 1440), to: true)
                    if span.end > 1440 {
                        let next = (d + 1) % 7 * 1440
                        set(next, next + span.end - 1440, to: true)
                    }
                }
            }
        }
    }

    /// Sets minutes [from, to) of the week.
    private mutating func set(_ from: Int, _ to: Int, to value: Bool) {
        var m = from
        while m < to {
            let w = m >> 6, b = m & 63
            let n = min(64 - b, to - m)
            let mask: UInt64 = (n == 64 ? ~0 : ((1 << UInt64(n)) - 1)) << UInt64(b)
            if value { words[w] |= mask } else { words[w] &= ~mask }
            m += n
        }
    }

    private func bit(_ m: Int) -> Bool { words[m >> 6] >> UInt64(m & 63) & 1 == 1 }

    /// The minutes at which the state flips (with 10_080 closing an interval open at the end).
    func boundaries() -> [UInt16] {
        var out: [UInt16] = []
        var open = false
        var m = 0
        let total = OpeningHours.minutesPerWeek
        while m < total {
            // Skip whole words that keep the current state.
            if m & 63 == 0, m + 64 <= total, words[m >> 6] == (open ? ~0 : 0) { m += 64; continue }
            if bit(m) != open {
                out.append(UInt16(m))
                open.toggle()
            }
            m += 1
        }
        if open { out.append(UInt16(total)) }
        return out
    }
}

// MARK: - Parser

/// A recursive-descent reader of the supported `opening_hours` subset over UTF-8 bytes.
struct OpeningHoursParser {
    struct Output {
        var rules: [OpeningRule]
        var sawHoliday: Bool
    }

    /// What was expected where (1-based character position).
    struct Failure: Error {
        var position: Int
        var expected: String
    }

    private let p: UnsafeBufferPointer<UInt8>
    private var i = 0
    private var sawHoliday = false

    init(_ bytes: UnsafeBufferPointer<UInt8>) { p = bytes }

    static let allDays: UInt8 = 0x7F
    static let wholeDay = [(start: 0, end: 1440)]
    private static let anyRule = "a weekday (Mo, Tu, We, Th, Fr, Sa, Su), a time span (HH:MM-HH:MM), 'off' or '24/7'"

    mutating func parse() throws(Failure) -> Output {
        var rules: [OpeningRule] = []
        skipSpaces()
        if i == p.count { throw fail("expected opening hours such as 'Mo-Fr 08:00-18:00' or '24/7', found nothing") }
        while true {
            if let rule = try parseRule() { rules.append(rule) }
            skipSpaces()
            if i == p.count { break }
            switch p[i] {
            case UInt8(ascii: ";"):
                i += 1
                skipSpaces()
                if i == p.count { return Output(rules: rules, sawHoliday: sawHoliday) }   // trailing ';'
                if p[i] == UInt8(ascii: ";") { throw fail("expected a rule between ';' and ';'") }
            case UInt8(ascii: "|"): throw fail("fallback rules ('||') are not supported")
            case UInt8(ascii: "\""): throw fail("comments in quotes are not supported")
            case UInt8(ascii: ","):
                throw fail("expected ';' between rules (additional rules after ',' are not supported)")
            case UInt8(ascii: "+"): throw fail("open-ended times ('+') are not supported")
            case UInt8(ascii: "["): throw fail("nth-weekday selectors such as Mo[1] are not supported")
            default:
                if isLetter(p[i]), let message = unsupportedWord(word()) { throw fail(message) }
                throw fail("expected ';' or the end of the text")
            }
        }
        return Output(rules: rules, sawHoliday: sawHoliday)
    }

    /// One rule; `nil` when its selector named only holidays (the rule is ignored).
    private mutating func parseRule() throws(Failure) -> OpeningRule? {
        if matches("24/7") {
            i += 4
            return OpeningRule(days: Self.allDays, spans: Self.wholeDay)
        }
        var days = Self.allDays
        var hasSelector = false
        if i < p.count, isLetter(p[i]) {
            let w = word()
            if weekday(w) != nil || isHoliday(w) {
                days = try parseWeekdays()
                hasSelector = true
            } else if !isOff(w) {
                throw fail(unsupportedWord(w) ?? "expected \(Self.anyRule)")
            }
        } else if i < p.count, isDigit(p[i]) {
            var j = i
            while j < p.count, isDigit(p[j]) { j += 1 }
            if j - i >= 3 { throw fail("year selectors are not supported") }
        }
        skipSpaces()
        var spans: [(start: Int, end: Int)]
        if i == p.count || p[i] == UInt8(ascii: ";") {
            guard hasSelector else { throw fail("expected \(Self.anyRule)") }
            spans = Self.wholeDay                       // `Sa,Su` alone: open all day
        } else if matches("24/7") {
            i += 4
            spans = Self.wholeDay
        } else if isDigit(p[i]) {
            spans = try parseSpans()
        } else if isLetter(p[i]) {
            let w = word()
            guard isOff(w) else {
                throw fail(unsupportedWord(w) ?? (hasSelector
                    ? "expected a time span (HH:MM-HH:MM), 'off' or '24/7' after the weekdays"
                    : "expected \(Self.anyRule)"))
            }
            i = w.upperBound
            spans = []
        } else if p[i] == UInt8(ascii: "[") {
            throw fail("nth-weekday selectors such as Mo[1] are not supported")
        } else {
            throw fail(hasSelector ? "expected a time span (HH:MM-HH:MM), 'off' or '24/7' after the weekdays" : "expected \(Self.anyRule)")
        }
        if hasSelector && days == 0 { return nil }    // only PH/SH: ignored
        return OpeningRule(days: days, spans: spans)
    }

    /// `Mo-Fr,Su` → day bits; `PH`/`SH` items are noted and dropped.
    private mutating func parseWeekdays() throws(Failure) -> UInt8 {
        var days: UInt8 = 0
        while true {
            guard i < p.count, isLetter(p[i]) else { throw fail("expected a weekday (Mo, Tu, We, Th, Fr, Sa, Su)") }
            let w = word()
            if let first = weekday(w) {
                i = w.upperBound
                let save = i
                skipSpaces()
                if i < p.count, p[i] == UInt8(ascii: "-") {
                    i += 1
                    skipSpaces()
                    let w2 = word()
                    guard let last = weekday(w2) else { throw fail("expected a weekday (Mo, Tu, We, Th, Fr, Sa, Su) after '-'") }
                    i = w2.upperBound
                    var d = first                         // ranges wrap: Fr-Mo is Fr, Sa, Su, Mo
                    while true {
                        days |= 1 << d
                        if d == last { break }
                        d = (d + 1) % 7
                    }
                } else {
                    i = save
                    days |= 1 << first
                }
            } else if isHoliday(w) {
                sawHoliday = true
                i = w.upperBound
            } else {
                throw fail(unsupportedWord(w) ?? "expected a weekday (Mo, Tu, We, Th, Fr, Sa, Su)")
            }
            if i < p.count, p[i] == UInt8(ascii: "[") { throw fail("nth-weekday selectors such as Mo[1] are not supported") }
            guard continuesList() else { return days }
        }
    }

    /// `HH:MM-HH:MM[,HH:MM-HH:MM…]`.
    private mutating func parseSpans() throws(Failure) -> [(start: Int, end: Int)] {
        var spans: [(start: Int, end: Int)] = []
        while true {
            let startPosition = i
            let start = try parseTime()
            guard start < 1440 else { i = startPosition; throw fail("a time span must start before 24:00") }
            skipSpaces()
            guard i < p.count, p[i] == UInt8(ascii: "-") else {
                if i < p.count, p[i] == UInt8(ascii: "+") { throw fail("open-ended times ('+') are not supported") }
                throw fail("expected '-' and an end time in a time span (HH:MM-HH:MM)")
            }
            i += 1
            skipSpaces()
            if i < p.count, isLetter(p[i]), let message = unsupportedWord(word()) { throw fail(message) }
            let endPosition = i
            var end = try parseTime()
            guard end <= 2880 else { i = endPosition; throw fail("a time span must end by 48:00") }
            if end <= start { end += 1440 }               // runs past midnight
            spans.append((start, end))
            if i < p.count, p[i] == UInt8(ascii: "+") { throw fail("open-ended times ('+') are not supported") }
            guard continuesList() else { return spans }
            guard i < p.count, isDigit(p[i]) else {
                if i < p.count, isLetter(p[i]) {
                    throw fail("expected a time span after ',' (additional rules after ',' are not supported; separate rules with ';')")
                }
                throw fail("expected a time span (HH:MM-HH:MM) after ','")
            }
        }
    }

    /// `H:MM` or `HH:MM` → minutes (hours up to 48, checked by the caller).
    private mutating func parseTime() throws(Failure) -> Int {
        var hour = 0, count = 0
        while i < p.count, isDigit(p[i]), count < 3 {
            hour = hour * 10 + Int(p[i] - 48)
            i += 1
            count += 1
        }
        guard count >= 1 else { throw fail("expected a time (HH:MM)") }
        guard count <= 2 else { i -= 1; throw fail("expected ':' after a two-digit hour (HH:MM)") }
        guard i < p.count, p[i] == UInt8(ascii: ":") else { throw fail("expected ':' in a time (HH:MM)") }
        i += 1
        guard i + 1 < p.count, isDigit(p[i]), isDigit(p[i + 1]) else { throw fail("expected two-digit minutes (HH:MM)") }
        let minute = Int(p[i] - 48) * 10 + Int(p[i + 1] - 48)
        guard minute <= 59 else { throw fail("minutes must be 00-59") }
        i += 2
        if i < p.count, isDigit(p[i]) { throw fail("expected two-digit minutes (HH:MM)") }
        return hour * 60 + minute
    }

    // MARK: Tokens

    private mutating func skipSpaces() {
        while i < p.count, p[i] == 0x20 || p[i] == 0x09 { i += 1 }
    }

    /// Moves past a list's comma and the spaces around it; stays put and returns false when
    /// no comma follows.
    private mutating func continuesList() -> Bool {
        let save = i
        skipSpaces()
        guard i < p.count, p[i] == UInt8(ascii: ",") else { i = save; return false }
        i += 1
        skipSpaces()
        return true
    }

    private func matches(_ literal: StaticString) -> Bool {
        let n = literal.utf8CodeUnitCount
        guard i + n <= p.count else { return false }
        let s = literal.utf8Start
        for k in 0..<n where p[i + k] != s[k] { return false }
        return true
    }

    /// The run of ASCII letters starting at `i` (not consumed).
    private func word() -> Range<Int> {
        var j = i
        while j < p.count, isLetter(p[j]) { j += 1 }
        return i..<j
    }

    /// Whether the word equals `lower` ignoring ASCII case.
    private func word(_ w: Range<Int>, is lower: StaticString) -> Bool {
        guard w.count == lower.utf8CodeUnitCount else { return false }
        let s = lower.utf8Start
        for (k, j) in w.enumerated() where p[j] | 0x20 != s[k] { return false }
        return true
    }

    private static let weekdayNames: [StaticString] = ["mo", "tu", "we", "th", "fr", "sa", "su"]

    /// 0 = Monday … 6 = Sunday for a two-letter weekday.
    private func weekday(_ w: Range<Int>) -> Int? {
        guard w.count == 2 else { return nil }
        for (d, name) in Self.weekdayNames.enumerated() where word(w, is: name) { return d }
        return nil
    }

    private func isHoliday(_ w: Range<Int>) -> Bool { word(w, is: "ph") || word(w, is: "sh") }
    private func isOff(_ w: Range<Int>) -> Bool { word(w, is: "off") || word(w, is: "closed") }

    /// A specific message for a recognisable but unsupported word, else `nil`.
    private func unsupportedWord(_ w: Range<Int>) -> String? {
        let months: [StaticString] = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
        if months.contains(where: { word(w, is: $0) }) { return "month selectors are not supported" }
        if word(w, is: "week") { return "week selectors are not supported" }
        if word(w, is: "easter") { return "date selectors such as easter are not supported" }
        let sun: [StaticString] = ["sunrise", "sunset", "dawn", "dusk"]
        if sun.contains(where: { word(w, is: $0) }) { return "times relative to the sun are not supported" }
        if word(w, is: "off") || word(w, is: "closed") { return "'off' applies to whole days; write it without time spans" }
        if word(w, is: "open") || word(w, is: "unknown") { return "the modifiers 'open' and 'unknown' are not supported" }
        let long: [StaticString] = ["mon", "tue", "wed", "thu", "fri", "sat", "sun", "monday", "tuesday", "wednesday",
                                    "thursday", "friday", "saturday", "sunday"]
        if long.contains(where: { word(w, is: $0) }) { return "expected a two-letter weekday (Mo, Tu, We, Th, Fr, Sa, Su)" }
        return nil
    }

    private func isLetter(_ b: UInt8) -> Bool { (b | 0x20) &- 0x61 < 26 }
    private func isDigit(_ b: UInt8) -> Bool { b &- 0x30 < 10 }

    /// A failure at the current position, counted in Unicode scalars from 1.
    private func fail(_ expected: String) -> Failure {
        var position = 1
        for k in 0..<min(i, p.count) where p[k] & 0xC0 != 0x80 { position += 1 }
        return Failure(position: position, expected: expected)
    }
}
