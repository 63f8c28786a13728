import Foundation
import ScoutRecommend
import ScoutTestSupport
import ScoutTime
import Testing

/// The weekly dashboard (`Recommender.progress`), against sums done in the test.
@Suite struct ProgressTests {
    struct Expected {
        var done: [Double]
        var goals: [Double]
        var shareMet: Double
        var biggestGap: Int?
    }

    /// The dashboard by hand: entries starting in `[start, end)` of known activities, minutes
    /// for physical and social, one session otherwise; goals on the start's local date.
    static func expected(_ s: Situation, log: [LogEntry], start: Int64, end: Int64) -> Expected {
        var at = s
        at.now = start
        let goals = NeedsOracle(at).goals
        var done = [Double](repeating: 0, count: 6)
        for e in log where e.start.seconds >= start && e.start.seconds < end {
            guard let category = Fixture.spec.category(of: e.type) else { continue }
            let c = NeedsOracle.categories.firstIndex(of: category)!
            done[c] += c == 0 || c == 2 ? e.minutes : 1
        }
        let shares = zip(done, goals).filter { $0.1 > 0 }.map { min(1, $0.0 / $0.1) }
        var biggest: Int?
        var worst = 0.0
        for c in 0..<6 where goals[c] > 0 && done[c] < goals[c] {
            let missing = (goals[c] - done[c]) / goals[c]
            if biggest == nil || missing > worst { biggest = c; worst = missing }
        }
        return Expected(done: done, goals: goals, shareMet: shares.isEmpty ? 1 : shares.reduce(0, +) / Double(shares.count), biggestGap: biggest)
    }

    static func compare(_ p: WeeklyProgress, _ e: Expected, _ tag: String, _ log: inout FailureLog) {
        log.check(p.categories.map(\.category) == ActivityCategory.allCases, "\(tag): categories \(p.categories.map(\.category))")
        for (i, c) in p.categories.enumerated() {
            log.check(abs(c.done - e.done[i]) < 1e-9, "\(tag): \(c.category) done \(c.done) vs \(e.done[i])")
            log.check(abs(c.goal - e.goals[i]) < 0.051, "\(tag): \(c.category) goal \(c.goal) vs \(e.goals[i])")
        }
        log.check(abs(p.shareMet - e.shareMet) < 0.01, "\(tag): shareMet \(p.shareMet) vs \(e.shareMet)")
        log.check(p.biggestGap?.category.ordinal == e.biggestGap, "\(tag): biggest gap \(String(describing: p.biggestGap?.category)) vs \(String(describing: e.biggestGap))")
    }

    @Test func randomWeeksAgainstSumsByHand() {
        var log = FailureLog(limit: 5)
        for seed in 0..<300 {
            var rng = SplitMix64(seed: 50_000 + seed)
            let c = SafetySweepTests.make(seed: 50_000 + seed)
            var s = c.situation
            s.useZone = true
            // A week of local days from a local midnight near the case's date.
            let place = s.place
            let d = LocalDate(daysSinceEpoch: RuleOracle.floorDiv(s.now + Int64(s.nowOffset), 86_400))
            let start = Clock.instant(place.zone, d.year, d.month, d.day, 0)
            let e7 = d.adding(days: 7)
            let end = Clock.instant(place.zone, e7.year, e7.month, e7.day, 0)
            let ids = Fixture.spec.activities(for: s.species.rawValue).map(\.id) + ["no_such_activity"]
            var entries: [LogEntry] = []
            for _ in 0..<rng.int(0...40) {
                let t: Int64
                switch rng.unit() {
                case ..<0.05: t = start.seconds
                case ..<0.1: t = end.seconds
                case ..<0.15: t = end.seconds - 1
                default: t = start.seconds + Int64(rng.uniform(-3 * 86_400, 10 * 86_400))
                }
                entries.append(LogEntry(activity: rng.pick(ids), start: Instant(seconds: t), minutes: Double(rng.int(1...90))))
            }
            if rng.chance(0.2) {   // a week where every goal is met
                let goals = NeedsOracle(s.with { $0.now = start.seconds }).goals
                for (i, cat) in NeedsOracle.categories.enumerated() {
                    let a = Fixture.spec.activities(for: s.species.rawValue).first { $0.category == cat }!
                    let n = i == 0 || i == 2 ? 1 : Int(goals[i].rounded(.up))
                    for k in 0..<n { entries.append(LogEntry(activity: a.id, start: Instant(seconds: start.seconds + Int64(k) * 600), minutes: goals[i] + 1)) }
                }
            }
            let p = Fixture.recommender.progress(pet: s.pet, log: entries, from: start, to: end)
            Self.compare(p, Self.expected(s, log: entries, start: start.seconds, end: end.seconds), "seed \(50_000 + seed)", &log)
        }
        #expect(log.isEmpty, "\(log.summary)")
    }

    @Test func aWeekAcrossTheSpringChangeHas167Hours() {
        // Dublin: clocks go forward on Sunday 29 March 2026.
        let s = Situation.at(.dublin, 2026, 3, 23, 0, breed: "Border Collie", sky: Sky(temperatureC: 10))
        let start = Clock.instant("Europe/Dublin", 2026, 3, 23, 0), end = Clock.instant("Europe/Dublin", 2026, 3, 30, 0)
        #expect(end.seconds - start.seconds == 167 * 3600)
        let entries = [
            LogEntry(activity: "brisk_walk", start: start, minutes: 30),                               // counts: the first instant
            LogEntry(activity: "brisk_walk", start: Instant(seconds: end.seconds - 1), minutes: 40),   // counts: the last second
            LogEntry(activity: "brisk_walk", start: end, minutes: 50),                                 // next week
            LogEntry(activity: "brisk_walk", start: Instant(seconds: start.seconds - 1), minutes: 60), // last week
            LogEntry(activity: "puzzle_feeder", start: Instant(seconds: start.seconds + 3600), minutes: 15),
            LogEntry(activity: "puzzle_feeder", start: Instant(seconds: start.seconds + 7200), minutes: 15),
            LogEntry(activity: "dog_park_visit", start: Instant(seconds: start.seconds + 86_400), minutes: 25),
            LogEntry(activity: "unknown", start: Instant(seconds: start.seconds + 86_400), minutes: 25),
        ]
        let p = Fixture.recommender.progress(pet: s.pet, log: entries, from: start, to: end)
        #expect(p.categories[0].done == 70)
        #expect(p.categories[1].done == 2)
        #expect(p.categories[2].done == 25)
        #expect(p.categories[3].done == 0)
        // Border Collie: 560 exercise minutes, 14 mental sessions, 120 social minutes, 6 training, 2 care, 3 rest.
        #expect(p.categories.map(\.goal) == [560, 14, 120, 6, 2, 3])
        let shares = [70.0 / 560, 2.0 / 14, 25.0 / 120, 0, 0, 0]
        #expect(abs(p.shareMet - shares.reduce(0, +) / 6) < 1e-12)
        #expect(p.biggestGap?.category == .training)   // the first of the untouched ones
        #expect(p.categories[0].missing == 490)
        var log = FailureLog()
        Self.compare(p, Self.expected(s, log: entries, start: start.seconds, end: end.seconds), "dst", &log)
        #expect(log.isEmpty, "\(log.summary)")
    }

    @Test func aWeekWithEveryGoalMetHasNoGap() {
        let s = Situation.at(.dublin, 2026, 6, 1, 0, species: .cat, breed: nil, sky: Sky(temperatureC: 15))
        let start = Clock.instant("Europe/Dublin", 2026, 6, 1, 0), end = Clock.instant("Europe/Dublin", 2026, 6, 8, 0)
        var entries: [LogEntry] = []
        for (i, a) in ["cat_wand_toy_play", "cat_puzzle_feeder", "cat_meet_visitor", "cat_clicker_training", "cat_brushing", "cat_lap_time"].enumerated() {
            for k in 0..<12 { entries.append(LogEntry(activity: a, start: Instant(seconds: start.seconds + Int64(i * 12 + k) * 3600), minutes: 15)) }
        }
        let p = Fixture.recommender.progress(pet: s.pet, log: entries, from: start, to: end)
        #expect(p.shareMet == 1)
        #expect(p.biggestGap == nil)
        #expect(p.categories.allSatisfy { $0.missing == 0 })
    }
}
