import ArgumentParser
import ScoutEngine

/// `scout snapshot`: writes the loaded state to a snapshot file that `serve` and `rank`
/// start from with `--snapshot` (docs/snapshot.md).
struct SnapshotCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "snapshot",
        abstract: "Write the loaded reference data and records to a snapshot file that serve and rank load at once (--snapshot).",
        discussion: "The file holds the reference files (breeds.csv, places.tsv, activities.json, weights.json), every record "
            + "with its fields, the packed index and the privacy mode; timezones.bin stays in --data. A snapshot written "
            + "without --exact-dog-locations never loads with it, and the reverse. Format: docs/snapshot.md.")

    @OptionGroup var catalog: CatalogOptions

    @Option(name: .customLong("out"), help: ArgumentHelp("The snapshot file to write (replaced atomically).", valueName: "file"))
    var output: String

    func run() throws {
        let engine = try catalog.engine()
        // The recommender's files go into the snapshot: check now that they load.
        _ = try catalog.recommender(for: engine)
        let started = Progress.now()
        do {
            // From a snapshot, its own reference files are written again; else the data directory's.
            try engine.writeSnapshot(to: output, dataDirectory: catalog.snapshot == nil ? catalog.resolvedDataDirectory : nil)
        } catch {
            logger.error("could not write the snapshot \(output): \(error)")
            throw ExitCode(1)
        }
        let counts = engine.stats().map { "\($0.count) \($0.kind)" }.joined(separator: ", ")
        logger.info("wrote \(output) (\(counts.isEmpty ? "no records" : counts)) in \(String(format: "%.3f", Progress.now() - started)) s")
    }
}
