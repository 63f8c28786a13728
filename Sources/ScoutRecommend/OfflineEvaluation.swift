import Foundation
import ScoutCatalog
import ScoutCore

/// One offer a logging policy made: the activity, the id it carried and its propensity.
public struct LoggedOffer: Sendable {
    /// The offer's id (activity and moment).
    public var id: OfferID
    /// The probability with which the logging policy offered it (0 < p ≤ 1).
    public var propensity: Double

    /// A logged offer.
    public init(id: OfferID, propensity: Double) {
        self.id = id
        self.propensity = propensity
    }
}

/// One logged decision (a line of a decision log, `docs/recommender.md`, "Decision logs"):
/// the request as the logging policy saw it, what it offered with which propensities, and
/// the owner's ratings of the offers.
public struct LoggedDecision: Sendable {
    /// The request, pet inline.
    public var request: ActivityRequest
    /// The offers, in order.
    public var offers: [LoggedOffer]
    /// The probability with which the logging policy offered exactly these activities
    /// together (``ActivityRecommendations/setPropensity``); for one offer, its propensity.
    /// `nil` when a log of several offers did not record it.
    public var setPropensity: Double?
    /// Ratings by the offered activity's id.
    public var ratings: [String: Enjoyment]
    /// The line number in the log (1-based), for messages.
    public var line: Int

    /// A logged decision; `setPropensity` defaults to the propensity of a single offer.
    public init(request: ActivityRequest, offers: [LoggedOffer], setPropensity: Double? = nil, ratings: [String: Enjoyment], line: Int) {
        self.request = request
        self.offers = offers
        self.setPropensity = setPropensity ?? (offers.count == 1 ? offers[0].propensity : nil)
        self.ratings = ratings
        self.line = line
    }
}

/// An estimate with its 95% confidence interval.
public struct Estimate: Sendable, Equatable {
    /// The point estimate.
    public var value: Double
    /// The interval's ends.
    public var low: Double, high: Double
}

/// What an offline evaluation found: a candidate policy's value (the mean rating of what is
/// done of its offers: enjoyed 1, neutral ½, disliked 0) by three estimators, with how much
/// of the log it rests on.
public struct PolicyValue: Sendable {
    /// Inverse propensity scoring.
    public var ips: Estimate
    /// Self-normalised IPS.
    public var snips: Estimate
    /// Doubly robust, with the candidate's own predicted enjoyment as the reward model.
    public var doublyRobust: Estimate
    /// The logging policy's own mean rating on the same decisions.
    public var logged: Estimate
    /// `(Σw)² / Σw²` over the rated decisions.
    public var effectiveSampleSize: Double
    /// Decisions used (at least one offer rated).
    public var decisions: Int
    /// Decisions left out because no offer was rated.
    public var unrated: Int
}

/// Off-policy evaluation of a candidate policy from a decision log (Open Bandit Pipeline's
/// IPS, SNIPS and DR, with the decision's whole set of offers as the action).
///
/// The value estimated is the rating of what the owner does of a decision's offers: with
/// one offer, its rating; with several ("this or that"), the rating of the offer taken (the
/// rated one; the mean when several were rated). A decision weighs the candidate's
/// probability of offering exactly the logged set over the logging policy's
/// (``LoggedDecision/setPropensity``), which is unbiased whatever the owner's way of
/// choosing among the offers, as long as it depends only on the offers and the moment. A
/// decision counts when at least one offer was rated (ratings missing at random). DR's
/// reward model is the candidate's own predicted enjoyment: of a set, its best offer's (an
/// owner who takes what the pet will enjoy).
public enum OfflineEvaluation {
    /// The rating as a reward.
    public static func reward(_ e: Enjoyment) -> Double { e == .enjoyed ? 1 : e == .disliked ? 0 : 0.5 }

    /// Estimates the value of `candidate` (a recommender and how it changes a logged request:
    /// another mode, weights or prior) from `decisions`.
    /// - Throws: `invalid_request` naming the line of a rated decision of several offers
    ///   without its ``LoggedDecision/setPropensity``.
    public static func estimate(_ decisions: [LoggedDecision], recommender: Recommender,
                                candidate: (ActivityRequest) -> ActivityRequest) throws(ScoutError) -> PolicyValue {
        var ipsTerms: [Double] = [], drTerms: [Double] = [], loggedTerms: [Double] = []
        var weights: [Double] = [], weightedRewards: [Double] = [], rewards: [Double] = []
        var unrated = 0
        for d in decisions {
            let rated = d.offers.compactMap { d.ratings[$0.id.activity].map(reward) }
            guard !rated.isEmpty else { unrated += 1; continue }
            guard let logged = d.setPropensity, logged > 0 else {
                throw ScoutError(.invalidRequest, "set_propensity is required to value a decision of \(d.offers.count) offers: "
                                 + "the probability with which the policy offered exactly these activities together", path: "line \(d.line): set_propensity")
            }
            let r = rated.reduce(0, +) / Double(rated.count)
            let policy = recommender.offerSets(candidate(d.request))
            func predicted(_ set: [Int]) -> Double { set.compactMap { policy.enjoyment[$0] }.max() ?? 0 }
            let positions = d.offers.map { recommender.catalog.index(of: $0.id.activity) }
            var p1 = 0.0, rHat = 0.0
            if positions.allSatisfy({ $0 != nil }) {
                let set = positions.map { $0! }.sorted()
                p1 = policy.sets.first { $0.activities == set }?.probability ?? 0
                rHat = predicted(set)
            }
            let w = p1 / logged
            let direct = policy.sets.reduce(0) { $0 + $1.probability * predicted($1.activities) }
            ipsTerms.append(w * r); drTerms.append(direct + w * (r - rHat)); loggedTerms.append(r)
            weights.append(w); weightedRewards.append(w * r); rewards.append(r)
        }
        let sumW = weights.reduce(0, +)
        let snips = sumW > 0 ? weightedRewards.reduce(0, +) / sumW : 0
        var snipsVariance = 0.0
        for k in weights.indices { let e = weights[k] * (rewards[k] - snips); snipsVariance += e * e }
        let snipsSE = sumW > 0 ? snipsVariance.squareRoot() / sumW : 0
        let squares = weights.reduce(0) { $0 + $1 * $1 }
        return PolicyValue(ips: meanEstimate(ipsTerms), snips: Estimate(value: snips, low: snips - 1.96 * snipsSE, high: snips + 1.96 * snipsSE),
                           doublyRobust: meanEstimate(drTerms), logged: meanEstimate(loggedTerms),
                           effectiveSampleSize: squares > 0 ? sumW * sumW / squares : 0, decisions: ipsTerms.count, unrated: unrated)
    }

    /// The mean of `xs` with a normal 95% interval.
    static func meanEstimate(_ xs: [Double]) -> Estimate {
        guard !xs.isEmpty else { return Estimate(value: 0, low: 0, high: 0) }
        let n = Double(xs.count)
        let mean = xs.reduce(0, +) / n
        let variance = xs.count > 1 ? xs.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / (n - 1) : 0
        let se = (variance / n).squareRoot()
        return Estimate(value: mean, low: mean - 1.96 * se, high: mean + 1.96 * se)
    }
}

/// One rated offer as the prior fit reads it: its features and rating, and whose and what
/// it was (the pet's own effects are fitted beside the population's). With ``over`` it is a
/// choice instead: the offer was taken over another, and its log-odds are the difference of
/// the two offers' (Bradley–Terry, as the pet's own fit reads choices).
public struct RatedExample: Sendable {
    /// One value per ``EnjoymentFeature``.
    public var features: [Double]
    /// Enjoyed 1, neutral ½, disliked 0; 1 for a choice.
    public var rating: Double
    /// The pet it is about (its name, breed and birth date), for its own effects.
    public var pet: String
    /// The activity's category ordinal and the activity's id.
    public var category: Int, activity: String
    /// The probability with which the logging policy offered it.
    public var propensity: Double
    /// For a choice, the offer passed over for this one.
    public var over: PassedOffer?

    /// The offer a choice passed over: its features, category ordinal and activity id.
    public struct PassedOffer: Sendable {
        /// One value per ``EnjoymentFeature``.
        public var features: [Double]
        /// The activity's category ordinal and the activity's id.
        public var category: Int, activity: String

        /// A passed offer.
        public init(features: [Double], category: Int, activity: String) {
            self.features = features
            self.category = category
            self.activity = activity
        }
    }

    /// An example.
    public init(features: [Double], rating: Double, pet: String, category: Int, activity: String, propensity: Double = 1,
                over: PassedOffer? = nil) {
        self.features = features
        self.rating = rating
        self.pet = pet
        self.category = category
        self.activity = activity
        self.propensity = propensity
        self.over = over
    }
}

/// Fits the population prior from rated offers and choices of one offer over another, with
/// each pet's own category and activity effects beside it (a hierarchical model, as
/// `recommend_activities` reads it): rounds of
/// the pets' effects given the coefficients (as ``EnjoymentModel`` fits them), then Newton
/// steps on the coefficients given the effects, L2-regularised toward the starting prior
/// (precision `ridge` per coefficient). Without the pets' effects a pooled fit would read
/// the policy's choices of what each pet likes as a liking of the whole population.
/// Deterministic: the same examples in the same order give the same bytes.
public enum PriorFit {
    /// The rated offers of a decision, with the features of the request's pet and each
    /// offer's moment (from its id); and, for a rated offer whose id names another offer of
    /// the decision (an answer of two), the choice of it over that one.
    public static func examples(_ d: LoggedDecision, recommender: Recommender) -> [RatedExample] {
        let w = d.request.weights ?? recommender.weights
        let needs = PetNeeds(pet: d.request.pet, on: d.request.context.localDate, weights: w)
        let pet = PetFeatures(pet: d.request.pet, needs: needs)
        let key = [d.request.pet.name ?? "", d.request.pet.species.rawValue, d.request.pet.breed?.name ?? "", d.request.pet.birthDate.description]
            .joined(separator: "|")
        var out: [RatedExample] = []
        for o in d.offers {
            guard let r = d.ratings[o.id.activity], let a = recommender.catalog.activity(id: o.id.activity) else { continue }
            let x = pet.values(a, o.id.moment)
            out.append(RatedExample(features: x, rating: OfflineEvaluation.reward(r), pet: key,
                                    category: a.category.ordinal, activity: a.id, propensity: o.propensity))
            // A rated offer of a two-offer answer was taken over the other ("Choices").
            for other in o.id.others where d.offers.contains(where: { $0.id.activity == other.activity }) {
                guard let b = recommender.catalog.activity(id: other.activity) else { continue }
                out.append(RatedExample(features: x, rating: 1, pet: key, category: a.category.ordinal, activity: a.id, propensity: o.propensity,
                                        over: .init(features: pet.values(b, other.moment), category: b.category.ordinal, activity: b.id)))
            }
        }
        return out
    }

    /// What a fit did.
    public struct Result: Sendable {
        /// The fitted prior (the start's spreads, the given version).
        public var prior: EnjoymentPrior
        /// Rounds taken.
        public var iterations: Int
        /// Mean log loss of the examples (with the pets' effects) under the fitted and the starting prior.
        public var logLoss: Double, startLogLoss: Double
    }

    /// Fits coefficients to `examples`, starting from (and shrunk toward) `start`.
    public static func fit(_ examples: [RatedExample], start: EnjoymentPrior, version: String, ridge: Double = 1,
                           largestWeight: Double = 1, rounds: Int = 12) -> Result {
        let k = start.coefficients.count
        // Inverse-propensity weights, capped: a policy's choices follow what it believed,
        // and weighting each offer by 1/propensity undoes that selection.
        let weight = examples.map { min(largestWeight, 1 / max($0.propensity, 1e-9)) }
        var b = start.coefficients
        // Each example's pet and activity slots (and the passed offer's, for a choice: -1 otherwise).
        var petIndex: [String: Int] = [:], slotIndex: [String: Int] = [:]
        var pets: [Int] = [], slots: [Int] = [], passedSlots: [Int] = []
        func slot(_ pet: String, _ activity: String) -> Int {
            let key = pet + "\u{0}" + activity
            if let s = slotIndex[key] { return s }
            slotIndex[key] = slotIndex.count
            return slotIndex.count - 1
        }
        for e in examples {
            let p = petIndex[e.pet] ?? { let n = petIndex.count; petIndex[e.pet] = n; return n }()
            pets.append(p); slots.append(slot(e.pet, e.activity))
            passedSlots.append(e.over.map { slot(e.pet, $0.activity) } ?? -1)
        }
        // A choice reads the difference of its two offers' features.
        let x = examples.map { e in e.over.map { o in zip(e.features, o.features).map { $0 - $1 } } ?? e.features }
        let categories = ActivityCategory.allCases.count
        var u = [Double](repeating: 0, count: petIndex.count * categories)
        var v = [Double](repeating: 0, count: slotIndex.count)
        let cPrecision = 1 / (start.categorySD * start.categorySD), aPrecision = 1 / (start.activitySD * start.activitySD)
        func logit(_ i: Int) -> Double {
            var z = u[pets[i] * categories + examples[i].category] + v[slots[i]]
            if let o = examples[i].over { z -= u[pets[i] * categories + o.category] + v[passedSlots[i]] }
            for j in 0..<k { z += b[j] * x[i][j] }
            return z
        }
        let startLoss = loss(examples) { logit($0) }
        var iterations = 0
        for _ in 0..<rounds {
            iterations += 1
            // The pets' effects given the coefficients: a few coordinate Newton sweeps.
            for _ in 0..<3 {
                var g = [Double](repeating: 0, count: u.count), h = g
                for i in examples.indices {
                    let p = sigmoid(logit(i)), c = pets[i] * categories + examples[i].category
                    let r = weight[i] * (examples[i].rating - p), q = weight[i] * p * (1 - p)
                    g[c] += r; h[c] += q
                    if let o = examples[i].over { let d = pets[i] * categories + o.category; g[d] -= r; h[d] += q }
                }
                for c in u.indices where h[c] > 0 { u[c] += (g[c] - cPrecision * u[c]) / (h[c] + cPrecision) }
                var ga = [Double](repeating: 0, count: v.count), ha = ga
                for i in examples.indices {
                    let p = sigmoid(logit(i))
                    let r = weight[i] * (examples[i].rating - p), q = weight[i] * p * (1 - p)
                    ga[slots[i]] += r; ha[slots[i]] += q
                    if passedSlots[i] >= 0 { ga[passedSlots[i]] -= r; ha[passedSlots[i]] += q }
                }
                for s in v.indices { v[s] += (ga[s] - aPrecision * v[s]) / (ha[s] + aPrecision) }
            }
            // A Newton step on the coefficients given the effects.
            var g = [Double](repeating: 0, count: k)
            var h = [Double](repeating: 0, count: k * k)
            for i in examples.indices {
                let x = x[i]
                let p = sigmoid(logit(i)), q = weight[i] * p * (1 - p)
                for j in 0..<k where x[j] != 0 {
                    g[j] += weight[i] * (examples[i].rating - p) * x[j]
                    let fj = x[j] * q
                    for l in 0..<k where x[l] != 0 { h[j * k + l] += fj * x[l] }
                }
            }
            for j in 0..<k {
                g[j] -= ridge * (b[j] - start.coefficients[j])
                h[j * k + j] += ridge
            }
            guard let step = solve(h, g, k) else { break }
            var largest = 0.0
            for j in 0..<k { b[j] += step[j]; largest = max(largest, abs(step[j])) }
            if largest < 1e-6 { break }
        }
        var fitted = start
        fitted.coefficients = b.map { min(20, max(-20, $0)) }
        fitted.version = version
        return Result(prior: fitted, iterations: iterations, logLoss: loss(examples) { logit($0) }, startLogLoss: startLoss)
    }

    /// Mean log loss of `examples` under the log-odds `z`.
    static func loss(_ examples: [RatedExample], _ z: (Int) -> Double) -> Double {
        guard !examples.isEmpty else { return 0 }
        var total = 0.0
        for i in examples.indices {
            let p = min(1 - 1e-12, max(1e-12, sigmoid(z(i))))
            total -= examples[i].rating * log(p) + (1 - examples[i].rating) * log(1 - p)
        }
        return total / Double(examples.count)
    }

    /// Solves `H x = g` for a symmetric positive definite `H` (row-major `k × k`) by
    /// Cholesky; `nil` when `H` is not positive definite.
    static func solve(_ h: [Double], _ g: [Double], _ k: Int) -> [Double]? {
        var l = [Double](repeating: 0, count: k * k)
        for i in 0..<k {
            for j in 0...i {
                var s = h[i * k + j]
                for m in 0..<j { s -= l[i * k + m] * l[j * k + m] }
                if i == j {
                    guard s > 0 else { return nil }
                    l[i * k + i] = s.squareRoot()
                } else {
                    l[i * k + j] = s / l[j * k + j]
                }
            }
        }
        var y = g
        for i in 0..<k {
            for m in 0..<i { y[i] -= l[i * k + m] * y[m] }
            y[i] /= l[i * k + i]
        }
        for i in stride(from: k - 1, through: 0, by: -1) {
            for m in (i + 1)..<k { y[i] -= l[m * k + i] * y[m] }
            y[i] /= l[i * k + i]
        }
        return y
    }
}
