import ArgumentParser
import ScoutCatalog
import ScoutCore
import ScoutEngine
import ScoutState
import ScoutSource
import ScoutWorker

/// `scout serve`: the JSON Lines worker.
struct Serve: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Answer JSON Lines requests on stdin, one response line each on stdout (docs/protocol.md).",
        discussion: "Runs of read-only requests are answered in parallel; a write waits for the reads before it "
            + "and is seen by every read after it. Responses keep the order of the requests. With --state, every write "
            + "is journalled before it is answered and the catalogue survives restarts and crashes (docs/operations.md).")

    @OptionGroup var catalog: CatalogOptions

    @Option(name: .customLong("data-root"), help: ArgumentHelp(
        "A directory below which the protocol's load op may read files. Repeatable; without one, load is off.",
        valueName: "dir"))
    var dataRoots: [String] = []

    @Option(name: .customLong("state"), help: ArgumentHelp(
        "A directory that keeps the catalogue across restarts: a snapshot and a journal of every write. Created from "
            + "--data/--load/--snapshot on the first start; later starts recover from it and ignore --load and --snapshot.",
        valueName: "dir"))
    var state: String?

    @Option(name: .customLong("fsync"), help: ArgumentHelp(
        "With --state: flush the journal to disk before answering each write (always; writes waiting together share a flush), "
            + "once a second (everysec, the default), or leave it to the kernel (no).",
        valueName: "always|everysec|no"))
    var fsyncOption: FsyncPolicy?

    @Option(name: .customLong("compact-at"), help: ArgumentHelp(
        "With --state: fold the journal into a new snapshot once it is this large (bytes, or with K, M or G; default 64M).",
        valueName: "size"))
    var compactAtOption: ByteCount?

    /// The journal's flush policy (default: once a second, as Redis's default).
    var fsync: FsyncPolicy { fsyncOption ?? .everysec }
    /// The journal size that starts a compaction (default 64 MiB).
    var compactAt: Int { compactAtOption?.bytes ?? 64 << 20 }

    @Option(name: .customLong("source"), help: ArgumentHelp(
        "Load the tables mapped by scout source install from this PostgreSQL database and follow their changes (docs/operations.md).",
        valueName: "postgresql-url"))
    var source: String?

    @Option(name: .customLong("source-poll-ms"), help: ArgumentHelp(
        "With --source: how often to look for changes when no notification came, in milliseconds.", valueName: "ms"))
    var sourcePollMilliseconds: Int = 500

    func validate() throws {
        guard sourcePollMilliseconds >= 10 else { throw ValidationError("--source-poll-ms must be at least 10") }
        if state == nil {
            if fsyncOption != nil { throw ValidationError("--fsync goes with --state, which is missing") }
            if compactAtOption != nil { throw ValidationError("--compact-at goes with --state, which is missing") }
        }
        guard compactAt >= 4096 else { throw ValidationError("--compact-at must be at least 4K") }
        if source != nil && state != nil {
            throw ValidationError("--source and --state do not go together yet: with --source the database is the state")
        }
    }

    func run() throws {
        let files: FileAccess
        do { files = try FileAccess(roots: dataRoots) } catch {
            throw ValidationError("--data-root: \(error.message)")
        }
        var journal: Journal?
        let engine: Engine
        if let state {
            let opened = try openState(state)
            engine = opened.engine
            journal = opened.journal
        } else {
            engine = try catalog.engine()
        }
        if let source { try follow(source, into: engine) }
        let loaded = try catalog.recommender(for: engine)
        let worker = Worker(engine: engine, recommender: loaded?.recommender, replicate: loaded?.replicate, files: files,
                            deadlineMilliseconds: catalog.deadline)
        let server = LineServer(worker: worker, threads: catalog.threads)
        let served = server.run()
        if let failure = server.failure {
            logger.error("stopped after \(served) requests: \(failure.message)")
            throw ExitCode(1)
        }
        journal?.close()
        logger.info("served \(served) requests")
    }

    /// The engine recovered from (or, on the first start, created in) the state directory.
    private func openState(_ directory: String) throws -> StateDirectory.Opened {
        let privacy: LocationPrivacy = catalog.exactDogLocations ? .exact : .approximate
        let options = StateDirectory.Options(policy: fsync, compactAt: compactAt, privacy: privacy,
                                             timeZones: try catalog.timeZoneMap(), memory: catalog.memory, logger: logger)
        var firstFailure: (any Error)?
        let opened: StateDirectory.Opened
        do {
            opened = try StateDirectory.open(directory, options: options) { () throws(ScoutError) in
                do {
                    let engine = try catalog.engine()
                    return (engine, catalog.snapshot == nil ? catalog.resolvedDataDirectory : nil)
                } catch {
                    firstFailure = error
                    throw ScoutError(.internal, "the first catalogue could not be built")
                }
            }
        } catch {
            if let firstFailure { throw firstFailure }
            logger.error("could not open the state directory: \(error)")
            throw ExitCode(1)
        }
        let counts = opened.engine.stats().map { "\($0.count) \($0.kind)" }.joined(separator: ", ")
        if opened.created {
            logger.info("state \(directory): created (\(counts.isEmpty ? "no records" : counts))")
        } else {
            if !catalog.loads.isEmpty || catalog.snapshot != nil {
                logger.warning("state \(directory) already holds the catalogue: --load and --snapshot are ignored (they only seed a new state directory)")
            }
            let torn = opened.cutBytes > 0 ? ", \(opened.cutBytes) torn bytes cut" : ""
            logger.info("state \(directory): recovered \(counts.isEmpty ? "no records" : counts), \(opened.replayed) journal records replayed\(torn) in \(String(format: "%.3f", opened.seconds)) s")
        }
        return opened
    }

    /// Loads the source's tables before the first request, then follows them on a
    /// background task; a failed first load ends the process with status 1.
    private func follow(_ source: String, into engine: Engine) throws {
        let url = try parsedURL(source)
        let follower = SourceFollower(url: url, engine: engine, pollInterval: .milliseconds(sourcePollMilliseconds),
                                      logger: logger)
        let started = Progress.now()
        let summary = try blocking("--source") { () async throws(SourceError) in try await follower.loadInitial() }
        logger.info("source: loaded \(follower.summaryLine(summary)) in \(String(format: "%.3f", Progress.now() - started)) s; following changes")
        Task.detached { await follower.follow() }
    }
}

extension FsyncPolicy: ExpressibleByArgument {}

/// A size in bytes given as a number with an optional K, M or G (binary) suffix.
struct ByteCount: ExpressibleByArgument, Equatable {
    let bytes: Int
    init(bytes: Int) { self.bytes = bytes }
    init?(argument: String) {
        var digits = Substring(argument.uppercased())
        var scale = 1
        if digits.hasSuffix("B") { digits = digits.dropLast() }
        if digits.hasSuffix("I") { digits = digits.dropLast() }
        switch digits.last {
        case "K": scale = 1 << 10
        case "M": scale = 1 << 20
        case "G": scale = 1 << 30
        default: break
        }
        if scale > 1 { digits = digits.dropLast() }
        guard let n = Int(digits), n >= 0, n <= Int.max / scale else { return nil }
        bytes = n * scale
    }
}
