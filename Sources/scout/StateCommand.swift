import ArgumentParser
import ScoutCore
import ScoutState
#if canImport(Glibc)
import Glibc
#endif

/// `scout state check|repair DIR`: report on and repair a state directory (`serve --state`).
struct StateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "state",
        abstract: "Check or repair a state directory written by serve --state (docs/operations.md).",
        subcommands: [Check.self, Repair.self])

    /// `scout state check DIR`.
    struct Check: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Read every file a start would use and report what is wrong; change nothing.",
            discussion: "Exit status: 0 when every file is whole, 1 when something is wrong (a torn last write, which a start "
                + "cuts off by itself, or damage, which stops a start until repaired).")

        @Argument(help: ArgumentHelp("The state directory.", valueName: "dir"))
        var directory: String

        func run() throws {
            let reports = try StateCommand.report("check", directory) { () throws(ScoutError) in try StateDirectory.check(directory) }
            if reports.contains(where: { $0.problem != nil }) { throw ExitCode(1) }
        }
    }

    /// `scout state repair DIR`.
    struct Repair: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Cut a damaged or torn journal at its last good record and delete the segments after it.",
            discussion: "Writes after the damage are lost; the report says how many bytes. Stop the server first (the "
                + "directory's lock keeps a running one out).")

        @Argument(help: ArgumentHelp("The state directory.", valueName: "dir"))
        var directory: String

        func run() throws {
            _ = try StateCommand.report("repair", directory) { () throws(ScoutError) in try StateDirectory.repair(directory) }
        }
    }

    /// Runs `inspect` and prints one line per file on stdout: name, records, and the
    /// problem or "ok"; logs and exits with status 1 when the directory cannot be read.
    static func report(_ verb: String, _ directory: String,
                       _ inspect: () throws(ScoutError) -> [StateDirectory.FileReport]) throws -> [StateDirectory.FileReport] {
        let reports: [StateDirectory.FileReport]
        do { reports = try inspect() } catch {
            logger.error("could not \(verb) \(directory): \(error)")
            throw ExitCode(1)
        }
        for r in reports {
            var line = "\(r.name): \(r.records) records, \(r.problem ?? "ok")\n"
            line.withUTF8 { _ = write(1, $0.baseAddress, $0.count) }
        }
        return reports
    }
}
