import ScoutCatalog
import ScoutCore
import ScoutSchedule
import ScoutSolar
import ScoutTime

/// A request for "this or that": the pet, the moment and place, its log and feedback.
public struct ActivityRequest: Sendable {
    /// Exploring (`explore`) or the best scores (`best`).
    public enum Mode: String, Sendable, CaseIterable {
        /// Draws the offers by inverse-gap weighting over the scores (``Exploration``): mostly
        /// the best, now and then another, each with its probability (`propensity`).
        case explore
        /// Offers the best scores (each offer's propensity is 1).
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
    /// The seed of exploration's draws; `nil` derives one from `now` (to the minute) and the pet's name.
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
    /// The offer's id: a rating that names it is learnt in the moment it was made.
    public let id: OfferID
    /// The probability that this policy offers this activity for this request (among all
    /// the offers: for two, of being in the pair); 1 in `best` mode.
    public let propensity: Double
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
    /// The probability that the policy offers exactly these activities together then.
    public let setPropensity: Double
}

/// The answer to an ``ActivityRequest``.
public struct ActivityRecommendations: Sendable {
    /// The weights file's version.
    public let weightsVersion: String
    /// The enjoyment prior's version.
    public let priorVersion: String
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
    /// The probability that this policy offers exactly these activities together, in any
    /// order (1 in `best` mode and when none is offered; for one offer, its
    /// ``ActivityRecommendation/propensity``).
    /// What an offline evaluation weighs a decision of several offers by.
    public let setPropensity: Double
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
    /// The population prior of enjoyment.
    public let prior: EnjoymentPrior

    /// Creates a recommender (``RecommenderWeights/checkCareGoals(against:)`` checks that
    /// the weights' care goals name activities of the catalogue; ``load(dataDirectory:breeds:)`` does).
    public init(catalog: ActivityCatalog, weights: RecommenderWeights, breeds: BreedTable, prior: EnjoymentPrior) {
        self.catalog = catalog
        self.weights = weights
        self.breeds = breeds
        self.prior = prior
        logTypes = catalog.logTypes
    }

    /// The same catalogue, breeds and weights with another prior (a candidate policy).
    public func with(prior: EnjoymentPrior) -> Recommender { Recommender(catalog: catalog, weights: weights, breeds: breeds, prior: prior) }

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
        let state = PetState(request: request, needs: needs, catalog: catalog, weights: w, prior: prior)
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
        let picked = pick(eligible, at: ctx.now.seconds, count: count, state: state, rules: &rules, weights: w, request: request)
        var window: NextWindow?
        if picked.offers.isEmpty && count > 0 && !indices.isEmpty {
            var t = (ctx.now.seconds / Recommender.windowStep + 1) * Recommender.windowStep
            let end = ctx.now.seconds + Recommender.windowHorizon
            search: while t <= end {
                var found: [(index: Int, mode: ActivityMode)] = []
                for i in indices {
                    if let mode = rules.check(catalog.activities[i], start: t, explain: false, into: &reasons) { found.append((i, mode)) }
                }
                if !found.isEmpty {
                    let then = pick(found, at: t, count: count, state: state, rules: &rules, weights: w, request: request)
                    window = NextWindow(at: ctx.local(t), recommendations: then.offers, setPropensity: then.setPropensity)
                    break search
                }
                t += Recommender.windowStep
            }
        }
        return ActivityRecommendations(
            weightsVersion: w.version, priorVersion: prior.version, catalogueVersion: catalog.version, mode: request.mode, seed: request.effectiveSeed,
            needs: needs, daylight: rules.daylight(ctx.now.seconds), away: rules.away, gaps: state.gaps,
            recommendations: picked.offers, setPropensity: picked.setPropensity, excluded: excluded, nextWindow: window, notes: notes(for: request.pet.species))
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
        let state = PetState(request: request, needs: needs, catalog: catalog, weights: w, prior: prior)
        out.removeAll(keepingCapacity: true)
        out.append(contentsOf: repeatElement(-Double.infinity, count: catalog.activities.count))
        var none: [Exclusion] = []
        for i in catalog.indices(for: request.pet.species) {
            if let mode = rules.check(catalog.activities[i], start: ctx.now.seconds, explain: false, into: &none) {
                out[i] = state.score(i, mode: mode, at: ctx.now.seconds, rules: &rules, weights: w)
            }
        }
    }

    /// The offer policy for a request: every eligible activity now with its probability of
    /// being offered (``ActivityRecommendation/propensity``) and its predicted enjoyment, by
    /// catalogue position (probability 0 and enjoyment `nil` for those ruled out). What an
    /// offline evaluation asks of a candidate policy (`scout evaluate`).
    public func offerProbabilities(_ request: ActivityRequest) -> [(probability: Double, enjoyment: Double?)] {
        let policy = offerPolicy(request)
        var out = [(probability: Double, enjoyment: Double?)](repeating: (0, nil), count: catalog.activities.count)
        let inclusion = policy.exploration?.inclusion(count: policy.count)
        let chosen = policy.exploration == nil ? Set(policy.bestSet) : []
        for (k, i) in policy.ranked.enumerated() {
            out[i] = (inclusion?[k] ?? (chosen.contains(k) ? 1 : 0), policy.enjoyment[i])
        }
        return out
    }

    /// The offer policy for a request as the sets of activities it may offer together: each
    /// set (catalogue positions, ascending) with its probability (``ActivityRecommendations/setPropensity``;
    /// they sum to 1), and every activity's predicted enjoyment by catalogue position (`nil`
    /// for those ruled out). What an offline evaluation weighs decisions of several offers by.
    public func offerSets(_ request: ActivityRequest) -> (sets: [(activities: [Int], probability: Double)], enjoyment: [Double?]) {
        let policy = offerPolicy(request)
        let sets: [(positions: [Int], probability: Double)]
        if let exploration = policy.exploration {
            sets = exploration.sets(count: policy.count)
        } else {
            sets = policy.count > 0 ? [(positions: policy.bestSet, probability: 1)] : []
        }
        return (sets.map { set in (activities: set.positions.map { policy.ranked[$0] }.sorted(), probability: set.probability) }, policy.enjoyment)
    }

    /// What ``offerProbabilities(_:)`` and ``offerSets(_:)`` read: the eligible activities'
    /// catalogue positions best first, the number offered, `explore`'s draw (nil in `best`
    /// mode, whose offers are `bestSet`, positions in the ranking) and each activity's
    /// predicted enjoyment by catalogue position.
    private func offerPolicy(_ request: ActivityRequest) -> (ranked: [Int], count: Int, exploration: Exploration?, bestSet: [Int], enjoyment: [Double?]) {
        let w = request.weights ?? weights
        let ctx = request.context
        let needs = PetNeeds(pet: request.pet, on: ctx.localDate, weights: w)
        var rules = RuleBook(pet: request.pet, needs: needs, context: ctx, weights: w)
        let state = PetState(request: request, needs: needs, catalog: catalog, weights: w, prior: prior)
        var eligible: [(index: Int, mode: ActivityMode)] = []
        var none: [Exclusion] = []
        for i in catalog.indices(for: request.pet.species) {
            if let mode = rules.check(catalog.activities[i], start: ctx.now.seconds, explain: false, into: &none) { eligible.append((i, mode)) }
        }
        let ranked = rank(eligible, at: ctx.now.seconds, state: state, rules: &rules, weights: w)
        let n = min(max(0, request.count), ranked.count)
        var enjoyment = [Double?](repeating: nil, count: catalog.activities.count)
        for r in ranked {
            enjoyment[r.index] = state.enjoyment.mean(r.index, catalog.activities[r.index], state.moment(r.index, mode: r.mode, at: ctx.now.seconds, rules: &rules))
        }
        if request.mode == .best {
            var chosen: [Int] = []
            Exploration(scores: ranked.map(\.score), categories: ranked.map { catalog.activities[$0.index].category.ordinal }, gamma: 0)
                .fill(&chosen, upTo: n)
            return (ranked.map(\.index), n, nil, chosen, enjoyment)
        }
        return (ranked.map(\.index), n, policy(ranked, state: state, weights: w), [], enjoyment)
    }

    /// The eligible activities with their scores, best first (ties by id).
    private func rank(_ eligible: [(index: Int, mode: ActivityMode)], at t: Int64, state: PetState, rules: inout RuleBook,
                      weights w: RecommenderWeights) -> [(index: Int, mode: ActivityMode, score: Double)] {
        var scored: [(index: Int, mode: ActivityMode, score: Double)] = []
        scored.reserveCapacity(eligible.count)
        for e in eligible {
            scored.append((e.index, e.mode, state.score(e.index, mode: e.mode, at: t, rules: &rules, weights: w)))
        }
        scored.sort { $0.score != $1.score ? $0.score > $1.score : catalog.activities[$0.index].id < catalog.activities[$1.index].id }
        return scored
    }

    /// Exploration over ranked activities: γ grows with the square root of the pet's evidence.
    private func policy(_ ranked: [(index: Int, mode: ActivityMode, score: Double)], state: PetState, weights w: RecommenderWeights) -> Exploration {
        Exploration(scores: ranked.map(\.score), categories: ranked.map { catalog.activities[$0.index].category.ordinal },
                    gamma: w.explorationGamma * (1 + state.enjoyment.evidence).squareRoot())
    }

    /// Scores the eligible activities and picks `count`: in `best` mode the best first, then
    /// the best of a category not yet picked (ties by id); in `explore` mode drawn by
    /// ``Exploration``. Writes ids, propensities and reasons for the picked ones only, and
    /// the probability of offering exactly the picked set.
    private func pick(_ eligible: [(index: Int, mode: ActivityMode)], at t: Int64, count: Int, state: PetState,
                      rules: inout RuleBook, weights w: RecommenderWeights,
                      request: ActivityRequest) -> (offers: [ActivityRecommendation], setPropensity: Double) {
        let scored = rank(eligible, at: t, state: state, rules: &rules, weights: w)
        let n = min(count, scored.count)
        var chosen: [Int] = []
        var propensities: [Double]
        var setPropensity = 1.0
        if request.mode == .best {
            Exploration(scores: scored.map(\.score), categories: scored.map { catalog.activities[$0.index].category.ordinal }, gamma: 0)
                .fill(&chosen, upTo: n)
            propensities = [Double](repeating: 1, count: scored.count)
        } else {
            let policy = policy(scored, state: state, weights: w)
            var rng = SeededRandom(seed: request.effectiveSeed ^ UInt64(bitPattern: t))
            chosen = policy.draw(count: n, rng: &rng)
            propensities = policy.inclusion(count: n)
            setPropensity = n == 0 ? 1 : n == 1 ? propensities[chosen[0]] : policy.setProbability(chosen, count: n)
        }
        // The offers' ids; in an answer of two ("this or that") each names the other.
        let plain = chosen.map { k in
            OfferID(activity: catalog.activities[scored[k].index].id, moment: state.moment(scored[k].index, mode: scored[k].mode, at: t, rules: &rules))
        }
        let ids = plain.count == 2 ? [OfferID(activity: plain[0].activity, moment: plain[0].moment, others: [plain[1]]),
                                      OfferID(activity: plain[1].activity, moment: plain[1].moment, others: [plain[0]])] : plain
        let offers = zip(chosen, ids).map { k, id in
            let c = scored[k]
            let terms = state.terms(c.index, mode: c.mode, at: t, rules: &rules, weights: w)
            return ActivityRecommendation(id: id, propensity: propensities[k],
                                          activity: catalog.activities[c.index], mode: c.mode, breakdown: terms,
                                          reasons: state.reasons(c.index, mode: c.mode, at: t, terms: terms, rules: &rules))
        }
        return (offers, setPropensity)
    }
}
