import ScoutCore

/// A parsed JSON value. Objects keep their members in order; numbers keep their text, so
/// that ids echo back exactly and large integers lose nothing.
public enum JSONValue: Equatable, Sendable {
    /// `null`
    case null
    /// `true` or `false`
    case bool(Bool)
    /// A number, as written.
    case number(String)
    /// A string.
    case string(String)
    /// An array.
    case array([JSONValue])
    /// An object, members in order (``JSONReader`` refuses repeated keys; one built by hand
    /// with a repeated key answers lookups with the last).
    case object([(String, JSONValue)])

    /// Member lookup for objects (`nil` for other values or a missing key).
    public subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        for (k, v) in members.reversed() where k == key { return v }
        return nil
    }

    /// The number as a `Double`, or `nil`.
    public var double: Double? {
        guard case .number(let text) = self else { return nil }
        return DecimalText.double(text)
    }

    /// The string, or `nil`.
    public var string: String? {
        guard case .string(let s) = self else { return nil }
        return s
    }

    /// The elements of an array, or `nil`.
    public var array: [JSONValue]? {
        guard case .array(let a) = self else { return nil }
        return a
    }

    /// The members of an object, or `nil`.
    public var members: [(String, JSONValue)]? {
        guard case .object(let m) = self else { return nil }
        return m
    }

    /// The name of the value's JSON type, for error messages.
    public var typeName: String {
        switch self {
        case .null: "null"
        case .bool: "boolean"
        case .number: "number"
        case .string: "string"
        case .array: "array"
        case .object: "object"
        }
    }

    public static func == (a: JSONValue, b: JSONValue) -> Bool {
        switch (a, b) {
        case (.null, .null): return true
        case let (.bool(x), .bool(y)): return x == y
        case let (.number(x), .number(y)): return x == y || (Double(x) != nil && Double(x) == Double(y))
        case let (.string(x), .string(y)): return x == y
        case let (.array(x), .array(y)): return x == y
        case let (.object(x), .object(y)):
            return x.count == y.count && zip(x, y).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        default: return false
        }
    }
}

/// Why a text is not JSON, and where.
public struct JSONParseError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What was wrong.
    public let message: String
    /// Byte offset of the problem in the input.
    public let offset: Int
    /// `message at byte offset`.
    public var description: String { "\(message) at byte \(offset)" }
}
