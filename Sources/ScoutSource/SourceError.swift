import PostgresNIO

/// What went wrong while installing or following a PostgreSQL source: a stable code and a
/// message that names the URL part, table or column at fault. Passwords and row contents
/// never appear in the text.
public struct SourceError: Error, Sendable, CustomStringConvertible {
    /// The kind of failure, stable across releases.
    public enum Code: String, Sendable {
        /// The `postgresql://` URL cannot be used (scheme, host, port, parameter).
        case badURL = "bad_url"
        /// A `--table` mapping is malformed.
        case badMapping = "bad_mapping"
        /// The server could not be reached or closed the connection.
        case connection
        /// A mapped table does not exist.
        case missingTable = "missing_table"
        /// A mapped column does not exist or has the wrong type.
        case badColumn = "bad_column"
        /// The database has no PostGIS extension but a mapping has a place column.
        case missingPostGIS = "missing_postgis"
        /// `scout source install` has not been run on the database.
        case notInstalled = "not_installed"
        /// The server refused a statement.
        case server
    }

    /// The kind of failure.
    public var code: Code
    /// What was wrong, for a person.
    public var message: String

    /// Creates an error.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    /// `code: message`.
    public var description: String { "\(code.rawValue): \(message)" }

    /// Wraps an error from postgres-nio (or any other) with what was being done; a
    /// server error keeps its SQLSTATE and message, a connection error its cause.
    static func wrap(_ error: any Error, doing what: String) -> SourceError {
        if let e = error as? SourceError { return e }
        return SourceError(isConnectionLoss(error) ? .connection : .server, "\(what): \(describe(error))")
    }

    /// A readable text for an error from postgres-nio: postgres-nio's own description hides
    /// the server's message, which names the table or column at fault.
    static func describe(_ error: any Error) -> String {
        guard let e = error as? PSQLError else { return String(describing: error) }
        if let info = e.serverInfo, let message = info[.message] {
            let state = info[.sqlState].map { " (SQLSTATE \($0))" } ?? ""
            let hint = info[.hint].map { "; hint: \($0)" } ?? ""
            return message + state + hint
        }
        if let u = e.underlying { return "\(e.code): \(u)" }
        return "\(e.code)"
    }

    /// Whether an error means the connection is gone (so a reconnect may help), rather than
    /// a statement the server refused.
    static func isConnectionLoss(_ error: any Error) -> Bool {
        if let e = error as? SourceError { return e.code == .connection }
        guard let e = error as? PSQLError else { return true }
        if e.serverInfo != nil {
            // 57P01 admin_shutdown, 57P02 crash_shutdown, 57P03 cannot_connect_now, 08xxx connection exceptions.
            let state = e.serverInfo?[.sqlState] ?? ""
            return state.hasPrefix("57P") || state.hasPrefix("08")
        }
        return true
    }
}
