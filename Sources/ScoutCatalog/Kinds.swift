import ScoutCore

/// A kind of record: one of the catalogue's typed kinds, or one of a caller's own.
///
/// Every fact about a typed kind (placement, searchable text and its weights, reviews and
/// votes, rating, filter fields, value ranges, privacy) is in one table, ``definition``;
/// the engine, the filters and the worker read it there. Adding a kind is one entry in
/// ``KindDefinition/table`` plus its record type.
///
///     let near = try engine.nearest(NearestQuery(kind: .dog, from: galway, k: 5))
///     let mine: RecordKind = "parking_spot"          // a caller's own kind: untyped records
///
/// Two kinds are equal when their names are: `RecordKind("dog") == .dog`, and `.own("dog")`
/// is the dog kind too.
public enum RecordKind: Sendable, Hashable, Comparable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// Dogs of the play-date finder.
    case dog
    /// Gyms.
    case gym
    /// Animal shelters.
    case shelter
    /// Shelters' animals.
    case animal
    /// Dog lovers' profiles.
    case lover
    /// Workout programs.
    case program
    /// "Help! My pet just…" articles.
    case article
    /// Pets of the care tracker, with their owners.
    case pet
    /// Entries of a pet's care log.
    case care
    /// Users' personal lists (favourites, adopted animals).
    case list
    /// A caller's own kind, by name: records with an id, an optional place and free fields.
    case own(String)

    /// The typed kinds, in the order of ``KindDefinition/table``.
    public static let typed: [RecordKind] = [.dog, .gym, .shelter, .animal, .lover, .program, .article, .pet, .care, .list]

    /// The kind of a name: a typed kind's own case, else ``own(_:)``.
    public init(_ name: String) {
        switch name {
        case "dog": self = .dog
        case "gym": self = .gym
        case "shelter": self = .shelter
        case "animal": self = .animal
        case "lover": self = .lover
        case "program": self = .program
        case "article": self = .article
        case "pet": self = .pet
        case "care": self = .care
        case "list": self = .list
        default: self = .own(name)
        }
    }

    /// A kind written as a string literal (`"dog"`, `"parking_spot"`).
    public init(stringLiteral name: String) { self.init(name) }

    /// The kind's name, as records and requests write it.
    public var name: String {
        switch self {
        case .dog: "dog"
        case .gym: "gym"
        case .shelter: "shelter"
        case .animal: "animal"
        case .lover: "lover"
        case .program: "program"
        case .article: "article"
        case .pet: "pet"
        case .care: "care"
        case .list: "list"
        case .own(let name): name
        }
    }

    /// The kind's name.
    public var description: String { name }

    /// Everything the catalogue knows about the kind (a caller's own kind has
    /// ``KindDefinition/untyped``'s facts).
    public var definition: KindDefinition {
        switch canonical {
        case .dog: KindDefinition.table[0]
        case .gym: KindDefinition.table[1]
        case .shelter: KindDefinition.table[2]
        case .animal: KindDefinition.table[3]
        case .lover: KindDefinition.table[4]
        case .program: KindDefinition.table[5]
        case .article: KindDefinition.table[6]
        case .pet: KindDefinition.table[7]
        case .care: KindDefinition.table[8]
        case .list: KindDefinition.table[9]
        case .own: KindDefinition.untyped
        }
    }

    /// True for the catalogue's typed kinds.
    public var isTyped: Bool {
        if case .own = canonical { return false }
        return true
    }

    /// The kind with a typed kind's own case (`.own("dog")` is `.dog`).
    private var canonical: RecordKind {
        if case .own(let name) = self { return RecordKind(name) }
        return self
    }

    /// Equal names, equal kinds.
    public static func == (a: RecordKind, b: RecordKind) -> Bool { a.name == b.name }
    /// Hashes the name.
    public func hash(into h: inout Hasher) { h.combine(name) }
    /// Kinds in the order of their names.
    public static func < (a: RecordKind, b: RecordKind) -> Bool { a.name < b.name }
}

/// The one definition of a record kind: where its records are, how their text is searched,
/// what they are rated by, which filter fields and value ranges they have, and whether their
/// location leaves Scout approximately.
public struct KindDefinition: Sendable {
    /// The kind.
    public let kind: RecordKind
    /// Whether records have a place.
    public let placement: Placement
    /// The searchable text's fields and their weights, in the order the record's text is
    /// written (`Catalog.searchableText`); the synonyms the text's words bring in come last,
    /// with ``synonymWeight``.
    public let textFields: [(name: String, weight: Double)]
    /// The weight of the synonyms a record's words bring in.
    public let synonymWeight: Double
    /// The criteria reviews rate (empty: the kind takes no reviews).
    public let reviewCriteria: [String]
    /// True when records take up- and down-votes.
    public let takesVotes: Bool
    /// True when a search may sort records by their rating.
    public let isRated: Bool
    /// The fields a filter of the kind takes (`nil`: no typed fields).
    public let filterFields: [String]?
    /// The fields with value ranges a planner can count (values on the record or its breed's,
    /// that no date changes and only a new record can change).
    public let rangeFields: [String]
    /// True when records' locations are shown approximately under
    /// ``LocationPrivacy/approximate`` (a dog's location is its owner's home).
    public let hidesLocation: Bool
    /// The fields a record of the kind may carry besides `id`, `kind`, `lat` and `lon`, which
    /// answers show and a request's `fields` may name (`nil`: any name, a caller's own kinds).
    public let recordFields: [String]?
    /// Who may read records of the kind (``KindAccess``): everyone, their owners and whom they
    /// share them with, or whoever may read the record they belong to.
    public let access: KindAccess
    /// The field of a time a listing sorts by newest first (``SortOrder/newest``); `nil`
    /// when records have none.
    public let timeField: String?
    /// The record each record of the kind belongs to, and the field naming its id: a care
    /// entry's pet (`pet_id`), a shelter animal's shelter (`shelter_id`). It must exist when
    /// the record is written, and the record goes with it; so parents are written first
    /// (``writeDepth``). `nil`: records stand alone.
    public let parent: (kind: RecordKind, field: String)?

    /// A definition (see the properties for what each fact means).
    public init(kind: RecordKind, placement: Placement, textFields: [(name: String, weight: Double)], synonymWeight: Double,
                reviewCriteria: [String], takesVotes: Bool, isRated: Bool, filterFields: [String]?, rangeFields: [String],
                hidesLocation: Bool, recordFields: [String]?, access: KindAccess = .everyone, timeField: String? = nil,
                parent: (kind: RecordKind, field: String)? = nil) {
        self.kind = kind; self.placement = placement; self.textFields = textFields; self.synonymWeight = synonymWeight
        self.reviewCriteria = reviewCriteria; self.takesVotes = takesVotes; self.isRated = isRated; self.filterFields = filterFields
        self.rangeFields = rangeFields; self.hidesLocation = hidesLocation; self.recordFields = recordFields
        self.access = access; self.timeField = timeField; self.parent = parent
    }

    /// How many parents above a record of the kind (0: none). Writing kinds in ascending
    /// depth writes each parent before the records that name it (a source's tables, files).
    public var writeDepth: Int { parent.map { 1 + $0.kind.definition.writeDepth } ?? 0 }

    /// The fields that say who owns a record and who may read it (``RecordAccess``).
    public static let accessFields = ["owners", "visibility", "shared_with"]

    /// The fields written by reviews and votes (each reviewer's or voter's own entry).
    public static let feedback = [Reviews.reviewsField, Reviews.votesField]

    /// The weights of the searchable text's fields, the synonyms' last.
    public var textFieldWeights: [Double] { textFields.isEmpty ? [] : textFields.map(\.weight) + [synonymWeight] }

    /// The facts of a caller's own kind: an optional place, no text, no reviews, votes,
    /// rating, filter fields or ranges (its ``kind`` is the empty name: ask the kind itself).
    public static let untyped = KindDefinition(
        kind: .own(""), placement: .optional, textFields: [], synonymWeight: 0, reviewCriteria: [], takesVotes: false,
        isRated: false, filterFields: nil, rangeFields: [], hidesLocation: false, recordFields: nil)

    /// Every typed kind, in the order of ``RecordKind/typed``.
    public static let table: [KindDefinition] = [
        KindDefinition(
            kind: .dog, placement: .required,
            textFields: [("name", 3), ("breed", 2), ("town", 1), ("about", 1)], synonymWeight: 1,
            reviewCriteria: FilterRange.dogReviews, takesVotes: false, isRated: true,
            filterFields: ["breed", "size", "sex", "age_years", "weight_kg", "available", "owner_id", "owner_experience",
                           "temperament", "excitability", "experience_needed", "handler_experience"]
                + Breed.Trait.allCases.map(\.rawValue),
            rangeFields: ["weight_kg", "owner_experience", "available", "birth_day", "experience_needed_estimate"]
                + FilterRange.dogReviews.flatMap { [$0, $0 + "_count"] } + Breed.Trait.allCases.map(\.rawValue),
            hidesLocation: true,
            recordFields: ["name", "breed", "birth_date", "sex", "weight_kg", "owner_id", "owner_experience", "about", "reviews",
                           "available", "town", "country"] + feedback),
        KindDefinition(
            kind: .gym, placement: .required,
            textFields: [("name", 3), ("type", 1), ("town", 2)], synonymWeight: 1,
            reviewCriteria: [], takesVotes: true, isRated: true,
            filterFields: ["type", "open_at", "votes_up", "rating"], rangeFields: ["votes_up", "rating"], hidesLocation: false,
            recordFields: ["name", "type", "address", "votes", "opening_hours", "timezone"] + feedback),
        KindDefinition(
            kind: .shelter, placement: .required,
            textFields: [("name", 3), ("description", 1), ("town", 2), ("animal names", 2), ("species", 1), ("marks", 1)],
            synonymWeight: 1, reviewCriteria: [], takesVotes: false, isRated: false,
            filterFields: ["type", "animal"], rangeFields: [], hidesLocation: false,
            recordFields: ["name", "type", "description", "address", "contact", "animals"]),
        KindDefinition(
            kind: .animal, placement: .required,
            textFields: [("name", 3), ("species", 2), ("marks", 1), ("description", 1), ("town", 1), ("traits", 2)], synonymWeight: 1,
            reviewCriteria: [], takesVotes: false, isRated: false,
            filterFields: ["shelter_id"] + RecordFilter.animalFields, rangeFields: [], hidesLocation: false,
            recordFields: ["shelter_id", "species", "name", "sex", "age_years", "size", "marks", "description", "adoptable",
                           "town", "country"], parent: (.shelter, "shelter_id")),
        KindDefinition(
            kind: .lover, placement: .none,
            textFields: [("name", 3), ("town", 1), ("about", 1)], synonymWeight: 1,
            reviewCriteria: ["reliability", "care"], takesVotes: false, isRated: true,
            filterFields: ["experience", "activity_level", "vetted", "other_pets", "reliability", "care", "country"],
            rangeFields: [], hidesLocation: false,
            recordFields: ["name", "experience", "activity_level", "other_pets", "vetted", "about", "town", "country", "reviews"] + feedback),
        KindDefinition(
            kind: .program, placement: .none,
            textFields: [("name", 3), ("goal and level", 2), ("exercises", 1), ("description", 1)], synonymWeight: 1,
            reviewCriteria: [], takesVotes: true, isRated: true,
            filterFields: ["goal", "level", "weeks", "days_per_week", "author", "rating", "votes_up"], rangeFields: [],
            hidesLocation: false,
            recordFields: ["name", "goal", "level", "weeks", "days_per_week", "session_minutes", "description", "exercises", "author", "votes"] + feedback
                + accessFields,
            access: .owned(required: false)),
        KindDefinition(
            kind: .article, placement: .none,
            textFields: [("title", 3), ("situation", 3), ("keywords", 2), ("summary", 1), ("body", 1)], synonymWeight: 1,
            reviewCriteria: [], takesVotes: true, isRated: true,
            filterFields: ["species", "urgency", "rating"], rangeFields: [], hidesLocation: false,
            recordFields: ["title", "situation", "species", "urgency", "summary", "body", "keywords", "source", "votes"] + feedback),
        KindDefinition(
            kind: .pet, placement: .none,
            textFields: [("name", 3), ("species", 2), ("breed", 2)], synonymWeight: 1,
            reviewCriteria: [], takesVotes: false, isRated: false,
            filterFields: ["species", "owner"], rangeFields: [], hidesLocation: false,
            recordFields: nil, access: .owned(required: true)),
        KindDefinition(
            kind: .care, placement: .none,
            textFields: [("comment", 2), ("type", 1)], synonymWeight: 1,
            reviewCriteria: [], takesVotes: false, isRated: false,
            filterFields: ["pet_id", "owner", "type", "start", "logged_by", "verdict"], rangeFields: [], hidesLocation: false,
            recordFields: ["pet_id", "type", "label", "start", "minutes", "comment", "logged_by", "verdict", "recommendation"],
            access: .through(kind: .pet, field: "pet_id"), timeField: "start", parent: (.pet, "pet_id")),
        KindDefinition(
            kind: .list, placement: .none,
            textFields: [("name", 1)], synonymWeight: 1,
            reviewCriteria: [], takesVotes: false, isRated: false,
            filterFields: ["owner", "item_kind"], rangeFields: [], hidesLocation: false,
            recordFields: ["name", "item_kind", "items"] + accessFields, access: .owned(required: true)),
    ]
}
