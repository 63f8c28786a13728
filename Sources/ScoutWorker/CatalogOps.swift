import ScoutCatalog
import ScoutCatalogJSON
import ScoutCore
import ScoutEngine
import ScoutJSON
import ScoutTime

/// Which of a record's own fields a response carries (`"fields"` in a request).
enum FieldSelection: Sendable, Equatable {
    /// Every field (`true`, the default).
    case all
    /// None (`false`).
    case none
    /// Only these (a list of names), in the record's order.
    case only(Set<String>)

    /// Most names a list may hold.
    static let maximumNames = 256

    /// Reads `fields`: `true`, `false` or a list of field names. A record may carry fields of
    /// its own besides its kind's (a shelter's `logo`), so any name is taken, except, for
    /// typed kinds, a misspelling of one of the kind's fields: an error naming the closest
    /// (`"nmae"` → `"name"`).
    static func read(_ f: RequestFields, kind: String?) throws(ScoutError) -> FieldSelection {
        guard let v = f.reader["fields"] else { return .all }
        switch v {
        case .bool(let b): return b ? .all : .none
        case .array(let items):
            guard items.count <= maximumNames else { throw ScoutError(.limitExceeded, "fields may list at most \(maximumNames) names", path: "fields") }
            var names = Set<String>()
            let known = kind.flatMap(FieldSelection.knownFields(kind:))
            for (i, item) in items.enumerated() {
                guard let name = item.string, !name.isEmpty, name.utf8.count <= 256 else {
                    throw ScoutError(.invalidRequest, "fields lists field names (strings)", path: "fields[\(i)]")
                }
                if let known, !known.contains(name), !Suggestions.closest(to: name, among: known).isEmpty {
                    throw FieldReader.unknownField(name, known: known, path: "fields[\(i)]", what: "\(kind ?? "") field")
                }
                names.insert(name)
            }
            return .only(names)
        default:
            throw ScoutError(.invalidRequest, "fields must be true, false or a list of field names", path: "fields")
        }
    }

    /// The fields records of a typed kind may carry (`nil`: any name, untyped kinds;
    /// ``KindDefinition/recordFields``).
    static func knownFields(kind: String) -> [String]? { RecordKind(kind).definition.recordFields }

    /// True when the field goes out.
    func includes(_ name: String) -> Bool {
        switch self {
        case .all: true
        case .none: false
        case .only(let names): names.contains(name)
        }
    }
}

extension Worker {
    /// The ops of the catalogue's records: read by id, change a few fields, review, vote.
    static let catalogOperations: [Operation] = [
        Operation(name: "get", isReadOnly: true, fields: ["kind", "ids", "fields", "now", "user"]) { worker, f, w throws(ScoutError) in
            try worker.get(f, &w)
        },
        Operation(name: "patch", isReadOnly: false, fields: ["kind", "record", "set", "unset", "fields", "now"]) { worker, f, w throws(ScoutError) in
            try worker.patch(f, &w)
        },
        Operation(name: "review", isReadOnly: false, fields: ["kind", "record", "reviewer", "ratings", "text"]) { worker, f, w throws(ScoutError) in
            try worker.review(f, &w)
        },
        Operation(name: "vote", isReadOnly: false, fields: ["kind", "record", "voter", "value"]) { worker, f, w throws(ScoutError) in
            try worker.vote(f, &w)
        },
    ]

    /// An id given as a string or a number.
    static func id(_ v: JSONValue?, path: String) throws(ScoutError) -> String {
        switch v {
        case .string(let s)?: s
        case .number(let t)?: t
        case nil, .null?: throw ScoutError(.invalidRequest, "\(path) is required", path: path)
        default: throw ScoutError(.invalidRequest, "\(path) must be a record id (a string or a number)", path: path)
        }
    }

    /// The request's `ids`: an array of at most `maximum` record ids.
    static func ids(_ f: RequestFields, maximum: Int) throws(ScoutError) -> [String] {
        guard let list = f.reader["ids"]?.array else { throw ScoutError(.invalidRequest, "ids must be an array of record ids", path: "ids") }
        guard list.count <= maximum else { throw ScoutError(.limitExceeded, "ids may hold at most \(maximum) ids", path: "ids") }
        var ids: [String] = []
        ids.reserveCapacity(list.count)
        for (i, v) in list.enumerated() { ids.append(try Worker.id(v, path: "ids[\(i)]")) }
        return ids
    }

    private func get(_ f: RequestFields, _ w: inout JSONWriter) throws(ScoutError) {
        let kind = try f.string("kind")
        let ids = try Worker.ids(f, maximum: Engine.maximumGetIds)
        let selection = try FieldSelection.read(f, kind: kind)
        let today = try today(f)
        let found = try engine.get(kind: RecordKind(kind), ids: ids, user: try Worker.user(f))
        w.objectStart()
        w.key("results"); w.arrayStart()
        for h in found { if let h { writeHit(h, today: today, fields: selection, &w) } }
        w.arrayEnd()
        w.key("missing"); w.arrayStart()
        for (id, h) in zip(ids, found) where h == nil { w.string(id) }
        w.arrayEnd()
        w.objectEnd()
    }

    private func patch(_ f: RequestFields, _ w: inout JSONWriter) throws(ScoutError) {
        let kind = try f.string("kind")
        let id = try Worker.id(f.reader["record"], path: "record")
        let set = try f.reader.object("set")?.members ?? []
        var unset: [String] = []
        for (i, v) in try f.reader.array("unset", maxCount: 256).enumerated() {
            guard let s = v.string else { throw ScoutError(.invalidRequest, "unset lists field names", path: "unset[\(i)]") }
            unset.append(s)
        }
        let selection = try FieldSelection.read(f, kind: kind)
        let today = try today(f)
        let hit = try engine.patch(kind: RecordKind(kind), record: id, set: set, unset: unset)
        w.objectStart()
        w.key("patched"); w.string(id)
        w.key("record"); writeHit(hit, today: today, fields: selection, &w)
        w.objectEnd()
    }

    private func review(_ f: RequestFields, _ w: inout JSONWriter) throws(ScoutError) {
        let kind = try f.string("kind")
        let id = try Worker.id(f.reader["record"], path: "record")
        let criteria = Reviews.criteria(kind: kind)
        guard !criteria.isEmpty else {
            throw ScoutError(.invalidRequest, "records of kind \(kind) take no reviews (dog and lover do)", path: "kind")
        }
        let ratings = try Reviews.ratings(try f.reader.object("ratings"), criteria: criteria, path: "ratings")
        let outcome = try engine.review(kind: RecordKind(kind), record: id, reviewer: try Worker.id(f.reader["reviewer"], path: "reviewer"),
                                        ratings: ratings, text: try f.reader.optionalString("text", maxBytes: Reviews.maximumTextBytes) ?? "")
        writeOutcome(outcome, "reviewed", id, &w)
    }

    private func vote(_ f: RequestFields, _ w: inout JSONWriter) throws(ScoutError) {
        let kind = try f.string("kind")
        let id = try Worker.id(f.reader["record"], path: "record")
        let voter = try Worker.id(f.reader["voter"], path: "voter")
        guard f.has("value") else { throw ScoutError(.invalidRequest, "value is required: 1, -1 or 0 (withdraw)", path: "value") }
        let outcome = try engine.vote(kind: RecordKind(kind), record: id, voter: voter, value: try f.reader.integer("value", in: -1...1))
        writeOutcome(outcome, "voted", id, &w)
    }

    /// `{"<verb>": id, "replaced", "changed", <the record's aggregates>}`: a review's or a vote's answer.
    private func writeOutcome(_ outcome: FeedbackOutcome, _ verb: String, _ id: String, _ w: inout JSONWriter) {
        w.objectStart()
        w.key(verb); w.string(id)
        w.key("replaced"); w.bool(outcome.replaced)
        w.key("changed"); w.bool(outcome.changed)
        writeFeedback(outcome.record.record, &w)
        w.objectEnd()
    }

    /// `"reviews": {criterion: {"mean", "count", "wilson"}}` for reviewed kinds and
    /// `"votes": {"up", "down", "wilson"}` for voted kinds (nothing for others).
    func writeFeedback(_ r: CatalogRecord, _ w: inout JSONWriter) {
        if let reviews = Rating.reviews(r) {
            w.key("reviews"); w.objectStart()
            for (criterion, a) in reviews {
                w.key(criterion); w.objectStart()
                w.key("mean"); if let m = a.mean { w.number(m, decimals: 2) } else { w.null() }
                w.key("count"); w.int(a.count)
                w.key("wilson"); w.number(Reviews.wilsonLowerBound(a), decimals: 4)
                w.objectEnd()
            }
            w.objectEnd()
        }
        if let v = Rating.votes(r) {
            w.key("votes"); w.objectStart()
            w.key("up"); w.int(v.up)
            w.key("down"); w.int(v.down)
            w.key("wilson"); w.number(Rating.wilsonLowerBound(up: v.up, down: v.down), decimals: 4)
            w.objectEnd()
        }
    }
}
