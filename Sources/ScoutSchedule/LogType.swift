import ScoutCore

/// The care every pet gets, whatever its species: what a care log records and a reminder
/// reminds of besides the activities of the catalogue.
///
/// ```swift
/// CareType(rawValue: "vet_visit")   // .vetVisit
/// CareType.vetVisit.words           // "vet visit"
/// ```
public enum CareType: String, Sendable, CaseIterable {
    /// A meal (or fresh food: greens for a rabbit, vegetables for a guinea pig).
    case feeding
    /// A walk.
    case walk
    /// A visit to the vet.
    case vetVisit = "vet_visit"
    /// Brushing, bathing, trimming.
    case grooming
    /// A dose of medicine.
    case medication
    /// Anything else the owner wants in the log.
    case other

    /// The type in an owner's words ("vet visit").
    public var words: String { self == .vetVisit ? "vet visit" : rawValue }
}

/// What a log entry or a reminder is about: one of the ``CareType``s, or an activity of
/// the catalogue by its id (`brisk_walk`).
///
/// ```swift
/// let vocabulary = LogTypeVocabulary(activityIDs: ["brisk_walk", "fetch"])
/// try vocabulary.read("feeding", path: "log[0].type")      // .care(.feeding)
/// try vocabulary.read("fetch", path: "log[1].type")        // .activity("fetch")
/// try vocabulary.read("feedin", path: "log[2].type")       // invalid_request … (did you mean "feeding"?)
/// ```
public enum LogType: Sendable, Hashable, CustomStringConvertible {
    /// A care type.
    case care(CareType)
    /// An activity of the catalogue, by id.
    case activity(String)

    /// The word on the wire: the care type's raw value or the activity's id.
    public var word: String {
        switch self {
        case .care(let c): c.rawValue
        case .activity(let id): id
        }
    }

    /// The care type, when it is one.
    public var careType: CareType? { if case .care(let c) = self { c } else { nil } }

    /// The activity id, when it is one.
    public var activityID: String? { if case .activity(let id) = self { id } else { nil } }

    /// ``word``.
    public var description: String { word }
}

/// The words a log entry's or a reminder's `type` may take: the six ``CareType``s, then the
/// activity ids of a catalogue. A care word wins over an activity of the same id (the
/// shipped catalogue has none).
public struct LogTypeVocabulary: Sendable {
    /// The care types only: what a caller without an activity catalogue can check.
    public static let careTypes = LogTypeVocabulary(activityIDs: [])

    /// The activity ids, in the order given.
    public let activityIDs: [String]
    private let activitySet: Set<String>

    /// A vocabulary of the care types and these activity ids.
    public init(activityIDs: [String]) {
        self.activityIDs = activityIDs
        activitySet = Set(activityIDs)
    }

    /// Every word, care types first.
    public var words: [String] { CareType.allCases.map(\.rawValue) + activityIDs }

    /// The type a word names, or `nil` when the vocabulary does not know it.
    /// - Complexity: O(1) expected.
    public func type(_ word: String) -> LogType? {
        if let c = CareType(rawValue: word) { return .care(c) }
        return activitySet.contains(word) ? .activity(word) : nil
    }

    /// The type a word names; an unknown word is `invalid_request` at `path` naming the
    /// closest known words (the word itself is never repeated).
    /// - Complexity: O(1) expected for a known word; O(n) edit distances over the n words
    ///   for an unknown one.
    public func read(_ word: String, path: String) throws(ScoutError) -> LogType {
        if let t = type(word) { return t }
        let care = CareType.allCases.map(\.rawValue).joined(separator: ", ")
        let activities = activityIDs.isEmpty ? "" : ", or an activity id (docs/activities.md)"
        throw ScoutError(.invalidRequest, "unknown type\(Suggestions.hint(for: word, among: words)); types are \(care)\(activities)",
                         path: path)
    }
}
