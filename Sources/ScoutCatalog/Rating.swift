/// The ratings Scout sorts by. Both are documented in `docs/data-model.md`.
public enum Rating {
    /// Prior mean of a dog's temperament rating: the middle of the 1–5 scale.
    public static let dogPriorMean = 3.0
    /// Prior weight, in ratings: a dog needs about this many ratings before its own mean
    /// outweighs the prior.
    public static let dogPriorCount = 5.0

    /// A dog's rating: the Bayesian average of its temperament ratings,
    /// (C·m + n·mean) / (C + n) with prior mean m = 3 and weight C = 5 ratings.
    /// A dog with no ratings gets 3.
    public static func bayesian(_ r: ReviewAggregate) -> Double {
        let n = Double(r.count)
        return (dogPriorCount * dogPriorMean + n * (r.mean ?? dogPriorMean)) / (dogPriorCount + n)
    }

    /// The lower bound of the Wilson score interval (95%, z = 1.96) for the share of
    /// up-votes; 0 with no votes.
    public static func wilsonLowerBound(up: Int, down: Int) -> Double {
        let n = Double(up + down)
        guard n > 0 else { return 0 }
        let z = 1.959963984540054, p = Double(up) / n, z2 = z * z
        let centre = p + z2 / (2 * n)
        let margin = z * (p * (1 - p) / n + z2 / (4 * n * n)).squareRoot()
        return max(0, (centre - margin) / (1 + z2 / n))
    }

    /// The rating of a record: the Bayesian temperament rating for dogs and reliability
    /// rating for dog lovers, the Wilson lower bound of the up-vote share for gyms, programs
    /// and articles (so a program with 3 of 3 up-votes ranks below one with 90 of 100), `nil`
    /// for kinds without ratings.
    public static func of(_ record: CatalogRecord) -> Double? {
        switch record {
        case .dog(let d): bayesian(d.temperament)
        case .lover(let l): bayesian(l.reliability)
        case .gym(let g): wilsonLowerBound(up: g.upVotes, down: g.downVotes)
        case .program(let p): wilsonLowerBound(up: p.upVotes, down: p.downVotes)
        case .article(let a): wilsonLowerBound(up: a.upVotes, down: a.downVotes)
        case .shelter, .animal, .pet, .care, .list, .other: nil
        }
    }

    /// Up- and down-votes of a record, for kinds that take votes.
    public static func votes(_ record: CatalogRecord) -> (up: Int, down: Int)? {
        switch record {
        case .gym(let g): (g.upVotes, g.downVotes)
        case .program(let p): (p.upVotes, p.downVotes)
        case .article(let a): (a.upVotes, a.downVotes)
        default: nil
        }
    }

    /// The review aggregates of a record by criterion, for kinds that take reviews.
    public static func reviews(_ record: CatalogRecord) -> [(criterion: String, aggregate: ReviewAggregate)]? {
        switch record {
        case .dog(let d): [("temperament", d.temperament), ("excitability", d.excitability), ("experience_needed", d.experienceNeeded)]
        case .lover(let l): [("reliability", l.reliability), ("care", l.care)]
        default: nil
        }
    }

    /// The name a listing sorts by: the record's name (an article's title), "" for untyped records.
    public static func name(_ record: CatalogRecord) -> String {
        switch record {
        case .dog(let d): d.name
        case .gym(let g): g.name
        case .shelter(let s): s.name
        case .animal(let a): a.animal.name
        case .article(let a): a.title
        case .program(let p): p.name
        case .lover(let l): l.name
        case .pet(let p): p.name
        case .care(let e): e.typeWords
        case .list(let l): l.name
        case .other: ""
        }
    }
}
