#if canImport(Glibc)
import Glibc
#endif
import Logging
import ScoutCatalog
import ScoutCore
import ScoutEngine
import ScoutGeometry

/// A directory holding an engine's durable state: `snapshot-N.scout`, the state before
/// journal segment N (the format of `scout snapshot`), and `journal-N.log`,
/// `journal-N+1.log`, …, the changes since, in order (``Journal``). A `lock` file keeps a
/// second process out.
///
/// ```swift
/// let state = try StateDirectory.open("/var/lib/scout", options: .init(policy: .always)) {
///     let engine = Engine(catalog: try Catalog.load(dataDirectory: "data"))
///     try engine.load(path: "data/sample/gyms.jsonl")
///     return (engine, "data")                     // only on the very first start
/// }
/// try state.engine.upsert([…])                     // journalled, on disk when it returns
/// ```
public enum StateDirectory {
    /// How a state directory is opened.
    public struct Options: Sendable {
        /// When the journal is flushed to disk.
        public var policy: FsyncPolicy
        /// Segment size in bytes past which the journal is folded into a new snapshot.
        public var compactAt: Int
        /// How dogs' locations are kept; must be what the directory was created with.
        public var privacy: LocationPrivacy
        /// Time-zone polygons for the engine (snapshots do not carry them).
        public var timeZones: TimeZoneMap?
        /// What the recovered engine's loads may take (``Engine/memory``).
        public var memory: MemoryBudget
        /// Where warnings and progress go (swift-log; `scout serve` writes them to stderr).
        /// Silent by default.
        public var logger: Logger

        /// The defaults: flush once a second, compact past 64 MiB, dogs at their cells.
        public init(policy: FsyncPolicy = .everysec, compactAt: Int = 64 << 20, privacy: LocationPrivacy = .approximate,
                    timeZones: TimeZoneMap? = nil, memory: MemoryBudget = MemoryBudget(),
                    logger: Logger = Logger(label: "scout.state", factory: { _ in SwiftLogNoOpLogHandler() })) {
            self.policy = policy
            self.memory = memory
            self.compactAt = compactAt
            self.privacy = privacy
            self.timeZones = timeZones
            self.logger = logger
        }
    }

    /// An opened state: the engine as it was when the last write was journalled, with the
    /// journal attached, and what recovery did.
    public struct Opened: Sendable {
        /// The engine; every write to it is journalled.
        public let engine: Engine
        /// The journal (close it on a clean shutdown to flush and wait for compaction).
        public let journal: Journal
        /// True when the directory was empty and the first snapshot was written from `initial`.
        public let created: Bool
        /// Journal records replayed on top of the snapshot.
        public let replayed: Int
        /// Bytes of a write cut off by a crash that were cut from the last segment (0: none).
        public let cutBytes: Int
        /// Seconds from the call to a ready engine.
        public let seconds: Double
    }

    /// Opens (and if empty creates) a state directory: loads the newest snapshot, replays
    /// the journal segments after it, cuts off a write torn by a crash at the very end (with
    /// a warning saying how many bytes), and attaches a journal for the writes to come.
    ///
    /// `initial` builds the engine on the very first start only (the directory is empty):
    /// its records and the reference files of the data directory it returns become
    /// `snapshot-0.scout`, and the engine is then restored from that file, so a first start
    /// and every later one serve from the same state.
    ///
    /// - Throws: `invalid_request` naming the file and byte offset when anything but the
    ///   last write is damaged (nothing is changed; `scout state check` / `repair`), when
    ///   another process holds the directory, or when the privacy mode differs from the
    ///   directory's; `not_found` when the directory cannot be made.
    public static func open(_ directory: String, options: Options,
                            initial: () throws(ScoutError) -> (engine: Engine, dataDirectory: String?)) throws(ScoutError) -> Opened {
        let started = now()
        if mkdir(directory, 0o755) != 0 && errno != EEXIST {
            throw ScoutError(.notFound, "the state directory cannot be created (\(String(cString: strerror(errno))))", path: directory)
        }
        let lockFile = try lock(directory)
        var keepLock = false
        defer { if !keepLock { close(lockFile) } }
        var files = try list(directory)
        for name in files.temporary {
            unlink(directory + "/" + name)
            options.logger.notice("removed \(name), left by a compaction or first start that did not finish")
        }
        var created = false
        if files.snapshots.isEmpty {
            guard files.journals.isEmpty else {
                throw damaged(directory, "journal-\(files.journals[0]).log has no snapshot before it")
            }
            let (first, dataDirectory) = try initial()
            try first.writeSnapshot(to: snapshotPath(directory, 0), dataDirectory: dataDirectory)
            syncDirectory(directory)
            files.snapshots = [0]
            created = true
        }
        let base = files.snapshots.last!
        let engine: Engine
        do { engine = try Engine(snapshot: snapshotPath(directory, base), privacy: options.privacy, timeZones: options.timeZones,
                                          memory: options.memory) } catch {
            throw ScoutError(error.code, "\(error.message) (snapshot-\(base).scout)", path: directory)
        }
        let chain = files.journals.filter { $0 >= base }
        for (i, n) in chain.enumerated() where n != base + UInt64(i) {
            throw damaged(directory, "journal-\(base + UInt64(i)).log is missing (journal-\(n).log follows)")
        }
        // Replay, segment by segment; consecutive upserts are applied as one batch.
        var pending = PendingUpserts()
        var replayed = 0, cut = 0
        var lastSequence: UInt64?
        var tail: (number: UInt64, size: Int)?
        for (i, n) in chain.enumerated() {
            let path = journalPath(directory, n)
            let bytes = try readFile(path)
            var at: UInt64 = 0
            let result: Result<JournalFile.Scan, JournalFile.HeaderProblem>
            do {
                result = try JournalFile.scan(bytes) { (sequence, change) throws(ScoutError) in
                    at = sequence
                    replayed += 1
                    switch change {
                    case .upsert(let records):
                        pending.add(records, from: "journal-\(n).log", sequence: sequence)
                        if pending.count >= 1 << 16 { try pending.apply(to: engine) }
                    case .remove(let kind, let ids):
                        try pending.apply(to: engine)
                        try engine.remove(kind: RecordKind(kind), ids: ids)
                    }
                }
            } catch {
                // A record that passed its checksum but that the engine refuses (written by a
                // build that validated differently, or altered with its checksum recomputed).
                throw damaged(directory, "\(pending.applying ?? "journal-\(n).log, record \(at)"): a change cannot be applied: "
                              + error.message + (error.path.map { " (at \($0))" } ?? ""))
            }
            let scan: JournalFile.Scan
            switch result {
            case .failure(let p): throw damaged(directory, "journal-\(n).log: \(p.description)")
            case .success(let s): scan = s
            }
            guard scan.header.segment == n else { throw damaged(directory, "journal-\(n).log says it is segment \(scan.header.segment)") }
            guard scan.header.exactDogLocations == (options.privacy == .exact) else {
                throw ScoutError(.invalidRequest, "journal-\(n).log keeps dogs at \(scan.header.exactDogLocations ? "exact locations" : "their cells"); "
                                 + "start \(scan.header.exactDogLocations ? "with" : "without") --exact-dog-locations", path: directory)
            }
            if let last = lastSequence, scan.header.firstSequence != last &+ 1 {
                throw damaged(directory, "journal-\(n).log starts at record \(scan.header.firstSequence), but the one before ended at \(last)")
            }
            lastSequence = scan.lastSequence
            switch scan.ending {
            case .clean: break
            case .torn(let offset, let bytes) where i == chain.count - 1:
                guard truncate(path, off_t(offset)) == 0 else {
                    throw ScoutError(.internal, "journal-\(n).log could not be cut at byte \(offset) (\(String(cString: strerror(errno))))", path: directory)
                }
                cut = bytes
                options.logger.warning("journal-\(n).log: cut off \(bytes) bytes at byte \(offset), a write torn by a crash (it was never answered)")
            case .torn(let offset, _):
                throw damaged(directory, "journal-\(n).log at byte \(offset): a write is cut short, yet journal-\(n + 1).log follows")
            case .damaged(let offset, let reason):
                throw damaged(directory, "journal-\(n).log at byte \(offset): \(reason)")
            }
            tail = (n, scan.goodEnd)
        }
        do { try pending.apply(to: engine) } catch {
            throw damaged(directory, "\(pending.applying ?? "the journal"): a change cannot be applied: \(error.message)"
                          + (error.path.map { " (at \($0))" } ?? ""))
        }
        // The segment to append to: the last one, or a new one after the snapshot.
        let segment: Journal.Segment
        if let tail {
            let fd = Glibc.open(journalPath(directory, tail.number), O_WRONLY | O_CLOEXEC)
            guard fd >= 0 else { throw ScoutError(.internal, "journal-\(tail.number).log cannot be opened for writing", path: directory) }
            segment = Journal.Segment(fd: fd, number: tail.number, size: tail.size)
        } else {
            segment = try createSegment(in: directory, number: base, firstSequence: 1, exactDogLocations: options.privacy == .exact)
        }
        removeFiles(in: directory, before: base)
        let journal = Journal(directory: directory, policy: options.policy, compactAt: options.compactAt,
                              exactDogLocations: options.privacy == .exact, segment: segment,
                              nextSequence: (lastSequence ?? 0) &+ 1, lockFile: lockFile, logger: options.logger)
        keepLock = true
        engine.attach(journal: journal)
        return Opened(engine: engine, journal: journal, created: created, replayed: replayed, cutBytes: cut, seconds: now() - started)
    }

    /// Upserts gathered from consecutive journal records, the last one per record winning.
    struct PendingUpserts {
        private var records: [PointRecord] = []
        private var slot: [String: Int] = [:]
        private var first: (file: String, sequence: UInt64)?
        private var last: (file: String, sequence: UInt64)?
        /// The journal records being applied, for an error (`journal-2.log, records 17–90`).
        private(set) var applying: String?
        var count: Int { records.count }

        mutating func add(_ batch: [PointRecord], from file: String, sequence: UInt64) {
            if first == nil { first = (file, sequence) }
            last = (file, sequence)
            for var r in batch {
                // A field an older build stored and this one derives (a shelter's animals).
                r.fields = Engine.restorable(kind: r.kind, fields: r.fields)
                let key = r.kind.name + "\u{0}" + r.id
                if let i = slot[key] { records[i] = r } else { slot[key] = records.count; records.append(r) }
            }
        }

        mutating func apply(to engine: Engine) throws(ScoutError) {
            guard !records.isEmpty, let first, let last else { return }
            applying = first.file == last.file
                ? (first.sequence == last.sequence ? "\(first.file), record \(first.sequence)" : "\(first.file), records \(first.sequence)–\(last.sequence)")
                : "\(first.file), record \(first.sequence) to \(last.file), record \(last.sequence)"
            try engine.upsert(records)
            applying = nil
            self.first = nil
            self.last = nil
            records.removeAll(keepingCapacity: true)
            slot.removeAll(keepingCapacity: true)
        }
    }

    // MARK: Check and repair

    /// What ``check(_:privacy:)`` found in one file.
    public struct FileReport: Sendable {
        /// The file's name.
        public let name: String
        /// Records (snapshot: records held; journal: good changes).
        public let records: Int
        /// A problem, or `nil` when the file is whole.
        public let problem: String?
        /// True when ``repair(_:)`` would change the file (cut it, or delete it).
        public let repairable: Bool
    }

    /// Reads every file of the chain a start would use and says what is wrong, changing
    /// nothing. The snapshot is read entirely (checksums, records re-validated).
    public static func check(_ directory: String, privacy: LocationPrivacy? = nil) throws(ScoutError) -> [FileReport] {
        try inspect(directory, privacy: privacy, repair: false)
    }

    /// Makes the directory startable: cuts a torn or damaged segment at its last good record
    /// and deletes the segments after it (they cannot be applied past a gap). Returns what
    /// it found and did, file by file. Changes written after the damage are lost: the
    /// report says how many bytes.
    public static func repair(_ directory: String, privacy: LocationPrivacy? = nil) throws(ScoutError) -> [FileReport] {
        try inspect(directory, privacy: privacy, repair: true)
    }

    private static func inspect(_ directory: String, privacy: LocationPrivacy?, repair: Bool) throws(ScoutError) -> [FileReport] {
        var isDirectory = stat()
        guard stat(directory, &isDirectory) == 0, isDirectory.st_mode & S_IFMT == S_IFDIR else {
            throw ScoutError(.notFound, "no state directory there", path: directory)
        }
        let lockFile = try lock(directory)
        defer { close(lockFile) }
        let files = try list(directory)
        guard let base = files.snapshots.last else {
            return [FileReport(name: "(snapshot)", records: 0, problem: files.journals.isEmpty ? "the directory holds no state yet"
                                : "journal files without a snapshot", repairable: false)]
        }
        var reports: [FileReport] = []
        let chain = files.journals.filter { $0 >= base }
        // The journals say how dogs are kept; without one, try both modes on the snapshot.
        var mode = privacy
        if mode == nil, let first = chain.first, let bytes = try? readFile(journalPath(directory, first)),
           case .success(let h) = bytes.withUnsafeBytes({ JournalFile.header($0) }) {
            mode = h.exactDogLocations ? .exact : .approximate
        }
        let snapshotName = "snapshot-\(base).scout"
        do {
            let engine: Engine
            if let mode { engine = try Engine(snapshot: snapshotPath(directory, base), privacy: mode) } else {
                do { engine = try Engine(snapshot: snapshotPath(directory, base), privacy: .approximate) } catch {
                    engine = try Engine(snapshot: snapshotPath(directory, base), privacy: .exact)
                }
            }
            reports.append(FileReport(name: snapshotName, records: engine.stats().reduce(0) { $0 + $1.count }, problem: nil, repairable: false))
        } catch {
            reports.append(FileReport(name: snapshotName, records: 0, problem: error.message, repairable: false))
        }
        var broken = false
        var expected: UInt64?
        for (i, n) in chain.enumerated() {
            let name = "journal-\(n).log", path = journalPath(directory, n)
            if broken || n != base + UInt64(i) {
                if !broken {
                    reports.append(FileReport(name: "journal-\(base + UInt64(i)).log", records: 0, problem: "missing", repairable: false))
                }
                broken = true
                let size = fileSize(path)
                if repair { unlink(path) }
                reports.append(FileReport(name: name, records: 0, problem: "follows a gap: \(size) bytes \(repair ? "deleted" : "that repair deletes")",
                                          repairable: true))
                continue
            }
            let bytes = try readFile(path)
            let result = try JournalFile.scan(bytes) { _, _ in }
            switch result {
            case .failure(let p):
                broken = true
                if repair { unlink(path) }
                reports.append(FileReport(name: name, records: 0, problem: "\(p.description): \(bytes.count) bytes\(repair ? " deleted" : "")",
                                          repairable: true))
            case .success(let scan):
                var problem: String?
                if let e = expected, scan.header.firstSequence != e { problem = "starts at record \(scan.header.firstSequence), expected \(e)" }
                expected = scan.lastSequence &+ 1
                let last = i == chain.count - 1
                switch scan.ending {
                case .clean: break
                case .torn(let offset, let n):
                    problem = "a write cut short by a crash: \(n) bytes at byte \(offset)"
                        + (last ? (repair ? ", cut" : " (a start cuts them too)") : (repair ? ", cut" : ", yet another segment follows"))
                    if !last { broken = true }
                case .damaged(let offset, let reason):
                    problem = "damaged at byte \(offset): \(reason); \(bytes.count - offset) bytes from there \(repair ? "cut" : "that repair cuts")"
                    broken = true
                }
                if repair, scan.goodEnd < bytes.count { _ = truncate(path, off_t(scan.goodEnd)) }
                reports.append(FileReport(name: name, records: scan.records, problem: problem, repairable: scan.goodEnd < bytes.count))
            }
        }
        if repair { syncDirectory(directory) }
        return reports
    }

    // MARK: Files

    static func snapshotPath(_ directory: String, _ n: UInt64) -> String { directory + "/snapshot-\(n).scout" }
    static func journalPath(_ directory: String, _ n: UInt64) -> String { directory + "/journal-\(n).log" }

    /// Creates segment `number` with its header, atomically (written beside it, flushed,
    /// renamed), open for appending.
    static func createSegment(in directory: String, number: UInt64, firstSequence: UInt64,
                              exactDogLocations: Bool) throws(ScoutError) -> Journal.Segment {
        let path = journalPath(directory, number), temporary = path + ".tmp"
        let header = JournalFile.headerBytes(.init(segment: number, firstSequence: firstSequence, exactDogLocations: exactDogLocations))
        let fd = Glibc.open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw ScoutError(.internal, "journal-\(number).log cannot be created (\(String(cString: strerror(errno))))", path: directory) }
        guard Journal.write(fd, header, at: 0) == nil, fdatasync(fd) == 0, rename(temporary, path) == 0 else {
            let e = errno
            close(fd)
            unlink(temporary)
            throw ScoutError(.internal, "journal-\(number).log cannot be written (\(String(cString: strerror(e))))", path: directory)
        }
        syncDirectory(directory)
        return Journal.Segment(fd: fd, number: number, size: header.count)
    }

    /// Deletes journal segments and snapshots numbered below `number`.
    static func removeFiles(in directory: String, before number: UInt64) {
        guard let files = try? list(directory) else { return }
        for n in files.journals where n < number { unlink(journalPath(directory, n)) }
        for n in files.snapshots where n < number { unlink(snapshotPath(directory, n)) }
        syncDirectory(directory)
    }

    /// Flushes the directory itself, so renames and new files survive a power cut.
    static func syncDirectory(_ directory: String) {
        let fd = Glibc.open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return }
        fsync(fd)
        close(fd)
    }

    /// Takes the directory's lock file, or says who holds it.
    private static func lock(_ directory: String) throws(ScoutError) -> Int32 {
        let fd = Glibc.open(directory + "/lock", O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw ScoutError(.notFound, "the state directory's lock file cannot be opened (\(String(cString: strerror(errno))))", path: directory) }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            close(fd)
            throw ScoutError(.invalidRequest, "another scout process is using this state directory", path: directory)
        }
        return fd
    }

    /// The directory's snapshots and journal segments by number, sorted, and leftovers.
    private static func list(_ directory: String) throws(ScoutError) -> (snapshots: [UInt64], journals: [UInt64], temporary: [String]) {
        guard let dir = opendir(directory) else { throw ScoutError(.notFound, "the state directory cannot be read", path: directory) }
        defer { closedir(dir) }
        var snapshots: [UInt64] = [], journals: [UInt64] = [], temporary: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name.contains(".tmp") { temporary.append(name); continue }
            func number(_ prefix: String, _ suffix: String) -> UInt64? {
                guard name.hasPrefix(prefix), name.hasSuffix(suffix) else { return nil }
                return UInt64(name.dropFirst(prefix.count).dropLast(suffix.count))
            }
            if let n = number("snapshot-", ".scout") { snapshots.append(n) }
            if let n = number("journal-", ".log") { journals.append(n) }
        }
        return (snapshots.sorted(), journals.sorted(), temporary.sorted())
    }

    /// A whole file (a journal segment), named by its file name in errors.
    private static func readFile(_ path: String) throws(ScoutError) -> [UInt8] {
        try SnapshotFile.readWholeFile(path, what: String(path.split(separator: "/").last ?? ""))
    }

    private static func fileSize(_ path: String) -> Int {
        var s = stat()
        return stat(path, &s) == 0 ? Int(s.st_size) : 0
    }

    private static func damaged(_ directory: String, _ what: String) -> ScoutError {
        ScoutError(.invalidRequest, "the state cannot be trusted: \(what); nothing was changed. "
                   + "`scout state check \(directory)` reports every file, `scout state repair \(directory)` cuts the damage off", path: directory)
    }

    /// Seconds on a monotonic clock.
    static func now() -> Double {
        var t = timespec()
        clock_gettime(CLOCK_MONOTONIC, &t)
        return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
    }
}
