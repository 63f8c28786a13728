
/// One term of a ranked item's score: its value (0–1), its weight, and what it adds.
/// Activities, dogs and gyms all report their scores in this form.
public struct ScoreTerm: Sendable, Equatable {
    /// The term's name (`needs_gap`, `distance`…).
    public let name: String
    /// The term's value, 0 (worst) to 1 (best).
    public let value: Double
    /// Its weight in the score.
    public let weight: Double

    /// Creates a term.
    public init(name: String, value: Double, weight: Double) {
        self.name = name
        self.value = value
        self.weight = weight
    }

    /// `value × weight`: what the term adds to the score.
    public var contribution: Double { value * weight }
}

/// A score as the sum of its terms.
public struct ScoreBreakdown: Sendable, Equatable {
    /// The terms, in a fixed order per kind of item.
    public let terms: [ScoreTerm]

    /// Creates a breakdown.
    public init(_ terms: [ScoreTerm]) { self.terms = terms }

    /// The sum of the contributions.
    public var score: Double { terms.reduce(0) { $0 + $1.contribution } }
}
