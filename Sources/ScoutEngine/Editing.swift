import ScoutCatalog
import ScoutCatalogJSON
import ScoutCore
import ScoutIndex
import ScoutJSON

/// What a review or a vote did.
public struct FeedbackOutcome: Sendable {
    /// The record as it is now (aggregates included in its typed record).
    public let record: SearchHit
    /// True when the reviewer's earlier review (or the voter's earlier vote) was replaced
    /// or withdrawn; false when this is their first.
    public let replaced: Bool
    /// False when the request changed nothing (the same review or vote again).
    public let changed: Bool
}

extension Engine {
    /// The fields that only ``review(kind:record:reviewer:ratings:text:)`` and
    /// ``vote(kind:record:voter:value:)`` write (a patch may not).
    public static let feedbackFields = KindDefinition.feedback

    /// Merges fields into one record: `set` replaces or adds fields (`lat`/`lon` move a
    /// record that has a place), `unset` removes fields. The result is validated like an
    /// upsert; on any error nothing changes. Atomic with respect to every other write.
    ///
    /// ```swift
    /// try engine.patch(kind: "dog", record: "dog-000001", set: [("available", .bool(false))])
    /// ```
    /// - Throws: `not_found` (path `record`) when there is no such record; `invalid_request`
    ///   for `id`, `kind`, `reviews_by` or `votes_by` in `set` or `unset`, and whatever the
    ///   kind's validation finds (path under `set`).
    @discardableResult
    public func patch(kind typed: RecordKind, record id: String, set: [(String, JSONValue)], unset: [String] = []) throws(ScoutError) -> SearchHit {
        let kind = typed.name
        try PointRecord.validateKind(kind, path: "kind")
        guard !set.isEmpty || !unset.isEmpty else {
            throw ScoutError(.invalidRequest, "a patch needs set or unset with at least one field", path: "set")
        }
        for (i, key) in unset.enumerated() {
            guard !["id", "kind", "lat", "lon"].contains(key), !Engine.feedbackFields.contains(key) else {
                throw ScoutError(.invalidRequest, "\(key) cannot be unset", path: "unset[\(i)]")
            }
        }
        for (key, _) in set {
            guard !["id", "kind"].contains(key), !Engine.feedbackFields.contains(key) else {
                throw ScoutError(.invalidRequest, Engine.feedbackFields.contains(key)
                    ? "\(key) is written by review and vote, not by patch" : "\(key) cannot be changed by a patch (it names the record)",
                                 path: "set.\(key)")
            }
            if let dup = set.filter({ $0.0 == key }).dropFirst().first { throw ScoutError(.invalidRequest, "set names \(dup.0) twice", path: "set") }
            if unset.contains(key) { throw ScoutError(.invalidRequest, "\(key) is both set and unset", path: "set.\(JSONReader.shown(key))") }
        }
        return try edit(kind: kind, id: id) { (point, fields) throws(ScoutError) in
            var point = point
            var fields = fields.filter { !unset.contains($0.0) }
            var lat: Double?, lon: Double?
            for (key, value) in set {
                switch key {
                case "lat", "lon":
                    guard let d = value.double else { throw ScoutError(.invalidRequest, "\(key) must be a number", path: "set.\(key)") }
                    if key == "lat" { lat = d } else { lon = d }
                default:
                    if let i = fields.firstIndex(where: { $0.0 == key }) { fields[i].1 = value } else { fields.append((key, value)) }
                }
            }
            if lat != nil || lon != nil {
                guard let old = point else {
                    throw ScoutError(.invalidRequest, "records of kind \(kind) have no place", path: "set.\(lat != nil ? "lat" : "lon")")
                }
                point = try GeoPoint(lat: lat ?? old.lat, lon: lon ?? old.lon).validated(path: "set")
            }
            return (point, fields, "set")
        }
    }

    /// Records one reviewer's review of a record: stars per criterion (1–5) and optional
    /// text. A reviewer has at most one review per record — a new one replaces theirs — so
    /// a retried request counts once. The record's aggregates (mean, count, Wilson bound)
    /// change atomically with it and show in the next read.
    ///
    /// Criteria per kind: ``Reviews/criteria(kind:)`` (dogs: temperament, excitability,
    /// experience_needed; dog lovers: reliability, care); a review rates every one of them.
    public func review(kind typed: RecordKind, record id: String, reviewer: String, ratings: [(criterion: String, stars: Int)],
                       text: String = "") throws(ScoutError) -> FeedbackOutcome {
        let kind = typed.name
        try PointRecord.validateKind(kind, path: "kind")
        let criteria = Reviews.criteria(kind: kind)
        guard !criteria.isEmpty else {
            throw ScoutError(.invalidRequest, "records of kind \(kind) take no reviews (dog and lover do)", path: "kind")
        }
        try Engine.checkParticipant(reviewer, path: "reviewer")
        guard !ratings.isEmpty else { throw ScoutError(.invalidRequest, "ratings must rate at least one of \(criteria.joined(separator: ", "))", path: "ratings") }
        for r in ratings {
            guard criteria.contains(r.criterion) else {
                throw FieldReader.unknownField(r.criterion, known: criteria, path: "ratings.\(JSONReader.shown(r.criterion))", what: "criterion")
            }
            guard (1...5).contains(r.stars) else { throw ScoutError(.invalidRequest, "stars must be a whole number from 1 to 5", path: "ratings.\(r.criterion)") }
        }
        guard Set(ratings.map(\.criterion)).count == ratings.count else { throw ScoutError(.invalidRequest, "a criterion is rated twice", path: "ratings") }
        if let missing = criteria.first(where: { c in !ratings.contains { $0.criterion == c } }) {
            throw ScoutError(.invalidRequest, "a review of a \(kind) rates every criterion (\(criteria.joined(separator: ", "))): \(missing) is missing",
                             path: "ratings.\(missing)")
        }
        guard text.utf8.count <= Reviews.maximumTextBytes else {
            throw ScoutError(.limitExceeded, "text may be at most \(Reviews.maximumTextBytes) bytes", path: "text")
        }
        let entry = ReviewEntry(reviewer: reviewer, ratings: ratings, text: text)
        return try feedback(kind: kind, id: id, field: Reviews.reviewsField, participant: reviewer, value: entry.json)
    }

    /// Records one voter's vote on a record: 1 (up), -1 (down) or 0 (withdraw). A voter has
    /// at most one vote per record — a new one replaces theirs — so a retried request counts
    /// once. The record's tally and Wilson bound change atomically with it.
    public func vote(kind typed: RecordKind, record id: String, voter: String, value: Int) throws(ScoutError) -> FeedbackOutcome {
        let kind = typed.name
        try PointRecord.validateKind(kind, path: "kind")
        guard Reviews.takesVotes(kind: kind) else {
            throw ScoutError(.invalidRequest, "records of kind \(kind) take no votes (gym, program and article do)", path: "kind")
        }
        try Engine.checkParticipant(voter, path: "voter")
        guard [-1, 0, 1].contains(value) else { throw ScoutError(.invalidRequest, "value must be 1, -1 or 0 (withdraw)", path: "value") }
        return try feedback(kind: kind, id: id, field: Reviews.votesField, participant: voter,
                            value: value == 0 ? nil : .number(String(value)))
    }

    private static func checkParticipant(_ id: String, path: String) throws(ScoutError) {
        guard !id.isEmpty else { throw ScoutError(.invalidRequest, "\(path) must not be empty", path: path) }
        guard id.utf8.count <= Reviews.maximumReviewerBytes else {
            throw ScoutError(.limitExceeded, "\(path) may be at most \(Reviews.maximumReviewerBytes) bytes", path: path)
        }
    }

    /// Sets (or with `nil` removes) one participant's entry in a record's `reviews_by` or
    /// `votes_by`, kept sorted by participant so the record is the same whatever the order
    /// the entries came in.
    private func feedback(kind: String, id: String, field: String, participant: String, value: JSONValue?) throws(ScoutError) -> FeedbackOutcome {
        var replaced = false, changed = true
        let hit = try edit(kind: kind, id: id) { (point, fields) throws(ScoutError) in
            var fields = fields
            let at = fields.firstIndex { $0.0 == field }
            var entries = at.flatMap { fields[$0].1.members } ?? []
            if let i = entries.firstIndex(where: { $0.0 == participant }) {
                replaced = true
                if let value, entries[i].1 == value { changed = false }
                entries.remove(at: i)
            } else if value == nil {
                changed = false
            } else if entries.count >= Reviews.maximumEntries {
                throw ScoutError(.limitExceeded, "a record keeps at most \(Reviews.maximumEntries) entries in \(field)", path: "record")
            }
            if let value { entries.append((participant, value)) }
            entries.sort { $0.0.utf8.lexicographicallyPrecedes($1.0.utf8) }
            switch (at, entries.isEmpty) {
            case (let i?, true): fields.remove(at: i)
            case (let i?, false): fields[i].1 = .object(entries)
            case (nil, false): fields.append((field, .object(entries)))
            case (nil, true): break
            }
            return (point, fields, "record")
        }
        return FeedbackOutcome(record: hit, replaced: replaced, changed: changed)
    }

    /// Reads a record, lets `change` compute its new place and fields, validates and stores
    /// the result — all under the write lock, so no other write comes between.
    private func edit(kind: String, id: String,
                      _ change: ((GeoPoint?, [(String, JSONValue)])) throws(ScoutError) -> (GeoPoint?, [(String, JSONValue)], String))
        throws(ScoutError) -> SearchHit {
        let set = try loadedSet(kind: kind)
        let placeless = placelessSet(kind: kind)
        return try write { () throws(ScoutError) -> (change: () -> EngineChange?, apply: () -> SearchHit) in
            let current: (GeoPoint?, RecordPayload?)
            if let e = set.entry(id: id) {
                current = (e.point, Engine.payload(e))
            } else if let snap = placeless?.snapshot(), let p = snap.byID[id] {
                current = (nil, p)
            } else {
                throw ScoutError(.notFound, "no \(kind) record has that id", path: "record")
            }
            let (point, fields, path) = try change((current.0, current.1?.fields ?? []))
            let records = [PointRecord(id: id, kind: RecordKind(kind), point: point, fields: fields)]
            let prepared = try prepare(records, fieldPath: path)
            try checkReferences(records, prepared, fieldPath: path)
            return ({ .upsert(prepared.stored) }, { () -> SearchHit in
                self.apply(prepared)
                let payload = prepared.located[kind]?.first?.payload as? RecordPayload ?? prepared.placeless[kind]?.first?.payload
                return self.hit(id: id, kind: RecordKind(kind), point: prepared.located[kind]?.first?.point, payload: payload, distance: nil)
            })
        }
    }
}
