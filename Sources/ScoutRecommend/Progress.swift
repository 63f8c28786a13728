import ScoutSchedule
import ScoutTime

/// One category of the weekly dashboard.
public struct CategoryProgress: Sendable, Equatable {
    /// The category.
    public let category: ActivityCategory
    /// Minutes (physical, social) or sessions (the rest) done in the week.
    public let done: Double
    /// The weekly goal in the same unit.
    public let goal: Double

    /// `done / goal`, uncapped; `nil` when the goal is 0.
    public var share: Double? { goal > 0 ? done / goal : nil }
    /// What is still missing (0 when met).
    public var missing: Double { max(0, goal - done) }
}

/// The dashboard for a pet and a week: each category against its goal, the share met and
/// the biggest gap.
public struct WeeklyProgress: Sendable {
    /// The week, `[start, end)`, with the local offset.
    public let start: Instant, end: Instant
    /// The pet's needs the goals come from.
    public let needs: PetNeeds
    /// Every category, in ``ActivityCategory/allCases`` order.
    public let categories: [CategoryProgress]
    /// Each care goal of the species, in the file's order; empty for a species without
    /// care goals (``notes`` says so).
    public let careGoals: [CareGoalProgress]
    /// Entries of each care type starting in the week (every care type, 0 when none).
    public let careLog: [CareType: Int]
    /// What the dashboard rests on: for a species without a profile, that generic needs
    /// were used; for a species without care goals, that it has none. Empty otherwise.
    public let notes: [String]

    /// The mean over categories with a goal of `min(1, done / goal)`.
    public var shareMet: Double {
        let shares = categories.compactMap(\.share).map { min(1, $0) }
        return shares.isEmpty ? 1 : shares.reduce(0, +) / Double(shares.count)
    }

    /// The category furthest from its goal, by the share missing (ties: the first in
    /// category order); `nil` when every goal is met.
    public var biggestGap: CategoryProgress? {
        var best: CategoryProgress?
        for c in categories where c.goal > 0 && c.missing > 0 {
            if best == nil || c.missing / c.goal > best!.missing / best!.goal { best = c }
        }
        return best
    }
}

extension Recommender {
    /// The dashboard of a week `[start, end)` (normally seven local days, so 167 or 169
    /// hours across a DST change).
    ///
    /// - Categories: log entries starting in the week count toward their category: an
    ///   activity's own; a care type's from ``RecommenderWeights/careLogCategories`` (a
    ///   walk's minutes are exercise, grooming a care session); entries of activities the
    ///   catalogue does not know are ignored (the worker rejects them). Goals are the pet's on
    ///   `start`'s local date.
    /// - Care goals (``RecommenderWeights/careGoalRules(of:)``): entries of the types a goal
    ///   counts, per local day of the period in `zone` (else at `start`'s offset) for a daily
    ///   goal, over the period for a weekly one; only days that have begun by `now` (every
    ///   day when `now` is `nil`) are judged for what is missing.
    /// - Complexity: O(L + G·(L + D)) for L log entries, G care goals and D days.
    public func progress(pet: PetProfile, log: [LogEntry], from start: Instant, to endInstant: Instant, zone: Zone? = nil,
                         now: Instant? = nil, weights: RecommenderWeights? = nil) -> WeeklyProgress {
        let w = weights ?? self.weights
        let needs = PetNeeds(pet: pet, on: start.localDate(in: zone), weights: w)
        let end = endInstant.seconds
        var done = [Double](repeating: 0, count: ActivityCategory.allCases.count)
        var careLog = Dictionary(uniqueKeysWithValues: CareType.allCases.map { ($0, 0) })
        let inWeek = log.filter { $0.start.seconds >= start.seconds && $0.start.seconds < end }
        for e in inWeek {
            if case .care(let t) = e.type { careLog[t]! += 1 }
            guard let c = e.counted(in: catalog, weights: w)?.category else { continue }
            done[c.ordinal] += c.countsMinutes ? e.minutes : 1
        }

        // Local days of the period.
        func day(_ t: Int64) -> Int64 {
            (zone.map { $0.local(Instant(seconds: t)).date } ?? Instant(seconds: t, utcOffsetSeconds: start.utcOffsetSeconds).localDate)
                .daysSinceEpoch
        }
        let firstDay = day(start.seconds)
        let dayCount = end > start.seconds ? Int(day(end - 1) - firstDay) + 1 : 0
        let judgedDays: Int
        if let now {
            judgedDays = now.seconds < start.seconds ? 0 : min(dayCount, Int(day(now.seconds) - firstDay) + 1)
        } else {
            judgedDays = dayCount
        }
        let weekJudged = now.map { $0.seconds >= start.seconds } ?? true
        let dayOfEntry = inWeek.map { Int(day($0.start.seconds) - firstDay) }
        let longCoat = pet.species == .dog && pet.breed.map { !$0.isMixed && $0.coatLength == "Long" } == true

        var goals: [CareGoalProgress] = []
        let rules = w.careGoalRules(of: pet.species)
        for rule in rules {
            let range = rule.expected(lifeStage: needs.lifeStage, longCoat: longCoat)
            let counted = Set(rule.counts)
            var perDay = [Int](repeating: 0, count: dayCount)
            var total = 0
            for (e, k) in zip(inWeek, dayOfEntry) where counted.contains(e.type) {
                total += 1
                if k >= 0 && k < dayCount { perDay[k] += 1 }
            }
            switch rule.period {
            case .day:
                var missing = 0, extra = 0, met = 0
                let days = perDay.enumerated().map { k, n in
                    let judged = k < judgedDays
                    if judged {
                        missing += max(0, range.atLeast - n)
                        extra += range.atMost.map { max(0, n - $0) } ?? 0
                        if range.contains(n) { met += 1 }
                    }
                    return CareDay(date: LocalDate(daysSinceEpoch: firstDay + Int64(k)), done: n, judged: judged, met: range.contains(n))
                }
                goals.append(CareGoalProgress(rule: rule, expected: range, days: days, done: total, judged: judgedDays, periodsMet: met,
                                              missing: missing, extra: extra))
            case .week:
                goals.append(CareGoalProgress(
                    rule: rule, expected: range, days: [], done: total, judged: weekJudged ? 1 : 0,
                    periodsMet: weekJudged && range.contains(total) ? 1 : 0,
                    missing: weekJudged ? max(0, range.atLeast - total) : 0,
                    extra: weekJudged ? range.atMost.map { max(0, total - $0) } ?? 0 : 0))
            }
        }
        var notes = pet.species.genericNote.map { [$0] } ?? []
        if rules.isEmpty { notes.append("Scout has no care goals for \(pet.species.pluralNoun) yet") }
        return WeeklyProgress(
            start: start, end: endInstant, needs: needs,
            categories: ActivityCategory.allCases.map { CategoryProgress(category: $0, done: done[$0.ordinal], goal: needs.goals[$0.ordinal]) },
            careGoals: goals, careLog: careLog, notes: notes)
    }
}
