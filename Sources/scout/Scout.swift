import ArgumentParser
import Logging
import ScoutWorker
#if canImport(Glibc)
import Glibc
#endif

/// `scout` — the command-line entry point. Logs go to stderr; stdout carries only
/// protocol lines (`serve`) or response lines (`rank`).
@main
struct Scout: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scout",
        abstract: "A geospatial search and recommendation engine.",
        discussion: "Protocol: docs/protocol.md. Every subcommand has --help.",
        subcommands: [Serve.self, Rank.self, Evaluate.self, FitPrior.self, SnapshotCommand.self, StateCommand.self, SourceCommand.self, Version.self])

    static func main() {
        CrashReport.install()
        // A deliberate crash with a record's text in memory, for the test that reads the crash report.
        if let secret = getenv("SCOUT_CRASH_TEST").map({ String(cString: $0) }) {
            let kept = [secret, secret + " lives at 51.10794,17.03854"]
            withExtendedLifetime(kept) { UnsafeMutablePointer<Int>(bitPattern: 8)!.pointee = kept.count }
        }
        main(nil)
    }
}

/// Everything the executable logs, its own lines and those of the state directory and the
/// PostgreSQL follower, goes through this swift-log logger, to stderr as ``StderrLineHandler``
/// writes it.
let logger = Logger(label: "scout", factory: { StderrLineHandler(label: $0) })

/// The `scout` executable's log lines: `scout: <message>` on stderr, one `write` per line,
/// whatever the level (operators and the tests read this format; metadata is not printed).
/// Levels below `info` are dropped unless a logger lowers ``logLevel``.
struct StderrLineHandler: LogHandler {
    /// The logger's label (not printed).
    let label: String
    /// The least severe level written.
    var logLevel: Logger.Level = .info
    /// Metadata (kept for the protocol, not printed).
    var metadata: Logger.Metadata = [:]

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        var line = "scout: \(event.message)\n"
        line.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
    }
}

/// `scout version`.
struct Version: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Print the version.")

    func run() {
        var v = Worker.version + "\n"
        v.withUTF8 { _ = write(1, $0.baseAddress, $0.count) }
    }
}
