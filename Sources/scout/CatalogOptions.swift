import ArgumentParser
import ScoutCatalog
import ScoutCore
import ScoutEngine
import ScoutGeometry
import ScoutRecommend
import ScoutRecommendJSON
import ScoutWorker
#if canImport(Glibc)
import Glibc
#endif

/// The options `serve` and `rank` share: where the reference data and records come from,
/// how dogs' locations leave, how long geometry work may run, and how many threads answer.
struct CatalogOptions: ParsableArguments {
    @Option(name: .customLong("data"), help: ArgumentHelp(
        "Directory with breeds.csv, places.tsv, activities.json, weights.json, enjoyment_prior.json and timezones.bin (default: ./data when it exists).",
        valueName: "dir"))
    var dataDirectory: String?

    @Option(name: .customLong("load"), help: ArgumentHelp(
        "Records to load at start-up (JSON Lines, GeoJSON or CSV); a :kind suffix names the default kind. Repeatable.",
        valueName: "path[:kind]"))
    var loads: [String] = []

    @Option(name: .customLong("snapshot"), help: ArgumentHelp(
        "A snapshot file (scout snapshot) to start from instead of reference files and records; --data then only names where timezones.bin is, and --load adds records on top.",
        valueName: "file"))
    var snapshot: String?

    @Option(name: .customLong("prior"), help: ArgumentHelp(
        "The recommender's enjoyment prior (default: the snapshot's, else enjoyment_prior.json of --data); a refitted one from scout fit-prior.",
        valueName: "file"))
    var priorPath: String?

    @Flag(name: .customLong("exact-dog-locations"), help: "Return dogs' exact locations (default: the centre of a ~1 km cell).")
    var exactDogLocations = false

    @Option(name: .customLong("deadline-ms"), help: ArgumentHelp(
        "Longest a request's geometry work may run, in milliseconds; 0 for none.", valueName: "ms"))
    var deadlineMilliseconds: Int = Worker.defaultDeadlineMilliseconds

    @Option(name: .customLong("threads"), help: ArgumentHelp("Requests answered at once (default: every core).", valueName: "n"))
    var threadCount: Int?

    @Option(name: .customLong("memory-limit"), help: ArgumentHelp(
        "Most memory the process may hold (e.g. 8G, 512M); a load that would pass it, or the system's available memory, is refused (default: the system's).",
        valueName: "size"))
    var memoryLimit: String?

    /// The memory budget of loads (``MemoryBudget``).
    var memory: MemoryBudget { MemoryBudget(limit: memoryLimit.flatMap(MemoryBudget.parse)) }

    /// The thread count to use.
    var threads: Int { threadCount ?? LineServer.defaultThreads }

    func validate() throws {
        guard deadlineMilliseconds >= 0 else { throw ValidationError("--deadline-ms must be 0 or more milliseconds") }
        if let t = threadCount, t < 1 || t > 1024 { throw ValidationError("--threads must be between 1 and 1024") }
        for l in loads where l.isEmpty { throw ValidationError("--load needs a path") }
        if let m = memoryLimit, MemoryBudget.parse(m) == nil {
            throw ValidationError("--memory-limit must be a size such as 8G, 512M, 64K or a number of bytes, not '\(m)'")
        }
    }

    /// An engine with the reference data and the loaded records; exits with status 1 and a
    /// log line when something cannot be read.
    func engine() throws -> Engine {
        let dir = resolvedDataDirectory
        if let snapshot { return try engine(snapshot: snapshot, dataDirectory: dir) }
        var catalog = Catalog()
        var timeZones: TimeZoneMap?
        if let dir {
            do {
                catalog = try Catalog.load(dataDirectory: dir)
                logger.info("reference data from \(dir): \(catalog.breeds.breeds.count) breeds, \(catalog.places.places.count) places")
            } catch {
                logger.error("could not load reference data from \(dir): \(error)")
                throw ExitCode(1)
            }
        } else {
            logger.warning("no reference data (give --data DIR): every dog gets the mixed breed profile and place names are unknown")
        }
        timeZones = try timeZoneMap()
        let engine = Engine(catalog: catalog, privacy: exactDogLocations ? .exact : .approximate, timeZones: timeZones, memory: memory)
        try load(into: engine)
        return engine
    }

    /// The recommender that goes with an engine: from the `activities.json`, `weights.json`
    /// and `enjoyment_prior.json` of the snapshot it was restored from (`--snapshot`, or a
    /// state directory's), else from the data directory, the prior from `--prior` when given;
    /// `nil`, with a log line, without them. Exits
    /// with status 1 when the files do not load. `replicate` loads the same bytes again,
    /// for the worker's per-thread copies.
    func recommender(for engine: Engine) throws -> (recommender: Recommender, replicate: @Sendable () -> Recommender)? {
        let files = engine.referenceFiles
        let restored = snapshot != nil || files != SnapshotReferenceFiles()
        let activities: [UInt8], weights: [UInt8]
        var prior: [UInt8]?, priorSource = "enjoyment_prior.json"
        if restored {
            guard let a = files.activities, let w = files.weights else {
                logger.warning("no activities.json and weights.json in the snapshot: recommending and ranking answer not_found")
                return nil
            }
            (activities, weights, prior) = (a, w, files.enjoymentPrior)
            priorSource = "the snapshot's enjoyment_prior.json"
        } else {
            guard let dir = resolvedDataDirectory else { return nil }
            do {
                activities = try SnapshotFile.readWholeFile(dir + "/activities.json", what: "activities.json")
                weights = try SnapshotFile.readWholeFile(dir + "/weights.json", what: "weights.json")
                if priorPath == nil { prior = try SnapshotFile.readWholeFile(dir + "/enjoyment_prior.json", what: "enjoyment_prior.json") }
                priorSource = dir + "/enjoyment_prior.json"
            } catch {
                logger.error("could not read the recommender's files in \(dir): \(error)")
                throw ExitCode(1)
            }
        }
        if let priorPath {
            do { prior = try SnapshotFile.readWholeFile(priorPath, what: "the enjoyment prior") } catch {
                logger.error("could not read --prior \(priorPath): \(error)")
                throw ExitCode(1)
            }
            priorSource = priorPath
        }
        guard let prior else {
            logger.error("the snapshot has no enjoyment_prior.json (written by an older build): give --prior data/enjoyment_prior.json")
            throw ExitCode(1)
        }
        let breeds = engine.catalog.breeds
        let recommender: Recommender
        do { recommender = try Recommender.load(activities: activities, weights: weights, prior: prior, priorSource: priorSource, breeds: breeds) } catch {
            logger.error("could not load the recommender's activities.json, weights.json and enjoyment prior: \(error)")
            throw ExitCode(1)
        }
        logger.info("recommender: \(recommender.catalog.activities.count) activities (catalogue \(recommender.catalog.version), weights \(recommender.weights.version), prior \(recommender.prior.version))")
        // The same bytes loaded again cannot fail where they loaded once.
        let source = priorSource
        return (recommender, { try! Recommender.load(activities: activities, weights: weights, prior: prior, priorSource: source, breeds: breeds) })
    }

    /// The time-zone polygons of the data directory's `timezones.bin` (`nil`, with a log
    /// line, when there is none); exits with status 1 when the file cannot be read.
    func timeZoneMap() throws -> TimeZoneMap? {
        guard let dir = resolvedDataDirectory else { return nil }
        guard access(dir + "/timezones.bin", R_OK) == 0 else {
            logger.warning("no \(dir)/timezones.bin (python3 scripts/build_data.py --time-zones): lat/lon points without a timezone use UTC")
            return nil
        }
        do { return try TimeZoneMap.load(path: dir + "/timezones.bin") } catch {
            logger.error("could not load \(dir)/timezones.bin: \(error)")
            throw ExitCode(1)
        }
    }

    /// The data directory: `--data`, else `./data` when it holds breeds.csv.
    var resolvedDataDirectory: String? { dataDirectory ?? (access("data/breeds.csv", R_OK) == 0 ? "data" : nil) }

    /// An engine restored from `--snapshot` (time zones from the data directory), with the
    /// `--load` records on top.
    private func engine(snapshot path: String, dataDirectory dir: String?) throws -> Engine {
        let timeZones = try timeZoneMap()
        let engine: Engine
        let started = Progress.now()
        do {
            engine = try Engine(snapshot: path, privacy: exactDogLocations ? .exact : .approximate, timeZones: timeZones, memory: memory)
        } catch {
            logger.error("could not load the snapshot \(path): \(error)")
            throw ExitCode(1)
        }
        let counts = engine.stats().map { "\($0.count) \($0.kind)" }.joined(separator: ", ")
        logger.info("snapshot \(path): \(counts.isEmpty ? "no records" : counts) in \(String(format: "%.3f", Progress.now() - started)) s")
        try load(into: engine)
        return engine
    }

    /// Loads every `--load` file into the engine; exits with status 1 on the first error.
    private func load(into engine: Engine) throws {
        for spec in loads {
            var path = spec
            var kind: String?
            if let colon = spec.lastIndex(of: ":"), !spec[spec.index(after: colon)...].contains("/") {
                kind = String(spec[spec.index(after: colon)...])
                path = String(spec[..<colon])
            }
            do {
                let started = Progress.now()
                let n = try engine.load(path: path, kind: kind.map { RecordKind($0) })
                logger.info("loaded \(n) records from \(path) in \(String(format: "%.3f", Progress.now() - started)) s")
            } catch {
                logger.error("could not load \(path): \(error)")
                throw ExitCode(1)
            }
        }
    }

    /// The per-request deadline, `nil` for none.
    var deadline: Int? { deadlineMilliseconds == 0 ? nil : deadlineMilliseconds }
}
