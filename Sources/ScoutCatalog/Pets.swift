import ScoutCore
import ScoutSchedule
import ScoutText
import ScoutTime

/// Who may read a record that belongs to users: its owners always; others as its
/// ``visibility`` says. Scout is not an auth server: the caller's user id comes from the
/// trusted backend that calls it (`docs/data-model.md`, "Owners and visibility").
///
/// ```swift
/// let mine = RecordAccess(owners: ["u-anna", "u-tom"])                  // private to Anna and Tom
/// mine.isVisible(to: "u-tom")                                          // true
/// mine.isVisible(to: "u-eve")                                          // false
/// RecordAccess(owners: ["u-anna"], visibility: .shared(["u-eve"])).isVisible(to: "u-eve")   // true
/// ```
public struct RecordAccess: Sendable, Hashable {
    /// Who besides the owners may read a record.
    public enum Visibility: Sendable, Hashable {
        /// The owners only (the default).
        case `private`
        /// The owners and these users.
        case shared(Set<String>)
        /// Everyone.
        case `public`

        /// The word on the wire: `private`, `shared` or `public`.
        public var word: String {
            switch self {
            case .private: "private"
            case .shared: "shared"
            case .public: "public"
            }
        }

        /// The words of the visibilities.
        public static let words = ["private", "shared", "public"]
    }

    /// The owners' user ids (at least one), who may read and change the record.
    public let owners: [String]
    /// Who else may read it.
    public let visibility: Visibility

    /// Most owners of one record, and most users one record is shared with.
    public static let maximumUsers = 64

    /// A record of these owners, readable as `visibility` says.
    public init(owners: [String], visibility: Visibility = .private) {
        self.owners = owners
        self.visibility = visibility
    }

    /// True when `user` owns the record.
    @inline(__always) public func isOwned(by user: String?) -> Bool {
        guard let user else { return false }
        return owners.contains(user)
    }

    /// True when `user` owns the record or it is shared with them (whatever else may read it).
    @inline(__always) public func isMember(_ user: String?) -> Bool {
        if isOwned(by: user) { return true }
        if case .shared(let users) = visibility, let user { return users.contains(user) }
        return false
    }

    /// True when `user` (`nil`: a caller who names no user) may read the record.
    @inline(__always) public func isVisible(to user: String?) -> Bool { visibility == .public || isMember(user) }
}

/// Whose records of a kind are, and so who may read them (``KindDefinition/access``).
public enum KindAccess: Sendable, Equatable {
    /// Everyone reads every record (the catalogue's public kinds).
    case everyone
    /// Records carry `owners` and `visibility` (``RecordAccess``): required (pets, personal
    /// lists) or optional (a user's own copy of a program; a record without owners is public).
    case owned(required: Bool)
    /// A record is readable by whoever may read the record its field names, of the kind
    /// named (a care entry through its pet).
    case through(kind: RecordKind, field: String)
}

/// A pet of the care tracker (kind `pet`, without a place): belongs to one or more owners,
/// who share its care log. A class, like ``Dog``.
public final class Pet: Sendable {
    /// Its name.
    public let name: String
    /// Its species word (canonical when the species table knows it: `dog`, `cat`; any word is accepted).
    public let species: String
    /// Its breed as given ("" when not given).
    public let breedName: String
    /// Birth date, when known.
    public let birthDate: LocalDate?
    /// Weight in kg, when known.
    public let weightKg: Double?
    /// Stated health conditions (the recommender's words: `arthritis`, `heart_condition`, …).
    public let conditions: [String]
    /// Microchip number ("" when not given).
    public let microchip: String
    /// Who owns it and who else may see it.
    public let access: RecordAccess

    /// Creates a pet from checked values.
    public init(name: String, species: String, breedName: String = "", birthDate: LocalDate? = nil, weightKg: Double? = nil,
                conditions: [String] = [], microchip: String = "", access: RecordAccess) {
        self.name = name; self.species = species; self.breedName = breedName; self.birthDate = birthDate
        self.weightKg = weightKg; self.conditions = conditions; self.microchip = microchip; self.access = access
    }
}

/// One entry of a pet's care log (kind `care`, without a place): what was done for the pet,
/// when, for how long, by whom, and (for an activity the recommender offered) how the pet
/// took it. Readable by whoever may read its pet. A class, like ``Dog``.
public final class CareEntry: Sendable {
    /// The pet's id (a `pet` record).
    public let petID: String
    /// What was done: a care type (`feeding`, `walk`, `vet_visit`, `grooming`, `medication`,
    /// `other`) or an activity id of the recommender's catalogue (``LogType``).
    public let type: LogType
    /// The owner's own word for an `other` entry ("nail trim"); "" otherwise.
    public let label: String
    /// When it started.
    public let start: Instant
    /// How long it lasted, in minutes (0 when not said).
    public let minutes: Double
    /// A comment ("ate half, left the carrots").
    public let comment: String
    /// The user id of who logged it.
    public let loggedBy: String
    /// How the pet took it, for an activity (`nil` when not said).
    public let verdict: String?
    /// The recommendation it answers (an offer's id), when it answers one.
    public let recommendation: String?

    /// The verdicts an entry may carry (the recommender's enjoyment words).
    public static let verdicts = ["enjoyed", "neutral", "disliked"]
    /// The latest start accepted, ahead of the moment an entry is written: a day.
    public static let maximumLeadSeconds: Int64 = 86_400
    /// Longest comment, in bytes.
    public static let maximumCommentBytes = 4096

    /// Creates an entry from checked values.
    public init(petID: String, type: LogType, label: String = "", start: Instant, minutes: Double = 0, comment: String = "",
                loggedBy: String, verdict: String? = nil, recommendation: String? = nil) {
        self.petID = petID; self.type = type; self.label = label; self.start = start; self.minutes = minutes
        self.comment = comment; self.loggedBy = loggedBy; self.verdict = verdict; self.recommendation = recommendation
    }

    /// The type in an owner's words, searched with the comment: "vet visit", an `other`
    /// entry's label, an activity's id with spaces.
    public var typeWords: String {
        switch type {
        case .care(.other): label.isEmpty ? "other" : label
        case .care(let c): c.words
        case .activity(let id): id.replacingOccurrences(of: "_", with: " ")
        }
    }
}

/// A user's personal list (kind `list`, without a place): records of one kind by id — the
/// gym app's favourite gyms, the shelter app's adopted animals, the programs a user follows.
/// A class, like ``Dog``.
public final class PersonalList: Sendable {
    /// The list's name ("Adopted", "Favourite gyms").
    public let name: String
    /// The kind of the records it lists.
    public let itemKind: String
    /// The listed records' ids, in the owner's order.
    public let items: [String]
    /// Who owns it and who else may see it.
    public let access: RecordAccess

    /// Most items in one list.
    public static let maximumItems = 10_000

    /// Creates a list from checked values.
    public init(name: String, itemKind: String, items: [String], access: RecordAccess) {
        self.name = name; self.itemKind = itemKind; self.items = items; self.access = access
    }
}
