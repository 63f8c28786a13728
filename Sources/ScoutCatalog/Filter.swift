import ScoutCore
import ScoutText
import ScoutTime
import Synchronization

/// A typed record as the catalogue knows it.
public enum CatalogRecord: Sendable {
    /// A dog (kind `dog`).
    case dog(Dog)
    /// A gym (kind `gym`).
    case gym(Gym)
    /// A shelter with its animals (kind `shelter`).
    case shelter(Shelter)
    /// A shelter's animal (kind `animal`).
    case animal(ShelterAnimal)
    /// A help article (kind `article`, no place).
    case article(Article)
    /// A workout program (kind `program`, no place).
    case program(Program)
    /// A dog lover's profile (kind `lover`, no place).
    case lover(Lover)
    /// A record of any other kind: no typed fields.
    case other
}

/// A predicate over typed records, compiled from a request's `"filter"` object.
///
/// Every field takes an exact value, a list (any of) or, for numbers, `{"min", "max"}`
/// (inclusive, either optional). Fields per kind are listed in `docs/data-model.md`; an
/// unknown field is an error naming it. Filters run inside the spatial traversal.
public struct RecordFilter: Sendable {
    private let tests: [@Sendable (CatalogRecord) -> Bool]
    /// Categorical conditions the filter implies, for query planning: a record that
    /// matches the filter has one of each key's values (folded). Empty when none is known.
    public let keys: [FilterKey]
    /// Numeric conditions the filter implies, for query planning: a record that matches the
    /// filter has a value of each range's field within it. Empty when none is known.
    public let ranges: [FilterRange]
    /// The filter as it was given — kind, the date ages are computed on, and its JSON —
    /// for caching what it selects; two filters with the same signature select the same
    /// records. `nil` for filters built in Swift and for filters longer than
    /// ``maximumSignatureBytes``.
    public let signature: String?
    /// Longest filter JSON, in bytes, that gets a ``signature`` (longer ones are never cached).
    public static let maximumSignatureBytes = 4096
    /// This filter's identity in the process: its copies share it, and no other filter
    /// (another parse of the same JSON included) has it. A filter never changes once made,
    /// so what it selects at a snapshot can be remembered by this number (the engine
    /// remembers the plans of the filters last asked this way).
    public let instance: UInt64

    /// A filter that keeps everything.
    public static let all = RecordFilter(conditions: [])

    /// A filter of compiled conditions (the typed builders in `FilterBuilders.swift`, the
    /// JSON parser in ScoutCatalogJSON, which passes the ``signature`` it computed).
    package init(conditions: [@Sendable (CatalogRecord) -> Bool], keys: [FilterKey] = [], ranges: [FilterRange] = [],
                 signature: String? = nil) {
        tests = conditions
        self.keys = keys
        self.ranges = ranges
        self.signature = signature
        instance = filterInstances.add(1, ordering: .relaxed).newValue
    }

    /// True when the record passes every condition.
    public func matches(_ record: CatalogRecord) -> Bool { tests.allSatisfy { $0(record) } }

    /// True when there is no condition.
    public var isEmpty: Bool { tests.isEmpty }

    /// This filter with one more condition (the recommender's hard filters).
    public func and(_ test: @escaping @Sendable (CatalogRecord) -> Bool) -> RecordFilter {
        RecordFilter(conditions: tests + [test], keys: keys, ranges: ranges)
    }

    /// The fields an animal condition (inside a shelter filter, and of an `animal` record) takes.
    public static let animalFields = ["species", "age_years", "size", "sex", "adoptable", "marks"]

    /// The fields a filter of a kind takes (`nil`: the kind has no typed fields;
    /// ``KindDefinition/filterFields``).
    public static func fields(kind: String) -> [String]? { RecordKind(kind).definition.filterFields }
}

/// The last ``RecordFilter/instance`` handed out.
private let filterInstances = Atomic<UInt64>(0)

/// A categorical condition a filter implies, by which a query planner can find the
/// matching records from posting lists instead of testing every record.
public enum FilterKey: Sendable, Hashable {
    /// A dog's breed profile or given breed name, folded, is one of these.
    case dogBreed(Set<String>)
    /// A dog's owner id is one of these.
    case dogOwner(Set<String>)
    /// An animal record's shelter id is one of these.
    case animalShelter(Set<String>)
    /// An animal record's species is one of these.
    case animalSpecies(Set<String>)

    /// The key's field name (`breed`, `owner_id`, `shelter_id`, `species`).
    public var field: String {
        switch self {
        case .dogBreed: "breed"
        case .dogOwner: "owner_id"
        case .animalShelter: "shelter_id"
        case .animalSpecies: "species"
        }
    }

    /// The values a matching record has one of.
    public var values: Set<String> {
        switch self {
        case .dogBreed(let v), .dogOwner(let v), .animalShelter(let v), .animalSpecies(let v): v
        }
    }

    /// The values of this key's field a record has (empty for records the key is not about).
    public static func values(of record: CatalogRecord, field: String) -> [String] {
        switch (record, field) {
        case (.dog(let d), "breed"):
            let a = d.breed.foldedName, b = d.foldedBreedName
            return a == b ? [a] : [a, b]
        case (.dog(let d), "owner_id"): return [d.ownerID]
        case (.animal(let a), "shelter_id"): return [a.shelterID]
        case (.animal(let a), "species"): return [a.animal.species]
        default: return []
        }
    }
}

/// A numeric condition a filter implies, by which a query planner can count the matching
/// records from a column of the field's values before searching: a record that matches the
/// filter has a value of ``field`` within ``lower`` ... ``upper`` (a list of values gives
/// its smallest and largest; `available` is 1 or 0). A dog's age, which depends on the day
/// asked, is a range of `birth_day` (``ofAge(_:on:)``).
public struct FilterRange: Sendable, Hashable {
    /// The field (one of ``fields(kind:)``).
    public let field: String
    /// Smallest value a matching record may have.
    public let lower: Double
    /// Largest value a matching record may have.
    public let upper: Double

    /// The range `lower ... upper` of a field.
    public init(field: String, lower: Double, upper: Double) {
        self.field = field
        self.lower = lower
        self.upper = upper
    }

    /// Whether a value lies in the range (never for NaN, a record without the field).
    @inline(__always) public func contains(_ x: Double) -> Bool { x >= lower && x <= upper }

    /// The ranges a review condition's matches lie in: at least `minCount` ratings, and a mean
    /// in `means` (none for the mean when the condition also takes a dog without ratings,
    /// that is when `minCount` is 0 and `means` spans the whole 1–5 scale).
    public static func ofReview(_ name: String, means: ClosedRange<Double>, minCount: Int) -> [FilterRange] {
        var ranges: [FilterRange] = []
        if !(minCount == 0 && means.lowerBound <= 1 && means.upperBound >= 5) {
            ranges.append(FilterRange(field: name, lower: means.lowerBound, upper: means.upperBound))
        }
        if minCount > 1 { ranges.append(FilterRange(field: name + "_count", lower: Double(minCount), upper: .infinity)) }
        return ranges
    }

    /// The range of `birth_day` (days since 1970-01-01) of the dogs whose age on `today`
    /// (``Dog/ageYears(on:)``) lies in `years`, widened by a day each side so that rounding
    /// never leaves a matching dog out.
    public static func ofAge(_ years: ClosedRange<Double>, on today: LocalDate) -> FilterRange {
        let t = Double(today.daysSinceEpoch)
        return FilterRange(field: "birth_day", lower: t - years.upperBound * 365.2425 - 1, upper: t - years.lowerBound * 365.2425 + 1)
    }

    /// The review aggregates of a dog whose conditions have ranges: each gives a field of its
    /// mean (NaN without ratings) and one of its count (`<name>_count`).
    public static let dogReviews = ["temperament", "excitability", "experience_needed"]

    /// The fields of a kind that have ranges: values stored on the record (or its breed's,
    /// fixed when the record is loaded), that no date changes and only a new record (a
    /// review replaces the record) can change (``KindDefinition/rangeFields``).
    public static func fields(kind: String) -> [String] { RecordKind(kind).definition.rangeFields }

    /// A record's value of a field of ``fields(kind:)``; NaN for a record of another kind
    /// (or a review mean without ratings).
    public static func value(of record: CatalogRecord, field: String) -> Double {
        switch (record, field) {
        case (.dog(let d), "weight_kg"): d.weightKg
        case (.dog(let d), "owner_experience"): Double(d.ownerExperience)
        case (.dog(let d), "available"): d.available ? 1 : 0
        case (.dog(let d), "birth_day"): Double(d.birthDate.daysSinceEpoch)
        case (.dog(let d), "experience_needed_estimate"): d.experienceNeededEstimate
        case (.dog(let d), "temperament"): d.temperament.mean ?? .nan
        case (.dog(let d), "temperament_count"): Double(d.temperament.count)
        case (.dog(let d), "excitability"): d.excitability.mean ?? .nan
        case (.dog(let d), "excitability_count"): Double(d.excitability.count)
        case (.dog(let d), "experience_needed"): d.experienceNeeded.mean ?? .nan
        case (.dog(let d), "experience_needed_count"): Double(d.experienceNeeded.count)
        case (.dog(let d), _): Breed.Trait(rawValue: field).map { Double(d.breed[$0]) } ?? .nan
        case (.gym(let g), "votes_up"): Double(g.upVotes)
        case (.gym(let g), "rating"): Rating.wilsonLowerBound(up: g.upVotes, down: g.downVotes)
        default: .nan
        }
    }
}
