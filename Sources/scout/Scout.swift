import ArgumentParser
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
        subcommands: [Serve.self, Rank.self, SnapshotCommand.self, StateCommand.self, SourceCommand.self, Version.self])

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

/// Writes one line to stderr.
func log(_ message: String) {
    var line = "scout: " + message + "\n"
    line.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
}

/// `scout version`.
struct Version: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Print the version.")

    func run() {
        var v = Worker.version + "\n"
        v.withUTF8 { _ = write(1, $0.baseAddress, $0.count) }
    }
}
