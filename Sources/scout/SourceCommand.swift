import ArgumentParser
import Dispatch
import ScoutSource

/// `scout source`: prepare a PostgreSQL database for `scout serve --source` and keep its
/// change table short (docs/operations.md, "Replicas following PostgreSQL").
struct SourceCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "source",
        abstract: "Prepare a PostgreSQL/PostGIS database for scout serve --source.",
        subcommands: [SourceInstall.self, SourcePrune.self])
}

/// `scout source install URL --table TABLE:KIND …`.
struct SourceInstall: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "install",
        abstract: "Create the scout schema, the change table and a change trigger on each mapped table.",
        discussion: "TABLE:KIND[:id=COL,place=COL|none,fields=COL|none]; the columns default to id, place "
            + "(a PostGIS geography or geometry point) and fields (jsonb). Safe to run again; running replicas reload.")

    @Argument(help: ArgumentHelp("The database: postgresql://[user@][host][:port]/database (a Unix socket directory or loopback).",
                                 valueName: "url"))
    var url: String

    @Option(name: .customLong("table"), help: ArgumentHelp("A table and the kind its rows become. Repeatable.",
                                                             valueName: "table:kind[:options]"))
    var tables: [String] = []

    func run() throws {
        let source = try parsedURL(url)
        var mappings: [TableMapping] = []
        for t in tables {
            do { mappings.append(try TableMapping.parse(t)) } catch { throw ValidationError(error.message) }
        }
        if mappings.isEmpty { throw ValidationError("give at least one --table TABLE:KIND") }
        let fixed = mappings
        try blocking("install") { () async throws(SourceError) in try await SourceInstaller.install(url: source, mappings: fixed) }
        logger.info("installed the change trigger on \(mappings.map { "\($0.table) (\($0.kind))" }.joined(separator: ", ")) in \(source.shown)")
    }
}

/// `scout source prune URL --keep-seconds N`.
struct SourcePrune: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "prune",
        abstract: "Delete changes older than --keep-seconds from scout.changes.",
        discussion: "A replica disconnected for longer than that reloads its tables in full when it reconnects.")

    @Argument(help: ArgumentHelp("The database URL, as for install.", valueName: "url"))
    var url: String

    @Option(name: .customLong("keep-seconds"), help: ArgumentHelp("Keep changes younger than this.", valueName: "s"))
    var keepSeconds: Int = 86_400

    func validate() throws {
        guard keepSeconds >= 0 else { throw ValidationError("--keep-seconds must be 0 or more") }
    }

    func run() throws {
        let source = try parsedURL(url)
        let keep = keepSeconds
        let n = try blocking("prune") { () async throws(SourceError) in try await SourceInstaller.prune(url: source, keepSeconds: keep) }
        logger.info("pruned \(n) changes older than \(keepSeconds) s from \(source.shown)")
    }
}

/// Parses a `--source`/install URL, or fails validation with what was wrong.
func parsedURL(_ text: String) throws -> SourceURL {
    do { return try SourceURL.parse(text) } catch { throw ValidationError(error.message) }
}

/// Runs async work to completion from a synchronous command; a ``SourceError`` is logged
/// with what was being done and ends the process with status 1.
func blocking<T: Sendable>(_ what: String, _ work: @escaping @Sendable () async throws(SourceError) -> T) throws -> T {
    let box = ResultBox<T>()
    let done = DispatchSemaphore(value: 0)
    Task.detached {
        do throws(SourceError) { box.result = .success(try await work()) } catch { box.result = .failure(error) }
        done.signal()
    }
    done.wait()
    switch box.result! {
    case .success(let v): return v
    case .failure(let e):
        logger.info("\(what): \(e)")
        throw ExitCode(1)
    }
}

/// The result of a detached task, written once by the task and read after its semaphore
/// signalled (the semaphore orders the two, hence `@unchecked Sendable`).
private final class ResultBox<T>: @unchecked Sendable {
    var result: Result<T, SourceError>?
}
