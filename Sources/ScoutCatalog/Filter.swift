import ScoutCore
import ScoutText
import ScoutTime

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
    /// A pet of the care tracker (kind `pet`, no place).
    case pet(Pet)
    /// An entry of a pet's care log (kind `care`, no place).
    case care(CareEntry)
    /// A user's personal list (kind `list`, no place).
    case list(PersonalList)
    /// A record of any other kind: no typed fields.
    case other

    /// Who owns the record and who else may read it, for a record that belongs to users (a
    /// pet, a personal list, a user's copy of a program); `nil` for a public record. A care
    /// entry has none of its own: it is read through its pet (``KindAccess/through(kind:field:)``).
    public var access: RecordAccess? {
        switch self {
        case .pet(let p): p.access
        case .list(let l): l.access
        case .program(let p): p.access
        default: nil
        }
    }

    /// The record's time, newest first in a listing (``KindDefinition/timeField``: a care
    /// entry's start); `nil` for kinds without one.
    public var time: Instant? {
        if case .care(let e) = self { return e.start }
        return nil
    }
}

/// A predicate over typed records: every one of its ``conditions`` holds.
///
/// A value: two filters of the same conditions (in any order) are equal, hash alike and
/// share the engine's cached plans and bitmaps, whether they were built in Swift
/// (``dogs(_:breeds:)`` and the other builders) or read from a request's `"filter"` object
/// (`RecordFilter.parse` in ScoutCatalogJSON, which translates JSON into the same conditions).
/// Fields per kind are listed in `docs/data-model.md`. Filters run inside the spatial traversal.
public struct RecordFilter: Sendable, Hashable {
    /// The conditions, each about one kind's records.
    public let conditions: [FilterCondition]
    /// Categorical conditions the filter implies, for query planning: a record that
    /// matches the filter has one of each key's values (folded). Empty when none is known.
    public let keys: [FilterKey]
    /// Numeric conditions the filter implies, for query planning: a record that matches the
    /// filter has a value of each range's field within it. Empty when none is known.
    public let ranges: [FilterRange]
    /// About how many bytes the conditions hold; filters above ``maximumCachedBytes`` are never cached.
    public let bytes: Int
    /// The conditions' hash, whatever their order (computed once: caches look filters up per query).
    private let conditionsHash: Int

    /// Largest filter, in bytes (of its conditions, or of its JSON), that caches keep.
    public static let maximumCachedBytes = 4096

    /// A filter that keeps everything.
    public static let all = RecordFilter([])

    /// A filter of these conditions (values already checked: the builders and the JSON
    /// reader check them, with the error naming what was wrong).
    public init(_ conditions: [FilterCondition]) {
        self.conditions = conditions
        keys = conditions.compactMap(\.key)
        ranges = conditions.flatMap(\.ranges)
        bytes = conditions.reduce(0) { $0 + $1.bytes }
        conditionsHash = conditions.reduce(conditions.count) { $0 &+ $1.hashValue }
    }

    /// True when the record passes every condition.
    @inline(__always) public func matches(_ record: CatalogRecord) -> Bool { conditions.allSatisfy { $0.matches(record) } }

    /// True when there is no condition.
    public var isEmpty: Bool { conditions.isEmpty }

    /// This filter with more conditions (a ranker's hard rules on top of a caller's filter).
    public func adding(_ more: [FilterCondition]) -> RecordFilter { RecordFilter(conditions + more) }

    /// Equal when both have the same conditions, in any order.
    public static func == (a: RecordFilter, b: RecordFilter) -> Bool {
        guard a.conditionsHash == b.conditionsHash, a.conditions.count == b.conditions.count else { return false }
        if a.conditions == b.conditions { return true }
        var rest = b.conditions
        for c in a.conditions {
            guard let i = rest.firstIndex(of: c) else { return false }
            rest.remove(at: i)
        }
        return true
    }

    /// Hashes the conditions' order-free hash.
    public func hash(into h: inout Hasher) { h.combine(conditionsHash) }

    /// The fields an animal condition (inside a shelter filter, and of an `animal` record) takes.
    public static let animalFields = ["species", "age_years", "size", "sex", "adoptable", "marks"]

    /// The fields a filter of a kind takes (`nil`: the kind has no typed fields;
    /// ``KindDefinition/filterFields``).
    public static func fields(kind: String) -> [String]? { RecordKind(kind).definition.filterFields }
}

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
        case (.dog(let d), "owner_id"): return d.ownerID.map { [$0] } ?? []
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

    /// The range of a numeric condition's matches: `field` within its ``NumberMatch/bounds``.
    static func of(_ field: String, _ m: NumberMatch) -> [FilterRange] {
        m.bounds.map { [FilterRange(field: field, lower: $0.lowerBound, upper: $0.upperBound)] } ?? []
    }

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
    public static let dogReviews = DogReview.allCases.map(\.rawValue)

    /// The fields of a kind that have ranges: values stored on the record (or its breed's,
    /// fixed when the record is loaded), that no date changes and only a new record (a
    /// review replaces the record) can change (``KindDefinition/rangeFields``).
    public static func fields(kind: String) -> [String] { RecordKind(kind).definition.rangeFields }

    /// A record's value of a field of ``fields(kind:)``; NaN for a record of another kind
    /// (or a review mean without ratings).
    public static func value(of record: CatalogRecord, field: String) -> Double {
        switch (record, field) {
        case (.dog(let d), "weight_kg"): d.weightKg ?? .nan
        case (.dog(let d), "owner_experience"): d.ownerExperience.map(Double.init) ?? .nan
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
