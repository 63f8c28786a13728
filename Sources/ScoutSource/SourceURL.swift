import PostgresNIO
#if canImport(Glibc)
import Glibc
#endif

/// A parsed `postgresql://` URL: where the server is and who to log in as.
///
/// ```swift
/// let url = try SourceURL.parse("postgresql://scout@/places?host=/run/scout-pg&port=5433")
/// ```
/// Accepted forms follow libpq's: `postgresql://[user[:password]@][host][:port][/database][?k=v&…]`
/// (also `postgres://`). `host` is a loopback address (`127.0.0.1`, `::1`, `localhost`) or,
/// starting with `/` (percent-encoded in the authority, or as the `host=` parameter), the
/// directory of the server's Unix socket `.s.PGSQL.<port>`. Without a host, the socket in
/// `/var/run/postgresql`. Parameters: `host`, `port`, `user`, `password`, `dbname`,
/// `sslmode` (`disable` only: TLS is not supported yet, which is why only sockets and
/// loopback are accepted), `connect_timeout` (seconds). The user defaults to `$PGUSER`
/// or the OS user, the password to `$PGPASSWORD`, the database to the user.
public struct SourceURL: Sendable {
    /// The connection settings for postgres-nio.
    public let configuration: PostgresConnection.Configuration
    /// The URL as logged: the password replaced by `***`.
    public let shown: String
    /// The database name.
    public let database: String

    /// Parses a URL; errors name the part that is wrong.
    public static func parse(_ text: String) throws(SourceError) -> SourceURL {
        func bad(_ m: String) -> SourceError { SourceError(.badURL, "\(m) (expected postgresql://[user@][host][:port]/database)") }
        var rest: Substring
        if text.hasPrefix("postgresql://") { rest = text.dropFirst("postgresql://".count) }
        else if text.hasPrefix("postgres://") { rest = text.dropFirst("postgres://".count) }
        else { throw bad("the URL must start with postgresql://") }
        var params: [String: String] = [:]
        if let q = rest.firstIndex(of: "?") {
            for pair in rest[rest.index(after: q)...].split(separator: "&") where !pair.isEmpty {
                guard let eq = pair.firstIndex(of: "=") else { throw bad("parameter \(pair) has no value") }
                let key = String(pair[..<eq])
                guard let value = percentDecoded(pair[pair.index(after: eq)...]) else { throw bad("parameter \(key) is not valid percent-encoding") }
                params[key] = value
            }
            rest = rest[..<q]
        }
        var path = ""
        if let slash = rest.firstIndex(of: "/") {
            path = String(rest[rest.index(after: slash)...])
            rest = rest[..<slash]
        }
        var user: String?, password: String?
        if let at = rest.lastIndex(of: "@") {
            let info = rest[..<at]
            if let colon = info.firstIndex(of: ":") {
                user = percentDecoded(info[..<colon])
                password = percentDecoded(info[info.index(after: colon)...])
            } else {
                user = percentDecoded(info)
            }
            rest = rest[rest.index(after: at)...]
        }
        var host: String?, portText: String?
        if rest.hasPrefix("[") {
            guard let close = rest.firstIndex(of: "]") else { throw bad("an IPv6 host needs a closing ]") }
            host = String(rest[rest.index(after: rest.startIndex)..<close])
            let after = rest[rest.index(after: close)...]
            if after.hasPrefix(":") { portText = String(after.dropFirst()) } else if !after.isEmpty { throw bad("text after the IPv6 host") }
        } else if let colon = rest.lastIndex(of: ":") {
            host = percentDecoded(rest[..<colon])
            portText = String(rest[rest.index(after: colon)...])
        } else if !rest.isEmpty {
            host = percentDecoded(rest)
        }
        if host == "" { host = nil }
        for (key, _) in params where !["host", "port", "user", "password", "dbname", "sslmode", "connect_timeout", "application_name"].contains(key) {
            throw bad("unknown parameter \(key)")
        }
        if let h = params["host"] { host = h }
        if let p = params["port"] { portText = p }
        if let u = params["user"] { user = u }
        if let p = params["password"] { password = p }
        if let mode = params["sslmode"], !["disable", "allow", "prefer"].contains(mode) {
            throw bad("sslmode=\(mode) is not supported: TLS is not supported yet, connect through a Unix socket or loopback")
        }
        var port = 5432
        if let portText, !portText.isEmpty {
            guard let p = Int(portText), (1...65535).contains(p) else { throw bad("port must be a number from 1 to 65535, not \(portText)") }
            port = p
        }
        guard let decodedPath = percentDecoded(Substring(path)) else { throw bad("the database name is not valid percent-encoding") }
        let user0 = user ?? environment("PGUSER") ?? osUser()
        guard let userName = user0, !userName.isEmpty else { throw bad("no user: give one in the URL") }
        let database = params["dbname"] ?? (decodedPath.isEmpty ? userName : decodedPath)
        if password == nil { password = environment("PGPASSWORD") }

        var configuration: PostgresConnection.Configuration
        var shownHost: String
        let socketDirectory = host ?? "/var/run/postgresql"
        if socketDirectory.hasPrefix("/") {
            let socket = socketDirectory.hasSuffix("/") ? "\(socketDirectory).s.PGSQL.\(port)" : "\(socketDirectory)/.s.PGSQL.\(port)"
            guard socket.utf8.count < 108 else { throw bad("the socket path \(socket) is longer than Unix sockets allow (107 bytes)") }
            configuration = .init(unixSocketPath: socket, username: userName, password: password, database: database)
            shownHost = "\(socket)"
        } else if let host, ["127.0.0.1", "::1", "localhost"].contains(host) || host.hasPrefix("127.") {
            configuration = .init(host: host, port: port, username: userName, password: password, database: database, tls: .disable)
            shownHost = "\(host):\(port)"
        } else {
            throw bad("host \(host ?? "") is not a Unix socket directory or a loopback address; TLS is not supported yet")
        }
        if let t = params["connect_timeout"] {
            guard let s = Int(t), s > 0 else { throw bad("connect_timeout must be a positive number of seconds") }
            configuration.options.connectTimeout = .seconds(Int64(s))
        } else {
            configuration.options.connectTimeout = .seconds(5)
        }
        let who = "\(userName)\(password == nil ? "" : ":***")"
        let shown = socketDirectory.hasPrefix("/") ? "postgresql://\(who)@/\(database) (socket \(shownHost))"
            : "postgresql://\(who)@\(shownHost)/\(database)"
        return SourceURL(configuration: configuration, shown: shown,
                         database: database)
    }

    private static func environment(_ name: String) -> String? {
        guard let v = getenv(name) else { return nil }
        let s = String(cString: v)
        return s.isEmpty ? nil : s
    }

    private static func osUser() -> String? {
        guard let pw = getpwuid(geteuid()), let name = pw.pointee.pw_name else { return nil }
        return String(cString: name)
    }

    /// Decodes `%XX` escapes; `nil` when an escape is malformed or the bytes are not UTF-8.
    static func percentDecoded(_ s: Substring) -> String? {
        var bytes: [UInt8] = []
        var it = Array(s.utf8)[...]
        while let b = it.popFirst() {
            if b == UInt8(ascii: "%") {
                guard it.count >= 2, let v = UInt8(String(decoding: it.prefix(2), as: UTF8.self), radix: 16) else { return nil }
                bytes.append(v)
                it = it.dropFirst(2)
            } else {
                bytes.append(b)
            }
        }
        return String(validating: bytes, as: UTF8.self)
    }
}
