#if canImport(Glibc)
import Glibc
#endif
import ScoutCore

/// Which files the protocol's `load` op may read: only regular files below directories the
/// operator allowed (`scout serve --data-root DIR`, repeatable). With no root, protocol
/// `load` is off.
///
/// A path is judged after resolving `.`/`..` and symbolic links, so neither escapes a
/// root. Every refused path gets the same error, whether or not a file exists there, so
/// a caller cannot use `load` to learn which files exist outside the roots.
public struct FileAccess: Sendable {
    /// The allowed directories, absolute and resolved.
    public let roots: [String]
    /// Largest file `load` reads over the protocol, in bytes (checked before reading).
    public let maximumBytes: Int

    /// Default largest protocol `load`: 256 MiB.
    public static let defaultMaximumBytes = 256 << 20

    /// No file may be loaded over the protocol (the default).
    public static let none = FileAccess(resolvedRoots: [], maximumBytes: defaultMaximumBytes)

    private init(resolvedRoots: [String], maximumBytes: Int) {
        roots = resolvedRoots
        self.maximumBytes = maximumBytes
    }

    /// Allows files below each of `directories`, which must exist.
    public init(roots directories: [String], maximumBytes: Int = FileAccess.defaultMaximumBytes) throws(ScoutError) {
        var out: [String] = []
        for d in directories {
            guard let r = FileAccess.realPath(d), FileAccess.isDirectory(r) else {
                throw ScoutError(.notFound, "the data root is not a directory", path: "--data-root")
            }
            out.append(r)
        }
        self.init(resolvedRoots: out, maximumBytes: maximumBytes)
    }

    /// The resolved path of a file the protocol may load, or the one refusal error.
    public func resolve(_ path: String, path field: String) throws(ScoutError) -> String {
        let refused = ScoutError(.notFound, roots.isEmpty
                                 ? "load over the protocol is off (the operator allows it with --data-root)"
                                 : "no loadable file there: load reads only files below the operator's data roots", path: field)
        guard !roots.isEmpty, !path.isEmpty, !path.utf8.contains(0) else { throw refused }
        let lexical = FileAccess.normalized(path)
        if let real = FileAccess.realPath(lexical) {
            guard within(real) else { throw refused }
            return real
        }
        // Nothing there: say so only inside a root.
        guard within(lexical) else { throw refused }
        throw ScoutError(.notFound, "no file at the given path", path: field)
    }

    private func within(_ p: String) -> Bool {
        roots.contains { root in root == "/" || p.hasPrefix(root + "/") }
    }

    /// `path` made absolute against the working directory, with `.`, `..` and repeated `/` removed.
    static func normalized(_ path: String) -> String {
        var base = ""
        if !path.hasPrefix("/") {
            if let cwd = getcwd(nil, 0) {
                base = String(cString: cwd)
                free(cwd)
            }
        }
        var parts: [Substring] = []
        for c in (base + "/" + path).split(separator: "/") {
            switch c {
            case ".": continue
            case "..": if !parts.isEmpty { parts.removeLast() }
            default: parts.append(c)
            }
        }
        return "/" + parts.joined(separator: "/")
    }

    static func realPath(_ p: String) -> String? {
        guard let r = realpath(p, nil) else { return nil }
        defer { free(r) }
        return String(cString: r)
    }

    static func isDirectory(_ p: String) -> Bool {
        var info = stat()
        return stat(p, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }
}
