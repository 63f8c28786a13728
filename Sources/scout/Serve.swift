import ArgumentParser
import ScoutEngine
import ScoutSource
import ScoutWorker

/// `scout serve`: the JSON Lines worker.
struct Serve: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Answer JSON Lines requests on stdin, one response line each on stdout (docs/protocol.md).",
        discussion: "Runs of read-only requests are answered in parallel; a write waits for the reads before it "
            + "and is seen by every read after it. Responses keep the order of the requests.")

    @OptionGroup var catalog: CatalogOptions

    @Option(name: .customLong("data-root"), help: ArgumentHelp(
        "A directory below which the protocol's load op may read files. Repeatable; without one, load is off.",
        valueName: "dir"))
    var dataRoots: [String] = []

    @Option(name: .customLong("source"), help: ArgumentHelp(
        "Load the tables mapped by scout source install from this PostgreSQL database and follow their changes (docs/operations.md).",
        valueName: "postgresql-url"))
    var source: String?

    @Option(name: .customLong("source-poll-ms"), help: ArgumentHelp(
        "With --source: how often to look for changes when no notification came, in milliseconds.", valueName: "ms"))
    var sourcePollMilliseconds: Int = 500

    func validate() throws {
        guard sourcePollMilliseconds >= 10 else { throw ValidationError("--source-poll-ms must be at least 10") }
    }

    func run() throws {
        let files: FileAccess
        do { files = try FileAccess(roots: dataRoots) } catch {
            throw ValidationError("--data-root: \(error.message)")
        }
        let engine = try catalog.engine()
        if let source { try follow(source, into: engine) }
        let worker = Worker(engine: engine, files: files, deadlineMilliseconds: catalog.deadline)
        let served = LineServer(worker: worker, threads: catalog.threads).run()
        log("served \(served) requests")
    }

    /// Loads the source's tables before the first request, then follows them on a
    /// background task; a failed first load ends the process with status 1.
    private func follow(_ source: String, into engine: Engine) throws {
        let url = try parsedURL(source)
        let follower = SourceFollower(url: url, engine: engine, pollInterval: .milliseconds(sourcePollMilliseconds),
                                      log: { log($0) })
        let started = Progress.now()
        let summary = try blocking("--source") { () async throws(SourceError) in try await follower.loadInitial() }
        log("source: loaded \(follower.summaryLine(summary)) in \(String(format: "%.3f", Progress.now() - started)) s; following changes")
        Task.detached { await follower.follow() }
    }
}
