/// The one error type every Scout entry point throws.
///
/// `code` is a stable word that callers match on; `message` says what was wrong in
/// plain words; `path` names where (a request field such as `"near.lat"`, or
/// `"line 17: lon"` inside a file). Messages never contain coordinates or personal
/// fields of the records involved: they name the field, not its value.
public struct ScoutError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Stable error codes, shared by the library and the `scout serve` protocol.
    public enum Code: String, Sendable, CaseIterable {
        /// The input is not well-formed JSON (or CSV, or GeoJSON).
        case parseError = "parse_error"
        /// The request is well-formed but a field is missing, of the wrong type or out of range.
        case invalidRequest = "invalid_request"
        /// The request names an operation the worker does not know.
        case unknownOp = "unknown_op"
        /// A geometry is malformed or invalid (GEOS's reason is in the message).
        case invalidGeometry = "invalid_geometry"
        /// A coordinate reference system is unknown to PROJ.
        case unknownCRS = "unknown_crs"
        /// A limit, size or count is larger than Scout allows.
        case limitExceeded = "limit_exceeded"
        /// A named thing (file, place, id) does not exist.
        case notFound = "not_found"
        /// Scout itself failed; the request may be retried.
        case `internal` = "internal"
    }

    /// The stable code of the error.
    public var code: Code
    /// What was wrong, in plain words, without echoing user data.
    public var message: String
    /// Where the problem is: a dotted request path or a file position; `nil` when not applicable.
    public var path: String?

    /// Creates an error with a code, a message and an optional path.
    public init(_ code: Code, _ message: String, path: String? = nil) {
        self.code = code
        self.message = message
        self.path = path
    }

    /// `code: message (at path)`.
    public var description: String {
        if let path { return "\(code.rawValue): \(message) (at \(path))" }
        return "\(code.rawValue): \(message)"
    }

    /// The same error with its path prefixed by `prefix` (`"within"` + `"coordinates[0]"`).
    public func under(_ prefix: String) -> ScoutError {
        var copy = self
        if let path, !path.isEmpty {
            copy.path = path.hasPrefix("[") ? prefix + path : prefix + "." + path
        } else {
            copy.path = prefix
        }
        return copy
    }
}
