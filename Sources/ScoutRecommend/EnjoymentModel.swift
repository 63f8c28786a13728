import Foundation
import ScoutCore
import ScoutTime

/// What the pet enjoys (`docs/recommender.md`, "Enjoyment"): the population prior's
/// log-odds for the pet, the activity and the moment, plus the pet's own category and
/// activity effects, fitted to its ratings (maximum a posteriori under Gaussian priors of
/// the prior file's spreads, by coordinate Newton sweeps).
///
/// A rating counts `enjoyed` as 1, `neutral` as ½ and `disliked` as 0, weighted by
/// `0.5^(age / half-life)`. A rating that names its offer (``Feedback/moment``) is read in
/// the moment the offer was made; one without, in ``Moment/neutral(for:)``. An offer taken
/// over others (``Feedback/over``) adds, with the same weight, the log-likelihood of that
/// choice, `log σ(z_taken − z_passed)` (Bradley–Terry on the predicted log-odds, each in its
/// own moment).
struct EnjoymentModel {
    let prior: EnjoymentPrior
    let pet: PetFeatures
    /// The pet's own taste per category (log-odds), by ordinal.
    private(set) var categoryEffect: [Double]
    /// The pet's own taste per activity beyond its category's, by catalogue position.
    private(set) var activityEffect: [Double]
    /// Ratings of each activity, newest first (for reasons).
    private(set) var history: [Int: [Enjoyment]] = [:]
    /// Mean rating per category (ratings decayed), by ordinal; ½ without ratings.
    let categoryMean: [Double]
    /// Rating weight per category, by ordinal.
    let categoryWeight: [Double]
    /// All ratings' and choices' weight: the pet's evidence.
    let evidence: Double

    /// Sweeps of the per-pet fit (more change nothing measurable in the simulation).
    static let sweeps = 6

    init(feedback: [Feedback], catalog: ActivityCatalog, now: Instant, weights: RecommenderWeights, prior: EnjoymentPrior, pet: PetFeatures) {
        self.prior = prior
        self.pet = pet
        let categories = ActivityCategory.allCases.count
        var rated: [(index: Int, category: Int, y: Double, w: Double, offset: Double)] = []
        var history: [Int: [(Int64, Enjoyment)]] = [:]
        var choices: [(a: Int, ca: Int, oa: Double, b: Int, cb: Int, ob: Double, w: Double)] = []
        var catSum = [Double](repeating: 0, count: categories), catWeight = catSum
        for f in feedback {
            guard let i = catalog.index(of: f.activity), f.at.seconds <= now.seconds else { continue }
            let a = catalog.activities[i]
            let w = pow(0.5, Double(now.seconds - f.at.seconds) / 86_400 / weights.feedbackHalfLifeDays)
            let offset = prior.logit(pet.vector(a, f.moment ?? .neutral(for: a)))
            if let rating = f.rating {
                let y = rating == .enjoyed ? 1.0 : rating == .disliked ? 0 : 0.5
                rated.append((i, a.category.ordinal, y, w, offset))
                catSum[a.category.ordinal] += w * y
                catWeight[a.category.ordinal] += w
                history[i, default: []].append((f.at.seconds, rating))
            }
            for o in f.over {
                guard let j = catalog.index(of: o.activity), j != i else { continue }
                let b = catalog.activities[j]
                choices.append((i, a.category.ordinal, offset, j, b.category.ordinal, prior.logit(pet.vector(b, o.moment)), w))
            }
        }
        var u = [Double](repeating: 0, count: categories)
        var v = [Double](repeating: 0, count: catalog.activities.count)
        if !rated.isEmpty || !choices.isEmpty {
            let cPrecision = 1 / (prior.categorySD * prior.categorySD), aPrecision = 1 / (prior.activitySD * prior.activitySD)
            var seen = [Bool](repeating: false, count: catalog.activities.count)
            var activities: [Int] = []
            for r in rated where !seen[r.index] { seen[r.index] = true; activities.append(r.index) }
            for c in choices {
                if !seen[c.a] { seen[c.a] = true; activities.append(c.a) }
                if !seen[c.b] { seen[c.b] = true; activities.append(c.b) }
            }
            // Gradient and curvature, reused across sweeps (no allocation per sweep).
            var g = [Double](repeating: 0, count: categories), h = g
            var ga = [Double](repeating: 0, count: catalog.activities.count), ha = ga
            for _ in 0..<EnjoymentModel.sweeps {
                for c in 0..<categories { g[c] = 0; h[c] = 0 }
                for r in rated {
                    let p = sigmoid(r.offset + u[r.category] + v[r.index])
                    g[r.category] += r.w * (r.y - p); h[r.category] += r.w * p * (1 - p)
                }
                for c in choices where c.ca != c.cb {
                    let q = sigmoid(c.oa + u[c.ca] + v[c.a] - c.ob - u[c.cb] - v[c.b])
                    g[c.ca] += c.w * (1 - q); g[c.cb] -= c.w * (1 - q)
                    h[c.ca] += c.w * q * (1 - q); h[c.cb] += c.w * q * (1 - q)
                }
                for c in 0..<categories { u[c] += (g[c] - cPrecision * u[c]) / (h[c] + cPrecision) }
                for i in activities { ga[i] = 0; ha[i] = 0 }
                for r in rated {
                    let p = sigmoid(r.offset + u[r.category] + v[r.index])
                    ga[r.index] += r.w * (r.y - p); ha[r.index] += r.w * p * (1 - p)
                }
                for c in choices {
                    let q = sigmoid(c.oa + u[c.ca] + v[c.a] - c.ob - u[c.cb] - v[c.b])
                    ga[c.a] += c.w * (1 - q); ga[c.b] -= c.w * (1 - q)
                    ha[c.a] += c.w * q * (1 - q); ha[c.b] += c.w * q * (1 - q)
                }
                for i in activities { v[i] += (ga[i] - aPrecision * v[i]) / (ha[i] + aPrecision) }
            }
        }
        categoryEffect = u
        activityEffect = v
        categoryMean = zip(catSum, catWeight).map { $1 > 0 ? $0 / $1 : 0.5 }
        categoryWeight = catWeight
        evidence = catWeight.reduce(0, +) + choices.reduce(0) { $0 + $1.w }
        self.history = history.mapValues { $0.sorted { $0.0 > $1.0 }.map(\.1) }
    }

    /// The predicted chance that the pet enjoys activity `i` (`a`) at `moment`.
    @inline(__always)
    func mean(_ i: Int, _ a: Activity, _ moment: Moment) -> Double {
        sigmoid(prior.logit(pet.vector(a, moment)) + categoryEffect[a.category.ordinal] + activityEffect[i])
    }
}

/// Seeded draws over ``SplitMix64`` for exploration (``Exploration``): uniforms in (0, 1),
/// and normals for simulations.
public struct SeededRandom: RandomNumberGenerator, Sendable {
    private var bits: SplitMix64

    /// A generator whose sequence depends only on `seed` (mixed before it becomes the state).
    public init(seed: UInt64) { bits = SplitMix64(state: seed &* 0x2545_F491_4F6C_DD1D &+ 0x9E37_79B9) }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 { bits.next() }

    /// Uniform in (0, 1).
    public mutating func unit() -> Double { (Double(next() >> 11) + 0.5) * 0x1p-53 }

    /// Standard normal (Box–Muller).
    public mutating func normal() -> Double {
        sqrt(-2 * log(unit())) * cos(2 * Double.pi * unit())
    }

    /// FNV-1a of a string's UTF-8 bytes: a stable per-activity stream selector.
    public static func hash(_ s: String) -> UInt64 {
        var h: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in s.utf8 { h = (h ^ UInt64(byte)) &* 0x100_0000_01B3 }
        return h
    }
}
