#if canImport(Glibc)
import Glibc
#endif

/// How much more memory the process may take, so that a load that would not fit fails with
/// a clear error instead of the kernel killing the process.
///
/// The room is the least of: the system's available memory (`MemAvailable` of
/// `/proc/meminfo`), the room left in the process's cgroup (`memory.max − memory.current`,
/// cgroup v2) and the operator's ``limit`` less the process's resident size. Only those
/// kernel files are read. Where none can be read (not Linux) the room is unknown and
/// nothing is refused.
///
/// ```swift
/// let budget = MemoryBudget(limit: 8 << 30)
/// try budget.check(needing: 3 << 30, for: "loading points.jsonl", path: "path")
/// ```
public struct MemoryBudget: Sendable, Equatable {
    /// The most the whole process may hold, in bytes (`nil`: only what the system has).
    public var limit: Int?

    /// A budget of what the system has, less `limit` when given.
    public init(limit: Int? = nil) { self.limit = limit }

    /// Bytes the process may still take, with where the bound comes from; `nil` when unknown.
    public func room() -> (bytes: Int, bound: String)? {
        var best: (bytes: Int, bound: String)?
        func consider(_ bytes: Int?, _ bound: String) {
            guard let bytes else { return }
            if best == nil || bytes < best!.bytes { best = (bytes, bound) }
        }
        consider(MemoryBudget.systemAvailable(), "the system's available memory")
        if let max = MemoryBudget.number(inFile: "/sys/fs/cgroup/memory.max"),
           let current = MemoryBudget.number(inFile: "/sys/fs/cgroup/memory.current") {
            consider(max - current, "the cgroup's memory.max less its use")
        }
        if let limit {
            let resident = MemoryBudget.residentBytes() ?? 0
            consider(limit - resident, "the memory limit of \(MemoryBudget.describe(limit)) less the \(MemoryBudget.describe(resident)) in use")
        }
        return best.map { (Swift.max(0, $0.bytes), $0.bound) }
    }

    /// Throws `limit_exceeded` when `bytes` more would not fit, naming what, how much and
    /// the bound; does nothing when the room is unknown.
    public func check(needing bytes: Int, for what: String, path: String?) throws(ScoutError) {
        guard let room = room(), bytes > room.bytes else { return }
        throw ScoutError(.limitExceeded, "\(what) would need about \(MemoryBudget.describe(bytes)) of memory but \(MemoryBudget.describe(room.bytes)) is left (\(room.bound)); split the file, free memory or raise the limit",
                         path: path)
    }

    /// The process's resident size in bytes (`/proc/self/statm`), `nil` when unknown.
    public static func residentBytes() -> Int? {
        guard let text = contents(of: "/proc/self/statm") else { return nil }
        let fields = text.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return nil }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }

    /// `MemAvailable` of `/proc/meminfo` in bytes, `nil` when unknown.
    static func systemAvailable() -> Int? {
        guard let text = contents(of: "/proc/meminfo") else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix("MemAvailable:") {
            let parts = line.split(separator: " ", omittingEmptySubsequences: true)
            if parts.count >= 2, let kib = Int(parts[1]) { return kib * 1024 }
        }
        return nil
    }

    /// A whole number alone in a file (`max` and unreadable files are `nil`).
    static func number(inFile path: String) -> Int? {
        guard let text = contents(of: path) else { return nil }
        return Int(text.split(separator: "\n").first.map(String.init) ?? "")
    }

    /// A small kernel file's text (at most 64 KiB), `nil` when it cannot be read.
    static func contents(of path: String) -> String? {
        guard let f = fopen(path, "r") else { return nil }
        defer { fclose(f) }
        var buffer = [UInt8](repeating: 0, count: 65_536)
        let n = fread(&buffer, 1, buffer.count, f)
        guard n > 0 else { return nil }
        return String(decoding: buffer[..<n], as: UTF8.self)
    }

    /// Bytes in words: `1.5 GiB`, `320 MiB`, `12 KiB`, `100 bytes`.
    public static func describe(_ bytes: Int) -> String {
        let units: [(Int, String)] = [(1 << 30, "GiB"), (1 << 20, "MiB"), (1 << 10, "KiB")]
        for (size, name) in units where bytes >= size {
            let v = Double(bytes) / Double(size)
            return v < 10 ? "\((v * 10).rounded() / 10) \(name)" : "\(Int(v.rounded())) \(name)"
        }
        return "\(bytes) bytes"
    }

    /// Parses a size such as `8G`, `512M`, `64K` or a number of bytes.
    public static func parse(_ text: String) -> Int? {
        let t = text.trimmingWhitespace()
        guard let last = t.last else { return nil }
        let scale: Int
        var digits = t
        switch last {
        case "K", "k": scale = 1 << 10
        case "M", "m": scale = 1 << 20
        case "G", "g": scale = 1 << 30
        case "T", "t": scale = 1 << 40
        default: scale = 1
        }
        if scale != 1 { digits.removeLast() }
        guard let n = Int(digits), n > 0, n <= Int.max / scale else { return nil }
        return n * scale
    }
}

private extension String {
    func trimmingWhitespace() -> String {
        var s = Substring(self)
        while s.first?.isWhitespace == true { s.removeFirst() }
        while s.last?.isWhitespace == true { s.removeLast() }
        return String(s)
    }
}
