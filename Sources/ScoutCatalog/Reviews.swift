import ScoutCore

/// One reviewer's review of a record, as kept in the record's `reviews_by` field.
///
/// A record's shown aggregates combine the ratings it was loaded with (`reviews`, from
/// elsewhere and anonymous) with every entry of `reviews_by`, one per reviewer: a new review
/// by the same reviewer replaces the old one, so a retried request counts once.
public struct ReviewEntry: Sendable, Equatable {
    /// Who wrote it.
    public let reviewer: String
    /// Stars per criterion, 1–5, sorted by criterion.
    public let ratings: [(criterion: String, stars: Int)]
    /// Free text ("" when none).
    public let text: String

    /// Creates an entry; `ratings` are sorted by criterion.
    public init(reviewer: String, ratings: [(criterion: String, stars: Int)], text: String) {
        self.reviewer = reviewer
        self.ratings = ratings.sorted { $0.criterion < $1.criterion }
        self.text = text
    }

    /// The stars given for a criterion, or `nil`.
    public func stars(_ criterion: String) -> Int? { ratings.first { $0.criterion == criterion }?.stars }

    public static func == (a: ReviewEntry, b: ReviewEntry) -> Bool {
        a.reviewer == b.reviewer && a.text == b.text && a.ratings.elementsEqual(b.ratings) { $0 == $1 }
    }
}

/// Reviews, votes and the criteria each kind is reviewed on.
public enum Reviews {
    /// The field holding one entry per reviewer.
    public static let reviewsField = "reviews_by"
    /// The field holding one vote per voter.
    public static let votesField = "votes_by"
    /// Longest review text, in bytes.
    public static let maximumTextBytes = 4096
    /// Longest reviewer or voter id, in bytes.
    public static let maximumReviewerBytes = 256
    /// Most reviews or votes one record keeps.
    public static let maximumEntries = 100_000

    /// The criteria reviews of a kind rate (empty: the kind takes no reviews;
    /// ``KindDefinition/reviewCriteria``).
    public static func criteria(kind: String) -> [String] { RecordKind(kind).definition.reviewCriteria }

    /// True when records of the kind take up- and down-votes (``KindDefinition/takesVotes``).
    public static func takesVotes(kind: String) -> Bool { RecordKind(kind).definition.takesVotes }

    /// A loaded aggregate with the reviewers' own ratings of one criterion added.
    public static func combined(_ base: ReviewAggregate, _ entries: [ReviewEntry], criterion: String) -> ReviewAggregate {
        var sum = (base.mean ?? 0) * Double(base.count), n = base.count
        for e in entries { if let s = e.stars(criterion) { sum += Double(s); n += 1 } }
        return n == 0 ? .none : ReviewAggregate(mean: sum / Double(n), count: n)
    }

    /// The lower bound of the 95% Wilson interval of a 1–5 mean, on the same scale: the
    /// stars mapped to a share ((mean − 1) / 4) with `count` trials, and back. 1 with no ratings.
    public static func wilsonLowerBound(_ a: ReviewAggregate) -> Double {
        guard let mean = a.mean, a.count > 0 else { return 1 }
        let n = Double(a.count), p = min(1, max(0, (mean - 1) / 4))
        let z = 1.959963984540054, z2 = z * z
        let centre = p + z2 / (2 * n)
        let margin = z * (p * (1 - p) / n + z2 / (4 * n * n)).squareRoot()
        return 1 + 4 * max(0, (centre - margin) / (1 + z2 / n))
    }
}
