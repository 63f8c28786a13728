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
    /// hours across a DST change): log entries starting in the week count toward their
    /// activity's category; entries of unknown activities are ignored (the worker rejects
    /// them). Goals are the pet's on `start`'s local date.
    public func progress(pet: PetProfile, log: [LogEntry], from start: Instant, to endInstant: Instant,
                         weights: RecommenderWeights? = nil) -> WeeklyProgress {
        let w = weights ?? self.weights
        let needs = PetNeeds(pet: pet, on: start.localDate, weights: w)
        let end = endInstant.seconds
        var done = [Double](repeating: 0, count: ActivityCategory.allCases.count)
        for e in log where e.start.seconds >= start.seconds && e.start.seconds < end {
            guard let a = catalog.activity(id: e.activity) else { continue }
            done[a.category.ordinal] += a.category.countsMinutes ? e.minutes : 1
        }
        return WeeklyProgress(
            start: start, end: endInstant, needs: needs,
            categories: ActivityCategory.allCases.map { CategoryProgress(category: $0, done: done[$0.ordinal], goal: needs.goals[$0.ordinal]) })
    }
}
