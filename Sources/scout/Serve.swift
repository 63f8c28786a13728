import ArgumentParser
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

    func run() throws {
        let files: FileAccess
        do { files = try FileAccess(roots: dataRoots) } catch {
            throw ValidationError("--data-root: \(error.message)")
        }
        let engine = try catalog.engine()
        let worker = Worker(engine: engine, files: files, deadlineMilliseconds: catalog.deadline)
        let served = LineServer(worker: worker, threads: catalog.threads).run()
        log("served \(served) requests")
    }
}
