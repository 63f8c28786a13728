import ScoutCatalog
import ScoutCore
import ScoutSchedule
import ScoutSolar
import ScoutTime

/// A request for "this or that": the pet, the moment and place, its log and feedback.
public struct ActivityRequest: Sendable {
    /// Thompson sampling (`explore`) or posterior means (`best`).
    public enum Mode: String, Sendable, CaseIterable {
        /// Samples each activity's enjoyment: tries new things now and then.
        case explore
        /// Uses each activity's mean enjoyment.
        case best
    }

    /// The pet.
    public var pet: PetProfile
    /// The moment, place, weather, calendar and waking hours.
    public var context: RecommendationContext
    /// The activity log (entries of the last 7 days count toward this week's goals).
    public var log: [LogEntry]
    /// Enjoyment feedback.
    public var feedback: [Feedback]
    /// How many activities to offer (default 2; 0 offers nothing and searches no window).
    public var count: Int
    /// Explore or best.
    public var mode: Mode
    /// The seed of Thompson sampling; `nil` derives one from `now` (to the minute) and the pet's name.
    public var seed: UInt64?
    /// Weights for this request (the recommender's own when `nil`).
    public var weights: RecommenderWeights?

    /// Creates a request.
    public init(pet: PetProfile, context: RecommendationContext, log: [LogEntry] = [], feedback: [Feedback] = [], count: Int = 2,
                mode: Mode = .explore, seed: UInt64? = nil, weights: RecommenderWeights? = nil) {
        self.pet = pet
        self.context = context
        self.log = log
        self.feedback = feedback
        self.count = count
        self.mode = mode
        self.seed = seed
        self.weights = weights
    }

    /// The seed actually used.
    public var effectiveSeed: UInt64 {
        seed ?? (UInt64(bitPattern: context.now.seconds / 60) ^ SeededRandom.hash(pet.name ?? pet.species.rawValue))
    }
}

/// An activity offered, with its score, the breakdown and reasons in plain words.
public struct ActivityRecommendation: Sendable {
    /// The activity.
    public let activity: Activity
    /// Inside or outside.
    public let mode: ActivityMode
    /// The score and its terms.
    public let breakdown: ScoreBreakdown
    /// Plain-language reasons, most telling first.
    public let reasons: [String]
}

/// An activity ruled out now, with every reason.
public struct ExcludedActivity: Sendable {
    /// The activity.
    public let activity: Activity
    /// Why.
    public let reasons: [Exclusion]
}

/// The next time in the coming 24 hours when something fits, with what fits then.
public struct NextWindow: Sendable {
    /// When (quarter-hour steps, local offset).
    public let at: Instant
    /// The recommendations at that time.
    public let recommendations: [ActivityRecommendation]
}

/// The answer to an ``ActivityRequest``.
public struct ActivityRecommendations: Sendable {
    /// The weights file's version.
    public let weightsVersion: String
    /// The activity catalogue's version.
    public let catalogueVersion: String
    /// The mode and seed used.
    public let mode: ActivityRequest.Mode
    /// The seed used (also in `best` mode, where it changes nothing).
    public let seed: UInt64
    /// The pet's needs on the day.
    public let needs: PetNeeds
    /// Light now.
    public let daylight: Daylight
    /// Whether the pet is away from home.
    public let away: Bool
    /// Share of each category's weekly goal still open (0–1), by ordinal.
    public let gaps: [Double]
    /// The offers, best first, from different categories where possible.
    public let recommendations: [ActivityRecommendation]
    /// Every activity of the species ruled out now.
    public let excluded: [ExcludedActivity]
    /// When nothing fits now: the next window in 24 hours, if any.
    public let nextWindow: NextWindow?
    /// What the answer rests on beyond the reasons: for a species without a profile, that
    /// generic needs were used and, when the catalogue lists no activity for such species,
    /// that none could be offered. Empty for the known species.
    public let notes: [String]
}

extension Recommender {
    /// Notes about the pet's profile (``ActivityRecommendations/notes``).
    func notes(for species: Species) -> [String] {
        guard let generic = species.genericNote else { return [] }
        return catalog.indices(for: species).isEmpty
            ? [generic, "the activity catalogue has no activities for \(species.pluralNoun) yet"]
            : [generic, "only activities written for any kind of pet are offered"]
    }
}

/// The recommender: activity catalogue, weights and breed table, loaded once and shared by
/// every request (a `Sendable` class; requests keep no state).
///
/// ```swift
/// let r = try Recommender.load(dataDirectory: "data", breeds: catalog.breeds)
/// let answer = r.recommendActivities(ActivityRequest(pet: rex, context: context))
/// ```
public final class Recommender: Sendable {
    /// The activities.
    public let catalog: ActivityCatalog
    /// The default weights.
    public let weights: RecommenderWeights
    /// The breed table pets' breeds are looked up in.
    public let breeds: BreedTable
    /// The types a log entry or reminder may name: the care types and the catalogue's activities.
    public let logTypes: LogTypeVocabulary

    /// Creates a recommender (``RecommenderWeights/checkCareGoals(against:)`` checks that
    /// the weights' care goals name activities of the catalogue; ``load(dataDirectory:breeds:)`` does).
    public init(catalog: ActivityCatalog, weights: RecommenderWeights, breeds: BreedTable) {
        self.catalog = catalog
        self.weights = weights
        self.breeds = breeds
        logTypes = catalog.logTypes
    }

    /// The longest look-ahead for ``NextWindow``, seconds.
    public static let windowHorizon: Int64 = 24 * 3600
    /// The step of the look-ahead, seconds.
    public static let windowStep: Int64 = 15 * 60

    /// Recommends `count` activities for the pet now, with reasons; lists what is ruled out
    /// and, when nothing fits, the next window.
    /// - Complexity: O(A + L + F) for A activities, L log entries and F feedback, plus
    ///   O(96·A) for the next-window search when nothing fits now.
    public func recommendActivities(_ request: ActivityRequest) -> ActivityRecommendations {
        let w = request.weights ?? weights
        let ctx = request.context
        let needs = PetNeeds(pet: request.pet, on: ctx.localDate, weights: w)
        var rules = RuleBook(pet: request.pet, needs: needs, context: ctx, weights: w)
        let state = PetState(request: request, needs: needs, catalog: catalog, weights: w)
        let indices = catalog.indices(for: request.pet.species)

        var excluded: [ExcludedActivity] = []
        var reasons: [Exclusion] = []
        var eligible: [(index: Int, mode: ActivityMode)] = []
        for i in indices {
            reasons.removeAll(keepingCapacity: true)
            if let mode = rules.check(catalog.activities[i], start: ctx.now.seconds, explain: true, into: &reasons) {
                eligible.append((i, mode))
            } else {
                excluded.append(ExcludedActivity(activity: catalog.activities[i], reasons: reasons))
            }
        }
        let count = max(0, request.count)
        let picked = pick(eligible, at: ctx.now.seconds, count: count, state: state, rules: &rules, weights: w)
        var window: NextWindow?
        if picked.isEmpty && count > 0 && !indices.isEmpty {
            var t = (ctx.now.seconds / Recommender.windowStep + 1) * Recommender.windowStep
            let end = ctx.now.seconds + Recommender.windowHorizon
            search: while t <= end {
                var found: [(index: Int, mode: ActivityMode)] = []
                for i in indices {
                    if let mode = rules.check(catalog.activities[i], start: t, explain: false, into: &reasons) { found.append((i, mode)) }
                }
                if !found.isEmpty {
                    window = NextWindow(at: ctx.local(t), recommendations: pick(found, at: t, count: count, state: state, rules: &rules, weights: w))
                    break search
                }
                t += Recommender.windowStep
            }
        }
        return ActivityRecommendations(
            weightsVersion: w.version, catalogueVersion: catalog.version, mode: request.mode, seed: request.effectiveSeed,
            needs: needs, daylight: rules.daylight(ctx.now.seconds), away: rules.away, gaps: state.gaps,
            recommendations: picked, excluded: excluded, nextWindow: window, notes: notes(for: request.pet.species))
    }

    /// Batch scoring, for ranking jobs: the score of every activity at `now`, by catalogue
    /// position, with `-infinity` for activities ruled out or of another species. The same
    /// rules and terms as ``recommendActivities(_:)``, without texts, picking or next window.
    /// - Complexity: O(A + L + F); no allocation per activity.
    public func scores(_ request: ActivityRequest, into out: inout [Double]) {
        let w = request.weights ?? weights
        let ctx = request.context
        let needs = PetNeeds(pet: request.pet, on: ctx.localDate, weights: w)
        var rules = RuleBook(pet: request.pet, needs: needs, context: ctx, weights: w)
        let state = PetState(request: request, needs: needs, catalog: catalog, weights: w)
        out.removeAll(keepingCapacity: true)
        out.append(contentsOf: repeatElement(-Double.infinity, count: catalog.activities.count))
        var none: [Exclusion] = []
        for i in catalog.indices(for: request.pet.species) {
            if let mode = rules.check(catalog.activities[i], start: ctx.now.seconds, explain: false, into: &none) {
                out[i] = state.score(i, mode: mode, at: ctx.now.seconds, rules: &rules, weights: w)
            }
        }
    }

    /// Scores the eligible activities, picks `count` from different categories where possible
    /// (best first, ties by id), and writes reasons for the picked ones only.
    private func pick(_ eligible: [(index: Int, mode: ActivityMode)], at t: Int64, count: Int, state: PetState,
                      rules: inout RuleBook, weights w: RecommenderWeights) -> [ActivityRecommendation] {
        var scored: [(index: Int, mode: ActivityMode, score: Double)] = []
        scored.reserveCapacity(eligible.count)
        for e in eligible {
            scored.append((e.index, e.mode, state.score(e.index, mode: e.mode, at: t, rules: &rules, weights: w)))
        }
        scored.sort { $0.score != $1.score ? $0.score > $1.score : catalog.activities[$0.index].id < catalog.activities[$1.index].id }
        var chosen: [(index: Int, mode: ActivityMode)] = []
        var used = Set<ActivityCategory>()
        var taken = Set<Int>()
        while chosen.count < count && chosen.count < scored.count {
            let next = scored.first { !taken.contains($0.index) && !used.contains(catalog.activities[$0.index].category) }
                ?? scored.first { !taken.contains($0.index) }!
            chosen.append((next.index, next.mode))
            taken.insert(next.index)
            used.insert(catalog.activities[next.index].category)
        }
        return chosen.map { c in
            let terms = state.terms(c.index, mode: c.mode, at: t, rules: &rules, weights: w)
            return ActivityRecommendation(activity: catalog.activities[c.index], mode: c.mode, breakdown: terms,
                                          reasons: state.reasons(c.index, mode: c.mode, at: t, terms: terms, rules: &rules))
        }
    }
}
