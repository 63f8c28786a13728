import Foundation
import ScoutCore
import ScoutTime

/// What the pet enjoys, learnt from feedback: a Beta posterior per activity, shrunk toward
/// its category for activities with little or no feedback (`docs/recommender.md`, "Enjoyment").
///
/// Feedback counts `enjoyed` as a success, `disliked` as a failure and `neutral` as half of
/// each, weighted by `0.5^(age / half-life)`. A category's mean is
/// `(1 + successes) / (2 + feedback)` over all its activities; an activity's posterior is
/// `Beta(s·m + successes, s·(1 − m) + failures)` with `s` the category prior strength.
struct EnjoymentModel {
    /// Posterior parameters by activity position in the catalogue.
    private(set) var alpha: [Double]
    private(set) var beta: [Double]
    /// Ratings of each activity, newest first (for reasons).
    private(set) var history: [Int: [Enjoyment]] = [:]
    /// Category means, by ordinal.
    let categoryMean: [Double]
    /// Feedback weight per category, by ordinal.
    let categoryWeight: [Double]

    init(feedback: [Feedback], catalog: ActivityCatalog, now: Instant, weights: RecommenderWeights) {
        var a = [Double](repeating: 0, count: catalog.activities.count)
        var b = a
        var catA = [Double](repeating: 0, count: ActivityCategory.allCases.count)
        var catB = catA
        var history: [Int: [(Int64, Enjoyment)]] = [:]
        for f in feedback {
            guard let i = catalog.index(of: f.activity), f.at.seconds <= now.seconds else { continue }
            let ageDays = Double(now.seconds - f.at.seconds) / 86_400
            let w = pow(0.5, ageDays / weights.feedbackHalfLifeDays)
            let (s, x): (Double, Double) = f.rating == .enjoyed ? (w, 0) : f.rating == .disliked ? (0, w) : (w / 2, w / 2)
            a[i] += s; b[i] += x
            let c = catalog.activities[i].category.ordinal
            catA[c] += s; catB[c] += x
            history[i, default: []].append((f.at.seconds, f.rating))
        }
        let means = zip(catA, catB).map { (1 + $0) / (2 + $0 + $1) }
        categoryMean = means
        categoryWeight = zip(catA, catB).map { $0 + $1 }
        let s = weights.categoryPriorStrength
        for i in a.indices {
            let m = means[catalog.activities[i].category.ordinal]
            a[i] += s * m
            b[i] += s * (1 - m)
            // A zero prior strength leaves untried activities at Beta(0, 0): use Beta(1, 1).
            if a[i] + b[i] == 0 { a[i] = 1; b[i] = 1 }
        }
        alpha = a
        beta = b
        self.history = history.mapValues { $0.sorted { $0.0 > $1.0 }.map(\.1) }
    }

    /// The posterior mean of an activity.
    func mean(_ i: Int) -> Double { alpha[i] / (alpha[i] + beta[i]) }

    /// A Thompson draw for an activity: the same seed and activity id give the same draw,
    /// whatever else the request holds.
    func sample(_ i: Int, id: String, seed: UInt64) -> Double {
        var rng = SeededRandom(seed: seed ^ SeededRandom.hash(id))
        return rng.beta(alpha[i], beta[i])
    }
}

/// Beta and Gamma draws (Marsaglia and Tsang) over ``SplitMix64``, for seeded Thompson sampling.
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

    /// Gamma(shape, 1).
    public mutating func gamma(_ shape: Double) -> Double {
        if shape < 1 { return gamma(shape + 1) * pow(unit(), 1 / shape) }
        let d = shape - 1.0 / 3, c = 1 / sqrt(9 * d)
        while true {
            var x: Double, v: Double
            repeat { x = normal(); v = 1 + c * x } while v <= 0
            v = v * v * v
            let u = unit()
            if u < 1 - 0.0331 * x * x * x * x || log(u) < 0.5 * x * x + d * (1 - v + log(v)) { return d * v }
        }
    }

    /// Beta(a, b).
    public mutating func beta(_ a: Double, _ b: Double) -> Double {
        let x = gamma(a), y = gamma(b)
        return x + y > 0 ? x / (x + y) : 0.5
    }

    /// FNV-1a of a string's UTF-8 bytes: a stable per-activity stream selector.
    public static func hash(_ s: String) -> UInt64 {
        var h: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in s.utf8 { h = (h ^ UInt64(byte)) &* 0x100_0000_01B3 }
        return h
    }
}
