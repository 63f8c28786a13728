import ScoutCore
import ScoutJSON

/// Typed reads of a record's fields with errors that name the field under a path prefix
/// (`records[3].animals[2].age_years`, `line 17: weight_kg`). Messages never echo values.
struct FieldReader {
    let members: [(String, JSONValue)]
    let path: String

    init(_ members: [(String, JSONValue)], path: String) {
        self.members = members
        self.path = path
    }

    init(_ value: JSONValue, path: String) throws(ScoutError) {
        guard let m = value.members else {
            throw ScoutError(.invalidRequest, "expected an object, not \(value.typeName)", path: path)
        }
        self.init(m, path: path)
    }

    func at(_ key: String) -> String { path.isEmpty ? key : path.hasSuffix(": ") ? path + key : "\(path).\(key)" }

    subscript(key: String) -> JSONValue? {
        for (k, v) in members.reversed() where k == key { return v == .null ? nil : v }
        return nil
    }

    func string(_ key: String, maxBytes: Int = 4096) throws(ScoutError) -> String {
        guard let s = try optionalString(key, maxBytes: maxBytes) else {
            throw ScoutError(.invalidRequest, "\(key) is required", path: at(key))
        }
        return s
    }

    func optionalString(_ key: String, maxBytes: Int = 4096) throws(ScoutError) -> String? {
        guard let v = self[key] else { return nil }
        guard let s = v.string else { throw ScoutError(.invalidRequest, "\(key) must be a string, not \(v.typeName)", path: at(key)) }
        guard s.utf8.count <= maxBytes else { throw ScoutError(.limitExceeded, "\(key) may be at most \(maxBytes) bytes", path: at(key)) }
        return s
    }

    func oneOf(_ key: String, _ allowed: [String], default value: String? = nil) throws(ScoutError) -> String {
        guard let s = try optionalString(key, maxBytes: 64) else {
            if let value { return value }
            throw ScoutError(.invalidRequest, "\(key) is required", path: at(key))
        }
        guard allowed.contains(s) else {
            throw ScoutError(.invalidRequest, "\(key) must be one of \(allowed.joined(separator: ", "))", path: at(key))
        }
        return s
    }

    func number(_ key: String, in range: ClosedRange<Double>) throws(ScoutError) -> Double {
        guard let d = try optionalNumber(key, in: range) else {
            throw ScoutError(.invalidRequest, "\(key) is required", path: at(key))
        }
        return d
    }

    func optionalNumber(_ key: String, in range: ClosedRange<Double>) throws(ScoutError) -> Double? {
        guard let v = self[key] else { return nil }
        guard let d = v.double, d.isFinite else { throw ScoutError(.invalidRequest, "\(key) must be a number, not \(v.typeName)", path: at(key)) }
        guard range.contains(d) else {
            throw ScoutError(.invalidRequest, "\(key) must be between \(FieldReader.text(range.lowerBound)) and \(FieldReader.text(range.upperBound))", path: at(key))
        }
        return d
    }

    func integer(_ key: String, in range: ClosedRange<Int>, default value: Int? = nil) throws(ScoutError) -> Int {
        guard let d = try optionalNumber(key, in: Double(range.lowerBound)...Double(range.upperBound)) else {
            if let value { return value }
            throw ScoutError(.invalidRequest, "\(key) is required", path: at(key))
        }
        guard d == d.rounded() else { throw ScoutError(.invalidRequest, "\(key) must be a whole number", path: at(key)) }
        return Int(d)
    }

    func bool(_ key: String, default value: Bool) throws(ScoutError) -> Bool {
        guard let v = self[key] else { return value }
        guard case .bool(let b) = v else { throw ScoutError(.invalidRequest, "\(key) must be true or false", path: at(key)) }
        return b
    }

    func object(_ key: String) throws(ScoutError) -> FieldReader? {
        guard let v = self[key] else { return nil }
        return try FieldReader(v, path: at(key))
    }

    func array(_ key: String, maxCount: Int) throws(ScoutError) -> [JSONValue] {
        guard let v = self[key] else { return [] }
        guard let a = v.array else { throw ScoutError(.invalidRequest, "\(key) must be an array, not \(v.typeName)", path: at(key)) }
        guard a.count <= maxCount else { throw ScoutError(.limitExceeded, "\(key) may hold at most \(maxCount) items", path: at(key)) }
        return a
    }

    static func text(_ d: Double) -> String { d == d.rounded() && abs(d) < 1e15 ? String(Int(d)) : String(d) }
}
