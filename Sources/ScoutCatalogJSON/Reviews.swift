import ScoutCatalog
import ScoutCore
import ScoutJSON

extension ReviewEntry {
    /// The JSON kept under the reviewer's key: `{"ratings": {…}, "text"?}`.
    public var json: JSONValue {
        var m: [(String, JSONValue)] = [("ratings", .object(ratings.map { ($0.criterion, .number(String($0.stars))) }))]
        if !text.isEmpty { m.append(("text", .string(text))) }
        return .object(m)
    }
}

extension Reviews {
    /// Reads `reviews_by` of a record: `{"<reviewer>": {"ratings": {"<criterion>": 1–5}, "text"?}}`.
    public static func entries(_ f: FieldReader, criteria: [String]) throws(ScoutError) -> [ReviewEntry] {
        guard let by = try f.object(reviewsField) else { return [] }
        guard by.members.count <= maximumEntries else {
            throw ScoutError(.limitExceeded, "a record keeps at most \(maximumEntries) reviews", path: f.at(reviewsField))
        }
        var out: [ReviewEntry] = []
        out.reserveCapacity(by.members.count)
        for (reviewer, v) in by.members {
            let e = try FieldReader(v, path: by.at(JSONReader.shown(reviewer)))
            try e.checkKnown(["ratings", "text"])
            out.append(ReviewEntry(reviewer: reviewer, ratings: try ratings(e.object("ratings"), criteria: criteria, path: e.at("ratings")),
                                   text: try e.optionalString("text", maxBytes: maximumTextBytes) ?? ""))
        }
        return out
    }

    /// Reads `{"<criterion>": 1–5, …}`: at least one known criterion, whole stars.
    public static func ratings(_ r: FieldReader?, criteria: [String], path: String) throws(ScoutError) -> [(criterion: String, stars: Int)] {
        guard let r, !r.members.isEmpty else {
            throw ScoutError(.invalidRequest, "ratings must rate at least one of \(criteria.joined(separator: ", "))", path: path)
        }
        try r.checkKnown(criteria)
        var out: [(criterion: String, stars: Int)] = []
        for c in criteria where r[c] != nil { out.append((c, try r.integer(c, in: 1...5))) }
        return out
    }

    /// Reads `votes_by`: `{"<voter>": 1 | -1}`; returns (up, down).
    public static func votes(_ f: FieldReader) throws(ScoutError) -> (up: Int, down: Int) {
        guard let by = try f.object(votesField) else { return (0, 0) }
        guard by.members.count <= maximumEntries else {
            throw ScoutError(.limitExceeded, "a record keeps at most \(maximumEntries) votes", path: f.at(votesField))
        }
        var up = 0, down = 0
        for (voter, v) in by.members {
            switch v.double {
            case 1: up += 1
            case -1: down += 1
            default: throw ScoutError(.invalidRequest, "a vote is 1 or -1", path: by.at(JSONReader.shown(voter)))
            }
        }
        return (up, down)
    }
}
