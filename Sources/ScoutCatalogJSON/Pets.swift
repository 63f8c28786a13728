import Foundation
import ScoutCatalog
import ScoutCore
import ScoutJSON
import ScoutSchedule
import ScoutTime

// The JSON forms of the care tracker's records and of owners and visibility (`Pets.swift` of
// ScoutCatalog).

extension RecordAccess {
    /// Reads `owners` (a list of user ids), `visibility` (`private`, the default; `shared`;
    /// `public`) and `shared_with` (the users of `shared`). Returns `nil` when the record
    /// names no owners and `required` is false (a public record); then `visibility` and
    /// `shared_with` are refused.
    static func read(_ f: FieldReader, required: Bool) throws(ScoutError) -> RecordAccess? {
        guard f["owners"] != nil else {
            if required { throw ScoutError(.invalidRequest, "owners is required: the user ids of the record's owners", path: f.at("owners")) }
            for key in ["visibility", "shared_with"] where f[key] != nil {
                throw ScoutError(.invalidRequest, "\(key) needs owners: a record without owners is public", path: f.at(key))
            }
            return nil
        }
        let owners = try users(f, "owners")
        guard !owners.isEmpty else { throw ScoutError(.invalidRequest, "owners must name at least one user id", path: f.at("owners")) }
        let visibility: Visibility
        switch try f.oneOf("visibility", Visibility.words, default: "private") {
        case "shared":
            guard f["shared_with"] != nil else {
                throw ScoutError(.invalidRequest, "shared_with is required with visibility shared: the user ids it is shared with",
                                 path: f.at("shared_with"))
            }
            visibility = .shared(Set(try users(f, "shared_with")))
        case "public": visibility = .public
        default: visibility = .private
        }
        if f["shared_with"] != nil && visibility.word != "shared" {
            throw ScoutError(.invalidRequest, "shared_with goes with visibility shared", path: f.at("shared_with"))
        }
        return RecordAccess(owners: owners, visibility: visibility)
    }

    /// A list of 0 to ``maximumUsers`` user ids (non-empty strings of at most 256 bytes), each once.
    private static func users(_ f: FieldReader, _ key: String) throws(ScoutError) -> [String] {
        var out: [String] = []
        for (i, v) in try f.array(key, maxCount: maximumUsers).enumerated() {
            guard let s = v.string, !s.isEmpty, s.utf8.count <= 256 else {
                throw ScoutError(.invalidRequest, "\(key) holds user ids: non-empty strings of at most 256 bytes", path: f.at("\(key)[\(i)]"))
            }
            if !out.contains(s) { out.append(s) }
        }
        return out
    }
}

extension Pet {
    /// Reads a pet: `name`, `species` (a species name in English or Polish, or any species
    /// word), `owners` (and `visibility`) required; `breed`, `birth_date`, `weight_kg`,
    /// `conditions`, `microchip` optional; any other field is kept as the owner's own.
    public static func read(_ fields: [(String, JSONValue)], species names: SpeciesNames, path: String) throws(ScoutError) -> Pet {
        let f = FieldReader(fields, path: path)
        var conditions: [String] = []
        for (i, v) in try f.array("conditions", maxCount: 32).enumerated() {
            guard let s = v.string, !s.isEmpty, s.utf8.count <= 64 else {
                throw ScoutError(.invalidRequest, "conditions holds words of at most 64 bytes", path: f.at("conditions[\(i)]"))
            }
            conditions.append(s)
        }
        try Reminder.checkPets(f, types: nil)
        return Pet(name: try f.string("name", maxBytes: 256), species: try names.read(f, "species"),
                   breedName: try f.optionalString("breed", maxBytes: 128) ?? "",
                   birthDate: try f.optionalString("birth_date", maxBytes: 32).map { (t) throws(ScoutError) in
                       try LocalDate.parse(t, path: f.at("birth_date")) },
                   weightKg: try f.optionalNumber("weight_kg", in: 0.01...2000), conditions: conditions,
                   microchip: try f.optionalString("microchip", maxBytes: 64) ?? "",
                   access: try RecordAccess.read(f, required: true)!)
    }
}

extension LogType {
    /// A care type or an activity id: read with `types` (the recommender's catalogue) when the
    /// reader has it; otherwise any word that is not a misspelt care type (the closest named).
    public static func read(_ word: String, types: LogTypeVocabulary?, path: String) throws(ScoutError) -> LogType {
        if let types { return try types.read(word, path: path) }
        if let t = LogTypeVocabulary.careTypes.type(word) { return t }
        let careWords = CareType.allCases.map(\.rawValue)
        let close = Suggestions.closest(to: word, among: careWords)
        guard close.isEmpty, word.utf8.count <= 64,
              word.utf8.allSatisfy({ ($0 >= 0x61 && $0 <= 0x7A) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x5F }) else {
            throw ScoutError(.invalidRequest, "unknown type\(Suggestions.hint(for: word, among: careWords)); types are "
                             + careWords.joined(separator: ", ") + ", or an activity id (docs/activities.md)", path: path)
        }
        return .activity(word)
    }
}

extension Reminder {
    /// Reads one reminder `{"activity"?, "type"?, "start", "frequency", "created"?}` (a
    /// `schedule` request's, or one a pet keeps): `start` a wall time in `zone` or an RFC 3339
    /// date-time; `type` read as ``LogType/read(_:types:path:)`` does; `activity` defaults to
    /// the type's word. Errors name the field under `path`.
    public static func read(_ value: JSONValue, zone: Zone, types: LogTypeVocabulary?, path: String) throws(ScoutError) -> Reminder {
        let r = try FieldReader(value, path: path)
        try r.checkKnown(["activity", "type", "start", "frequency", "created"])
        var type: LogType?
        if let word = try r.optionalString("type", maxBytes: ScheduleRequest.maxActivityBytes) {
            type = try LogType.read(word, types: types, path: r.at("type"))
        }
        let activity: String
        if r["activity"] == nil, let type { activity = type.word } else { activity = try r.string("activity", maxBytes: ScheduleRequest.maxActivityBytes) }
        guard !activity.isEmpty else { throw ScoutError(.invalidRequest, "activity must not be empty", path: r.at("activity")) }
        let start = try ScheduleRequest.readStart(try r.string("start"), zone: zone, path: r.at("start"))
        let frequency = Frequency(rawValue: try r.oneOf("frequency", Frequency.allCases.map(\.rawValue)))!
        var created: Instant?
        if let text = try r.optionalString("created") { created = try Instant.parse(text, path: r.at("created")) }
        return Reminder(activity: activity, start: start, frequency: frequency, created: created, type: type)
    }

    /// A pet's `reminders`: each a reminder (checked as `schedule` reads it, wall times in UTC
    /// here: the request gives the zone), at most one per type (its `type`, else its
    /// `activity`), at most ``ScheduleRequest/maxReminders``.
    static func checkPets(_ f: FieldReader, types: LogTypeVocabulary?) throws(ScoutError) {
        guard f["reminders"] != nil else { return }
        var first: [String: Int] = [:]
        for (i, value) in try f.array("reminders", maxCount: ScheduleRequest.maxReminders).enumerated() {
            let at = "\(f.at("reminders"))[\(i)]"
            let reminder = try read(value, zone: .utc, types: types, path: at)
            let key = reminder.type?.word ?? reminder.activity
            if let j = first[key] {
                throw ScoutError(.invalidRequest, "a pet keeps one reminder per type: \(key) is reminders[\(j)] already (change that one)",
                                 path: "\(at).\(reminder.type == nil ? "activity" : "type")")
            }
            first[key] = i
        }
    }
}

extension CareEntry {
    /// Reads a care-log entry: `pet_id`, `type`, `start` and `logged_by` required; `label`
    /// (required for type `other`), `minutes` (0–1,440), `comment`, `verdict`
    /// (``verdicts``) and `recommendation` optional. `type` is a care type or an activity id
    /// (`types`: the recommender's catalogue when the reader has it; otherwise any word that
    /// is not a misspelt care type). A start more than a day after `now` is refused.
    public static func read(_ fields: [(String, JSONValue)], types: LogTypeVocabulary?, now: Instant, path: String) throws(ScoutError) -> CareEntry {
        let f = FieldReader(fields, path: path)
        try f.checkKnown(RecordKind.care.definition.recordFields ?? [])
        let type = try LogType.read(try f.string("type", maxBytes: 100), types: types, path: f.at("type"))
        let label = try f.optionalString("label", maxBytes: 128) ?? ""
        if type == .care(.other) && label.isEmpty {
            throw ScoutError(.invalidRequest, "label is required with type other: the owner's word for it (\"nail trim\")", path: f.at("label"))
        }
        let start = try Instant.parse(try f.string("start", maxBytes: 40), path: f.at("start"))
        guard start.seconds <= now.seconds + maximumLeadSeconds else {
            throw ScoutError(.invalidRequest, "start is more than a day ahead of now (\(now.rfc3339)): log what was done, or give the right date",
                             path: f.at("start"))
        }
        guard f["minutes"] == nil || f["minutes"]?.double.map({ $0 >= 0 }) == true else {
            throw ScoutError(.invalidRequest, "minutes must be 0 or more (a number of minutes up to 1440)", path: f.at("minutes"))
        }
        return CareEntry(petID: try f.string("pet_id", maxBytes: 256), type: type, label: label, start: start,
                         minutes: try f.optionalNumber("minutes", in: 0...1440) ?? 0,
                         comment: try f.optionalString("comment", maxBytes: maximumCommentBytes) ?? "",
                         loggedBy: try f.string("logged_by", maxBytes: 256),
                         verdict: f["verdict"] == nil ? nil : try f.oneOf("verdict", verdicts),
                         recommendation: try f.optionalString("recommendation", maxBytes: 256))
    }

    /// The wall clock now, as the moment a care entry's start is checked against.
    public static var wallClock: Instant { Instant(seconds: Int64(Date().timeIntervalSince1970)) }
}

extension PersonalList {
    /// Reads a personal list: `name`, `item_kind` (a kind name), `items` (record ids, each
    /// once) and `owners` (and `visibility`) required.
    public static func read(_ fields: [(String, JSONValue)], path: String) throws(ScoutError) -> PersonalList {
        let f = FieldReader(fields, path: path)
        try f.checkKnown(RecordKind.list.definition.recordFields ?? [])
        let itemKind = try f.string("item_kind", maxBytes: 64)
        guard !itemKind.isEmpty, itemKind.utf8.allSatisfy({ ($0 >= 0x61 && $0 <= 0x7A) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x5F || $0 == 0x2D }) else {
            throw ScoutError(.invalidRequest, "item_kind must be a kind name (a-z, 0-9, _ and -)", path: f.at("item_kind"))
        }
        var items: [String] = []
        var seen = Set<String>()
        for (i, v) in try f.array("items", maxCount: maximumItems).enumerated() {
            guard let id = v.string, !id.isEmpty, id.utf8.count <= 256 else {
                throw ScoutError(.invalidRequest, "items holds record ids: non-empty strings of at most 256 bytes", path: f.at("items[\(i)]"))
            }
            guard seen.insert(id).inserted else { throw ScoutError(.invalidRequest, "\(id) is listed twice", path: f.at("items[\(i)]")) }
            items.append(id)
        }
        return PersonalList(name: try f.string("name", maxBytes: 256), itemKind: itemKind, items: items,
                            access: try RecordAccess.read(f, required: true)!)
    }
}
