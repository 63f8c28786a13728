import ScoutCore

/// Typed reads of a JSON object's fields with errors that name the field under a path prefix
/// (`records[3].animals[2].age_years`, `line 17: weight_kg`). Messages never echo values.
///
/// A field that is absent or `null` reads as missing. ``checkKnown(_:)`` refuses fields the
/// reader's caller does not know, naming the closest known one.
public struct FieldReader: Sendable {
    /// The object's members, in order.
    public let members: [(String, JSONValue)]
    /// The path prefix of every error (`""` at the top level).
    public let path: String

    /// Reads the members of an object found at `path`.
    public init(_ members: [(String, JSONValue)], path: String) {
        self.members = members
        self.path = path
    }

    /// Reads `value`, which must be an object.
    public init(_ value: JSONValue, path: String) throws(ScoutError) {
        guard let m = value.members else {
            throw ScoutError(.invalidRequest, "expected an object, not \(value.typeName)", path: path)
        }
        self.init(m, path: path)
    }

    /// Throws `invalid_request` naming the first member whose key is not in `known`, with
    /// the closest known keys ("did you mean") and the whole list.
    /// - Complexity: O(members × known).
    public func checkKnown(_ known: [String]) throws(ScoutError) {
        for (k, _) in members where !known.contains(k) {
            throw FieldReader.unknownField(k, known: known, path: at(JSONReader.shown(k)))
        }
    }

    /// The error for a field nobody reads: `unknown field "limt" (did you mean "limit"?); known: …`.
    public static func unknownField(_ key: String, known: [String], path: String, what: String = "field") -> ScoutError {
        let shown = JSONReader.shown(key)
        return ScoutError(.invalidRequest, "unknown \(what) \"\(shown)\"\(Suggestions.hint(for: shown, among: known)); known: \(known.joined(separator: ", "))",
                          path: path)
    }

    /// The path of a field of this object (`records[0].name`).
    public func at(_ key: String) -> String { path.isEmpty ? key : path.hasSuffix(": ") ? path + key : "\(path).\(key)" }

    /// The last value of `key`, or `nil` when it is absent or `null`.
    public subscript(key: String) -> JSONValue? {
        for (k, v) in members.reversed() where k == key { return v == .null ? nil : v }
        return nil
    }

    /// A required string of at most `maxBytes` bytes.
    public func string(_ key: String, maxBytes: Int = 4096) throws(ScoutError) -> String {
        guard let s = try optionalString(key, maxBytes: maxBytes) else {
            throw ScoutError(.invalidRequest, "\(key) is required", path: at(key))
        }
        return s
    }

    /// An optional string of at most `maxBytes` bytes.
    public func optionalString(_ key: String, maxBytes: Int = 4096) throws(ScoutError) -> String? {
        guard let v = self[key] else { return nil }
        guard let s = v.string else { throw ScoutError(.invalidRequest, "\(key) must be a string, not \(v.typeName)", path: at(key)) }
        guard s.utf8.count <= maxBytes else { throw ScoutError(.limitExceeded, "\(key) may be at most \(maxBytes) bytes", path: at(key)) }
        return s
    }

    /// A string that must be one of `allowed`; `default` when absent (required when `default` is `nil`).
    public func oneOf(_ key: String, _ allowed: [String], default value: String? = nil) throws(ScoutError) -> String {
        guard let s = try optionalString(key, maxBytes: 64) else {
            if let value { return value }
            throw ScoutError(.invalidRequest, "\(key) is required", path: at(key))
        }
        guard allowed.contains(s) else {
            throw ScoutError(.invalidRequest, "\(key) must be one of \(allowed.joined(separator: ", "))", path: at(key))
        }
        return s
    }

    /// A required finite number inside `range`.
    public func number(_ key: String, in range: ClosedRange<Double>) throws(ScoutError) -> Double {
        guard let d = try optionalNumber(key, in: range) else {
            throw ScoutError(.invalidRequest, "\(key) is required", path: at(key))
        }
        return d
    }

    /// An optional finite number inside `range`.
    public func optionalNumber(_ key: String, in range: ClosedRange<Double>) throws(ScoutError) -> Double? {
        guard let v = self[key] else { return nil }
        guard let d = v.double, d.isFinite else { throw ScoutError(.invalidRequest, "\(key) must be a number, not \(v.typeName)", path: at(key)) }
        guard range.contains(d) else {
            throw ScoutError(.invalidRequest, "\(key) must be between \(FieldReader.text(range.lowerBound)) and \(FieldReader.text(range.upperBound))", path: at(key))
        }
        return d
    }

    /// A whole number inside `range`; `default` when absent (required when `default` is `nil`).
    public func integer(_ key: String, in range: ClosedRange<Int>, default value: Int? = nil) throws(ScoutError) -> Int {
        guard let d = try optionalNumber(key, in: Double(range.lowerBound)...Double(range.upperBound)) else {
            if let value { return value }
            throw ScoutError(.invalidRequest, "\(key) is required", path: at(key))
        }
        guard d == d.rounded() else { throw ScoutError(.invalidRequest, "\(key) must be a whole number", path: at(key)) }
        return Int(d)
    }

    /// A boolean; `default` when absent.
    public func bool(_ key: String, default value: Bool) throws(ScoutError) -> Bool {
        guard let v = self[key] else { return value }
        guard case .bool(let b) = v else { throw ScoutError(.invalidRequest, "\(key) must be true or false", path: at(key)) }
        return b
    }

    /// A nested object as a reader whose errors carry its path; `nil` when absent.
    public func object(_ key: String) throws(ScoutError) -> FieldReader? {
        guard let v = self[key] else { return nil }
        return try FieldReader(v, path: at(key))
    }

    /// An array of at most `maxCount` items; empty when absent.
    public func array(_ key: String, maxCount: Int) throws(ScoutError) -> [JSONValue] {
        guard let v = self[key] else { return [] }
        guard let a = v.array else { throw ScoutError(.invalidRequest, "\(key) must be an array, not \(v.typeName)", path: at(key)) }
        guard a.count <= maxCount else { throw ScoutError(.limitExceeded, "\(key) may hold at most \(maxCount) items", path: at(key)) }
        return a
    }

    /// A number as short text for messages (`5`, not `5.0`).
    public static func text(_ d: Double) -> String { d == d.rounded() && abs(d) < 1e15 ? String(Int(d)) : String(d) }
}
