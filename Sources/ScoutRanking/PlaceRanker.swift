import Foundation
import ScoutCatalog
import ScoutCore
import ScoutEngine
import ScoutRecommend
import ScoutTime

/// A dog lover looking for dogs to meet (`recommend_dogs`, `docs/recommender.md`).
public struct DogMatchQuery: Sendable {
    /// Where the lover is.
    public var from: GeoPoint
    /// How far they will go, metres.
    public var radius: Double
    /// Their handling experience, 1–5: dogs needing more are left out.
    public var experience: Double
    /// Whether they bring a dog of their own: then only breeds at least 3/5 good with dogs.
    public var bringsDog: Bool
    /// How active they are, 1–5, matched against the breed's energy.
    public var activityLevel: Double
    /// Ids of dogs already met (they lose the novelty term).
    public var met: Set<String>
    /// How many to return.
    public var limit: Int
    /// Further conditions (the `filter` of a search).
    public var filter: RecordFilter
    /// Weights; `nil` uses the ranker's.
    public var weights: RecommenderWeights?

    /// Creates a query.
    public init(from: GeoPoint, radius: Double, experience: Double, bringsDog: Bool = false, activityLevel: Double = 3,
                met: Set<String> = [], limit: Int = 20, filter: RecordFilter = .all, weights: RecommenderWeights? = nil) {
        self.from = from
        self.radius = radius
        self.experience = experience
        self.bringsDog = bringsDog
        self.activityLevel = activityLevel
        self.met = met
        self.limit = limit
        self.filter = filter
        self.weights = weights
    }
}

/// Someone looking for a gym (`rank_gyms`).
public struct GymRankQuery: Sendable {
    /// Where they are.
    public var from: GeoPoint
    /// How far they will go, metres (default 4 km).
    public var radius: Double
    /// The moment "open now" is judged at.
    public var now: Instant
    /// How many to return.
    public var limit: Int
    /// Further conditions.
    public var filter: RecordFilter
    /// Weights; `nil` uses the ranker's.
    public var weights: RecommenderWeights?

    /// Creates a query.
    public init(from: GeoPoint, radius: Double = 4000, now: Instant, limit: Int = 20, filter: RecordFilter = .all,
                weights: RecommenderWeights? = nil) {
        self.from = from
        self.radius = radius
        self.now = now
        self.limit = limit
        self.filter = filter
        self.weights = weights
    }
}

/// A ranked place with its score's terms.
public struct RankedHit: Sendable {
    /// The record as a search returns it (location approximate for dogs unless exact).
    public let hit: SearchHit
    /// The score and its terms.
    public let breakdown: ScoreBreakdown
}

/// Ranked places, best first (ties by distance, then id).
public struct RankedResult: Sendable {
    /// Candidates that passed the hard filters.
    public let total: Int
    /// The best `limit`.
    public let hits: [RankedHit]
    /// The weights' version.
    public let weightsVersion: String
}

/// Place ranking: the engine's radius search, scored with the recommender's place terms
/// (`weights.json`, `places`), best first. It sits above the engine, beside the recommender:
/// the engine only searches.
///
/// ```swift
/// let ranker = PlaceRanker(engine: engine, weights: recommender.weights)
/// let gyms = try ranker.rankGyms(GymRankQuery(from: dublin, now: Instant.now))
/// ```
public struct PlaceRanker: Sendable {
    /// The engine whose records are ranked.
    public let engine: Engine
    /// The weights a query without its own uses.
    public let weights: RecommenderWeights

    /// A ranker over an engine's records with these weights (usually the recommender's).
    public init(engine: Engine, weights: RecommenderWeights) {
        self.engine = engine
        self.weights = weights
    }

    /// Dogs for a dog lover: hard filters (available, experience, good with dogs when they
    /// bring one), then distance decay + rating + energy match + novelty.
    public func recommendDogs(_ q: DogMatchQuery) throws(ScoutError) -> RankedResult {
        let w = q.weights ?? weights
        guard (1...5).contains(q.experience) else { throw ScoutError(.invalidRequest, "experience must be 1 to 5", path: "experience") }
        guard (1...5).contains(q.activityLevel) else { throw ScoutError(.invalidRequest, "activity_level must be 1 to 5", path: "activity_level") }
        let experience = q.experience, bringsDog = q.bringsDog
        let filter = q.filter.adding([.dog(.available), .dog(.handlerExperience(Double(experience)))]
                                     + (bringsDog ? [.dog(.goodWithDogs(atLeast: 3))] : []))
        let terms = w.dogs.terms
        let decay = PlaceRanker.distanceDecay(radius: q.radius, scaleShare: w.dogs.scaleShareOfRadius)
        return try rank(kind: .dog, from: q.from, radius: q.radius, limit: q.limit, filter: filter, version: w.version) { hit in
            guard case .dog(let d) = hit.record else { return ScoreBreakdown([]) }
            let distance = hit.distance ?? 0
            return ScoreBreakdown([
                ScoreTerm(name: DogMatchTerm.distance.rawValue, value: decay(distance), weight: terms[.distance]),
                ScoreTerm(name: DogMatchTerm.rating.rawValue, value: (Rating.bayesian(d.temperament) - 1) / 4, weight: terms[.rating]),
                ScoreTerm(name: DogMatchTerm.energyMatch.rawValue, value: 1 - abs(Double(d.breed[.energy]) - q.activityLevel) / 4,
                          weight: terms[.energyMatch]),
                ScoreTerm(name: DogMatchTerm.novelty.rawValue, value: q.met.contains(hit.id) ? 0 : 1, weight: terms[.novelty]),
            ])
        }
    }

    /// Gyms near someone: distance decay + Wilson lower bound of votes + open now.
    public func rankGyms(_ q: GymRankQuery) throws(ScoutError) -> RankedResult {
        let w = q.weights ?? weights
        let terms = w.gyms.terms
        let decay = PlaceRanker.distanceDecay(radius: q.radius, scaleShare: w.gyms.scaleShareOfRadius)
        return try rank(kind: .gym, from: q.from, radius: q.radius, limit: q.limit, filter: q.filter, version: w.version) { hit in
            guard case .gym(let g) = hit.record else { return ScoreBreakdown([]) }
            let distance = hit.distance ?? 0
            let open: Double = g.openingHours.map { $0.isOpen(at: q.now, in: g.zone) ? 1 : 0 } ?? 0.5
            return ScoreBreakdown([
                ScoreTerm(name: GymTerm.distance.rawValue, value: decay(distance), weight: terms[.distance]),
                ScoreTerm(name: GymTerm.rating.rawValue, value: Rating.wilsonLowerBound(up: g.upVotes, down: g.downVotes), weight: terms[.rating]),
                ScoreTerm(name: GymTerm.openNow.rawValue, value: open, weight: terms[.openNow]),
            ])
        }
    }

    /// The distance term of both rankings: `exp(−d² / 2σ²)`, σ = `scale_share_of_radius` × the radius.
    private static func distanceDecay(radius: Double, scaleShare: Double) -> (Double) -> Double {
        let sigma = max(1, radius * scaleShare)
        return { d in exp(-d * d / (2 * sigma * sigma)) }
    }

    /// Every candidate within the radius that passes `filter`, scored and sorted.
    private func rank(kind: RecordKind, from: GeoPoint, radius: Double, limit: Int, filter: RecordFilter, version: String,
                      score: (SearchHit) -> ScoreBreakdown) throws(ScoutError) -> RankedResult {
        guard limit >= 1, limit <= 1000 else {
            throw ScoutError(limit < 1 ? .invalidRequest : .limitExceeded, "limit must be 1 to 1000", path: "limit")
        }
        let found = try engine.search(SearchQuery(kind: kind, area: .radius(center: from, meters: radius), limit: SearchQuery.maximumLimit,
                                           sort: .distance, filter: filter))
        var ranked = found.hits.map { RankedHit(hit: $0, breakdown: score($0)) }
        ranked.sort {
            let a = $0.breakdown.score, b = $1.breakdown.score
            if a != b { return a > b }
            if ($0.hit.distance ?? 0) != ($1.hit.distance ?? 0) { return ($0.hit.distance ?? 0) < ($1.hit.distance ?? 0) }
            return $0.hit.id < $1.hit.id
        }
        return RankedResult(total: found.total, hits: Array(ranked.prefix(limit)), weightsVersion: version)
    }
}
