import Foundation
import PropertyBased
import ScoutCore
import ScoutTestSupport
import Testing
@testable import ScoutTime

@Suite struct OpeningHoursTests {
    static func hours(_ text: String) -> OpeningHours { try! OpeningHours(parsing: text, path: "opening_hours") }

    /// ISO weekday numbers.
    static let mo = 1, tu = 2, we = 3, th = 4, fr = 5, sa = 6, su = 7

    /// Whether `h` is open on `weekday` at "HH:MM".
    static func open(_ h: OpeningHours, _ weekday: Int, _ time: String) -> Bool {
        let parts = time.split(separator: ":").map { Int($0)! }
        return h.isOpen(weekday: weekday, minuteOfDay: parts[0] * 60 + parts[1])
    }

    /// Every `opening_hours` value in the sample data.
    static let sampleForms: [String] = {
        let dir = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../data/sample")
        var forms = Set<String>()
        for name in ["gyms.jsonl", "dogs.jsonl", "shelters.jsonl"] {
            guard let text = try? String(contentsOf: dir.appendingPathComponent(name), encoding: .utf8) else { continue }
            for line in text.split(separator: "\n") {
                guard let data = line.data(using: .utf8),
                      let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
                      let value = object["opening_hours"] as? String else { continue }
                forms.insert(value)
            }
        }
        return forms.sorted()
    }()

    @Test func everySampleFormParses() throws {
        #expect(Self.sampleForms.count >= 20, "sample data not found or changed: \(Self.sampleForms.count) forms")
        for form in Self.sampleForms {
            let h = try OpeningHours(parsing: form, path: "opening_hours")
            #expect(!h.weeklyIntervals.isEmpty, "\(form) is never open")
            #expect(!h.ignoresHolidayRules)
        }
    }

    // Expected answers read off the strings by hand.
    @Test func sampleFormsAnswerAsWritten() {
        var h = Self.hours("Mo-Fr 06:00-09:00,12:00-14:00,17:00-21:00; Sa,Su 09:00-18:00")
        #expect(Self.open(h, Self.mo, "06:00") && Self.open(h, Self.mo, "08:59") && !Self.open(h, Self.mo, "09:00"))
        #expect(!Self.open(h, Self.we, "11:59") && Self.open(h, Self.we, "12:00") && !Self.open(h, Self.we, "14:00"))
        #expect(Self.open(h, Self.fr, "20:59") && !Self.open(h, Self.fr, "21:00") && !Self.open(h, Self.fr, "05:59"))
        #expect(!Self.open(h, Self.sa, "08:59") && Self.open(h, Self.sa, "09:00") && Self.open(h, Self.su, "17:59") && !Self.open(h, Self.su, "18:00"))

        h = Self.hours("24/7")
        #expect(h.isAlwaysOpen && Self.open(h, Self.su, "23:59") && Self.open(h, Self.mo, "00:00"))

        h = Self.hours("Mo-Su 06:00-22:00")
        #expect(!h.isAlwaysOpen && Self.open(h, Self.su, "21:59") && !Self.open(h, Self.su, "22:00") && !Self.open(h, Self.th, "05:59"))

        h = Self.hours("Mo-Fr 06:30-22:00; Sa 08:00-20:00; Su off")
        #expect(!Self.open(h, Self.tu, "06:29") && Self.open(h, Self.tu, "06:30") && Self.open(h, Self.sa, "19:59") && !Self.open(h, Self.sa, "20:00"))
        #expect((0..<1440).allSatisfy { !h.isOpen(weekday: Self.su, minuteOfDay: $0) })

        h = Self.hours("Mo-Th 07:00-21:00; Fr 07:00-20:00; Sa-Su 09:00-17:00")
        #expect(Self.open(h, Self.th, "20:30") && !Self.open(h, Self.fr, "20:30") && Self.open(h, Self.su, "16:59") && !Self.open(h, Self.su, "08:59"))

        h = Self.hours("Mo,We,Fr 07:00-09:00,18:00-21:00; Sa 09:00-12:00; Su off")
        #expect(Self.open(h, Self.we, "07:00") && !Self.open(h, Self.tu, "07:00") && !Self.open(h, Self.th, "19:00") && Self.open(h, Self.fr, "19:00"))

        h = Self.hours("Tu-Su 07:00-21:00; Mo off")
        #expect(!Self.open(h, Self.mo, "12:00") && Self.open(h, Self.su, "12:00") && Self.open(h, Self.tu, "07:00"))

        h = Self.hours("Mo-Fr 06:30-08:00,12:15-13:15,17:30-21:00; Sa,Su 09:00-11:00")
        #expect(Self.open(h, Self.mo, "12:15") && Self.open(h, Self.mo, "13:14") && !Self.open(h, Self.mo, "13:15"))
    }

    @Test func spansPastMidnightBelongToTheNextDay() {
        var h = Self.hours("Fr 22:00-02:00")
        #expect(!Self.open(h, Self.fr, "21:59") && Self.open(h, Self.fr, "22:00") && Self.open(h, Self.fr, "23:59"))
        #expect(Self.open(h, Self.sa, "00:00") && Self.open(h, Self.sa, "01:00") && Self.open(h, Self.sa, "01:59") && !Self.open(h, Self.sa, "02:00"))
        #expect(!Self.open(h, Self.fr, "01:00"))                         // no Thursday night
        let saturday1am = LocalDateTime(year: 2026, month: 3, day: 28, hour: 1, minute: 0)!
        #expect(saturday1am.weekday == Self.sa && h.isOpen(at: saturday1am))

        h = Self.hours("Su 22:00-02:00")                                  // wraps into Monday
        #expect(Self.open(h, Self.mo, "01:30") && !Self.open(h, Self.mo, "02:00") && Self.open(h, Self.su, "23:00"))

        h = Self.hours("Mo 22:00-26:00")                                  // the same, written past 24:00
        #expect(Self.open(h, Self.tu, "01:59") && !Self.open(h, Self.tu, "02:00"))

        h = Self.hours("Mo 18:00-24:00")
        #expect(Self.open(h, Self.mo, "23:59") && !Self.open(h, Self.tu, "00:00"))

        h = Self.hours("We 18:00-18:00")                                  // a full 24 hours
        #expect(Self.open(h, Self.we, "18:00") && Self.open(h, Self.th, "17:59") && !Self.open(h, Self.th, "18:00") && !Self.open(h, Self.we, "17:59"))

        // A later rule naming the next day replaces what spilled into it (OSM semantics):
        // Saturday's 06:00-01:00 does not reach into Sunday, which has its own rule.
        h = Self.hours("Mo-Th 06:00-23:00; Fr,Sa 06:00-01:00; Su 08:00-22:00")
        #expect(Self.open(h, Self.sa, "00:30") && !Self.open(h, Self.su, "00:30") && !Self.open(h, Self.fr, "00:30"))
        h = Self.hours("Fr 22:00-02:00; Sa off")
        #expect(!Self.open(h, Self.sa, "01:00") && Self.open(h, Self.fr, "23:00"))
        // An earlier rule for the next day keeps its hours and gains the spill.
        h = Self.hours("Sa 10:00-12:00; Fr 22:00-02:00")
        #expect(Self.open(h, Self.sa, "01:00") && Self.open(h, Self.sa, "11:00") && !Self.open(h, Self.sa, "09:00"))
        // Overriding the day itself does not take back what it already spilled.
        h = Self.hours("Fr 22:00-02:00; Fr 10:00-12:00")
        #expect(Self.open(h, Self.sa, "01:00") && !Self.open(h, Self.fr, "23:00") && Self.open(h, Self.fr, "11:00"))
    }

    @Test func laterRulesReplaceTheDaysTheyName() {
        var h = Self.hours("Mo-Fr 08:00-18:00; We 10:00-12:00")
        #expect(Self.open(h, Self.tu, "09:00") && !Self.open(h, Self.we, "09:00") && Self.open(h, Self.we, "11:00") && !Self.open(h, Self.we, "13:00"))
        h = Self.hours("10:00-18:00")
        #expect((1...7).allSatisfy { Self.open(h, $0, "10:00") && !Self.open(h, $0, "18:00") })
        h = Self.hours("10:00-18:00; Su closed")
        #expect(Self.open(h, Self.sa, "12:00") && !Self.open(h, Self.su, "12:00"))
        h = Self.hours("24/7; Su off")
        #expect(!h.isAlwaysOpen && Self.open(h, Self.sa, "23:59") && !Self.open(h, Self.su, "12:00") && Self.open(h, Self.mo, "00:00"))
        h = Self.hours("Mo-Sa 08:00-20:00; Su off")
        #expect(!Self.open(h, Self.su, "12:00") && Self.open(h, Self.sa, "12:00"))
        h = Self.hours("Sa,Su; Mo-Fr 09:00-17:00")                       // weekdays without a time: all day
        #expect(Self.open(h, Self.sa, "00:00") && Self.open(h, Self.su, "23:59") && !Self.open(h, Self.mo, "08:59"))
        h = Self.hours("off")
        #expect(h.weeklyIntervals.isEmpty)
        #expect(Self.hours("Mo-Su 00:00-24:00").isAlwaysOpen)
        #expect(Self.hours("Mo-Sa 00:00-24:00; Su 00:00-24:00").isAlwaysOpen)
        #expect(!Self.hours("Mo-Sa 00:00-24:00").isAlwaysOpen)
        #expect(OpeningHours.alwaysOpen == Self.hours("24/7"))
    }

    @Test func weekdaySelectors() {
        var h = Self.hours("Fr-Mo 10:00-12:00")                          // wraps over the weekend
        #expect([Self.fr, Self.sa, Self.su, Self.mo].allSatisfy { Self.open(h, $0, "11:00") })
        #expect(![Self.tu, Self.we, Self.th].contains { Self.open(h, $0, "11:00") })
        h = Self.hours("Su-Mo 10:00-12:00")
        #expect(Self.open(h, Self.su, "11:00") && Self.open(h, Self.mo, "11:00") && !Self.open(h, Self.sa, "11:00"))
        h = Self.hours("Mo-Fr,Su 10:00-12:00")
        #expect(Self.open(h, Self.su, "11:00") && Self.open(h, Self.we, "11:00") && !Self.open(h, Self.sa, "11:00"))
        h = Self.hours("Mo,We,Fr 10:00-12:00")
        #expect(Self.open(h, Self.we, "11:00") && !Self.open(h, Self.tu, "11:00"))
        h = Self.hours("We-We 10:00-12:00")
        #expect(Self.open(h, Self.we, "11:00") && !Self.open(h, Self.th, "11:00"))
        // Case and spacing are forgiven.
        #expect(Self.hours("mo-fr 08:00-18:00 ; SA,su OFF") == Self.hours("Mo-Fr 08:00-18:00; Sa,Su off"))
        #expect(Self.hours(" Mo - Fr  08:00 - 12:00 , 13:00-17:00 ;") == Self.hours("Mo-Fr 08:00-12:00,13:00-17:00"))
        #expect(Self.hours("Mo-Fr 8:00-18:00") == Self.hours("Mo-Fr 08:00-18:00"))
    }

    @Test func holidaysAreIgnoredAndReported() {
        let plain = Self.hours("Mo-Fr 08:00-18:00; Su off")
        let withPH = Self.hours("Mo-Fr 08:00-18:00; Su,PH off")
        #expect(withPH.weeklyIntervals == plain.weeklyIntervals)
        #expect(withPH.ignoresHolidayRules && !plain.ignoresHolidayRules)
        let onlyPH = Self.hours("Mo-Fr 08:00-18:00; PH off")
        #expect(onlyPH.weeklyIntervals == Self.hours("Mo-Fr 08:00-18:00").weeklyIntervals)
        #expect(Self.hours("PH,Sa 10:00-12:00; SH off").weeklyIntervals == Self.hours("Sa 10:00-12:00").weeklyIntervals)
    }

    @Test func openAtAnInstantInAZone() throws {
        let h = Self.hours("Mo-Fr 08:00-18:00")
        let warsaw = try Zone(identifier: "Europe/Warsaw", path: "tz")
        let dublin = try Zone(identifier: "Europe/Dublin", path: "tz")
        // Monday 2026-03-30, summer time: Warsaw +02:00, Dublin +01:00.
        let t = try Instant.parse("2026-03-30T06:30:00Z", path: "t")
        #expect(h.isOpen(at: t, in: warsaw))                              // 08:30
        #expect(!h.isOpen(at: t, in: dublin))                             // 07:30
        #expect(h.isOpen(at: try Instant.parse("2026-03-30T07:00:00Z", path: "t"), in: dublin))
        #expect(!h.isOpen(at: try Instant.parse("2026-03-30T16:00:00Z", path: "t"), in: warsaw))   // 18:00
        #expect(!h.isOpen(at: try Instant.parse("2026-03-29T10:00:00Z", path: "t"), in: .utc))    // Sunday
    }

    @Test(arguments: [
        ("", 1, "found nothing"),
        ("   ", 4, "found nothing"),
        ("Mo-Fr 08:00", 12, "expected '-' and an end time"),
        ("Mo-Fr 08:00-18:0", 16, "expected two-digit minutes"),
        ("Mo-Fx 08:00-18:00", 4, "expected a weekday"),
        ("Monday 08:00-18:00", 1, "two-letter weekday"),
        ("Jan-Mar Mo 10:00-12:00", 1, "month selectors are not supported"),
        ("Mo 10:00-12:00, We 14:00-16:00", 17, "additional rules after ','"),
        ("Mo 25:00-26:00", 4, "must start before 24:00"),
        ("Mo 24:00-26:00", 4, "must start before 24:00"),
        ("Mo 10:00-49:00", 10, "must end by 48:00"),
        ("Mo 10:60-12:00", 7, "minutes must be 00-59"),
        ("Mo 100:00-12:00", 6, "expected ':' after a two-digit hour"),
        ("Mo-Fr 08:00-18:00 Sa 09:00-12:00", 19, "expected ';' or the end"),
        ("Mo-Fr 08:00-18:00;; Sa off", 19, "expected a rule between"),
        ("sunrise-sunset", 1, "relative to the sun"),
        ("Mo 10:00-sunset", 10, "relative to the sun"),
        ("Mo 18:00+", 9, "open-ended"),
        ("Mo[1] 10:00-12:00", 3, "nth-weekday"),
        ("Mo 10:00-12:00 || Tu", 16, "fallback rules"),
        ("Mo 10:00-12:00 \"by appointment\"", 16, "comments"),
        ("week 1-10 Mo 10:00-12:00", 1, "week selectors"),
        ("2026 Mo 10:00-12:00", 1, "year selectors"),
        ("easter off", 1, "easter"),
        ("Mo 10:00-12:00 off", 16, "'off' applies to whole days"),
        ("Mo 10:00-12:00 open", 16, "'open'"),
        ("Mo-Fr 08:00-18:00; Sa 08:00-", 29, "expected a time"),
        ("Mo-", 4, "expected a weekday"),
        ("Mo,", 4, "expected a weekday"),
        ("Mo 10:00-12:00,", 16, "expected a time span"),
        ("Mo–Fr 08:00-18:00", 3, "after the weekdays"),                 // en dash: a character, not a byte
        ("Mo 10:00-12:00; é", 17, "expected"),
        ("24/8", 3, "expected ':' in a time"),
        ("10:00-12:00 Mo", 13, "expected ';' or the end"),
    ])
    func parseErrorsSayWhatWasExpectedWhere(text: String, position: Int, fragment: String) {
        #expect {
            _ = try OpeningHours(parsing: text, path: "records[3].opening_hours")
        } throws: { error in
            guard let e = error as? ScoutError else { return false }
            let ok = e.code == .invalidRequest && e.path == "records[3].opening_hours"
                && e.message.hasPrefix("at character \(position): ") && e.message.contains(fragment)
                && (text.count < 5 || !e.message.contains(text))
            if !ok { Issue.record("\(text): \(e.message)") }
            return ok
        }
    }

    // MARK: - Property test against a brute-force oracle

    /// A generated rule: its selector items, and what it says.
    struct GenRule {
        enum Item { case day(Int), range(Int, Int), holiday(String) }
        enum Body { case spans([(start: Int, end: Int)]), off(String), allDay, bare }
        var items: [Item]?          // nil: no selector (every day)
        var body: Body
    }

    static let dayNames = ["Mo", "Tu", "We", "Th", "Fr", "Sa", "Su"]

    static func randomRule(_ rng: inout SplitMix64) -> GenRule {
        var items: [GenRule.Item]? = nil
        if rng.chance(0.8) {
            items = (0..<rng.int(1...3)).map { _ in
                switch rng.int(0...9) {
                case 0...4: return .day(rng.int(0...6))
                case 5...8: return .range(rng.int(0...6), rng.int(0...6))
                default: return .holiday(rng.pick(["PH", "SH"]))
                }
            }
        }
        let body: GenRule.Body
        switch rng.int(0...9) {
        case 0: body = .off(rng.pick(["off", "closed"]))
        case 1: body = items == nil ? .allDay : rng.pick([.allDay, .bare])
        default:
            body = .spans((0..<rng.int(1...3)).map { _ in
                let step = rng.pick([1, 15, 30, 60])
                let start = rng.int(0...(1439 / step)) * step
                let end: Int
                switch rng.int(0...9) {
                case 0: end = 1440                                     // 24:00
                case 1: end = start                                    // a full day
                case 2: end = 1440 + rng.int(0...(1440 / step)) * step // past 24:00, up to 48:00
                default: end = rng.int(0...(1440 / step)) * step       // may wrap past midnight
                }
                return (start, end)
            })
        }
        return GenRule(items: items, body: body)
    }

    static func render(_ rules: [GenRule], _ rng: inout SplitMix64) -> String {
        func time(_ m: Int) -> String { String(format: "%02d:%02d", m / 60, m % 60) }
        let parts = rules.map { rule -> String in
            var selector = ""
            if let items = rule.items {
                selector = items.map { item -> String in
                    switch item {
                    case .day(let d): return dayNames[d]
                    case .range(let a, let b): return dayNames[a] + "-" + dayNames[b]
                    case .holiday(let name): return name
                    }
                }.joined(separator: ",")
            }
            let body: String
            switch rule.body {
            case .spans(let spans): body = spans.map { time($0.start) + "-" + time($0.end) }.joined(separator: ",")
            case .off(let word): body = word
            case .allDay: body = "24/7"
            case .bare: body = ""
            }
            return [selector, body].filter { !$0.isEmpty }.joined(separator: " ")
        }
        return parts.joined(separator: rng.chance(0.5) ? "; " : ";")
    }

    /// The days a rule names (0 = Monday), or `nil` when it names only holidays and is ignored.
    static func namedDays(_ rule: GenRule) -> Set<Int>? {
        guard let items = rule.items else { return Set(0...6) }
        var days = Set<Int>()
        for item in items {
            switch item {
            case .day(let d): days.insert(d)
            case .range(let a, let b):
                var d = a
                days.insert(d)
                while d != b { d = (d + 1) % 7; days.insert(d) }
            case .holiday: break
            }
        }
        return days.isEmpty ? nil : days
    }

    /// A rule as the oracle reads it: the days it names and its spans in minutes from the
    /// named day's midnight, with ends at or before the start moved to the next day.
    struct OracleRule {
        var days: Set<Int>
        var spans: [(start: Int, end: Int)]

        /// `nil` when the rule names only holidays and is ignored.
        init?(_ rule: GenRule) {
            guard let days = OpeningHoursTests.namedDays(rule) else { return nil }
            self.days = days
            switch rule.body {
            case .spans(let s): spans = s.map { ($0.start, $0.end <= $0.start ? $0.end + 1440 : $0.end) }
            case .off: spans = []
            case .allDay, .bare: spans = [(0, 1440)]
            }
        }
    }

    /// Brute force: the state at minute `m` of day `day` (0 = Monday), rule by rule.
    /// A rule naming `day` replaces the state with its own hours on that day; a rule naming
    /// the day before adds what runs past that day's midnight.
    static func oracleOpen(_ rules: [OracleRule], day: Int, minute m: Int) -> Bool {
        var open = false
        for rule in rules {
            if rule.days.contains(day) {
                open = rule.spans.contains { $0.start <= m && m < min($0.end, 1440) }
            }
            if rule.days.contains((day + 6) % 7) && rule.spans.contains(where: { m < $0.end - 1440 }) {
                open = true
            }
        }
        return open
    }

    @Test func randomRulesAgreeWithBruteForce() async {
        await propertyCheck(count: 150, input: Gen.int(in: 0...Int(Int32.max))) { seed in
            var rng = SplitMix64(seed: seed)
            var log = FailureLog()
            let rules = (0..<rng.int(1...5)).map { _ in Self.randomRule(&rng) }
            let text = Self.render(rules, &rng)
            guard let h = try? OpeningHours(parsing: text, path: "h") else {
                #expect(Bool(false), "\(text) does not parse")
                return
            }
            let oracle = rules.compactMap(OracleRule.init)
            var openMinutes = 0
            for day in 0..<7 {
                for m in 0..<1440 {
                    let expected = Self.oracleOpen(oracle, day: day, minute: m)
                    if expected { openMinutes += 1 }
                    log.check(h.isOpen(weekday: day + 1, minuteOfDay: m) == expected,
                              "\(text): \(Self.dayNames[day]) \(m / 60):\(m % 60) expected \(expected ? "open" : "closed")")
                }
            }
            // The same answers through dates: a random week, random seconds.
            let monday = LocalDate(year: 2026, month: 3, day: 30)!.adding(days: 7 * rng.int(-5_000...5_000))
            for _ in 0..<200 {
                let day = rng.int(0...6), m = rng.int(0...1439)
                let local = LocalDateTime(date: monday.adding(days: day), hour: m / 60, minute: m % 60, second: rng.int(0...59))!
                log.check(h.isOpen(at: local) == Self.oracleOpen(oracle, day: day, minute: m), "\(text): at \(local)")
            }
            log.check(h.isAlwaysOpen == (openMinutes == 10_080), "\(text): isAlwaysOpen \(h.isAlwaysOpen), open minutes \(openMinutes)")
            log.check(h.weeklyIntervals.reduce(0) { $0 + $1.count } == openMinutes, "\(text): intervals \(h.weeklyIntervals)")
            let sawHoliday = rules.contains { $0.items?.contains { if case .holiday = $0 { true } else { false } } ?? false }
            log.check(h.ignoresHolidayRules == sawHoliday, "\(text): ignoresHolidayRules \(h.ignoresHolidayRules)")
            #expect(log.isEmpty, "\(log.summary)")
        }
    }
}
