import ArgumentParser
import ScoutCatalog
import ScoutEngine
import ScoutGeometry
import ScoutRecommend
import ScoutWorker
#if canImport(Glibc)
import Glibc
#endif

/// The options `serve` and `rank` share: where the reference data and records come from,
/// how dogs' locations leave, how long geometry work may run, and how many threads answer.
struct CatalogOptions: ParsableArguments {
    @Option(name: .customLong("data"), help: ArgumentHelp(
        "Directory with breeds.csv, places.tsv, activities.json, weights.json and timezones.bin (default: ./data when it exists).",
        valueName: "dir"))
    var dataDirectory: String?

    @Option(name: .customLong("load"), help: ArgumentHelp(
        "Records to load at start-up (JSON Lines, GeoJSON or CSV); a :kind suffix names the default kind. Repeatable.",
        valueName: "path[:kind]"))
    var loads: [String] = []

    @Flag(name: .customLong("exact-dog-locations"), help: "Return dogs' exact locations (default: the centre of a ~1 km cell).")
    var exactDogLocations = false

    @Option(name: .customLong("deadline-ms"), help: ArgumentHelp(
        "Longest a request's geometry work may run, in milliseconds; 0 for none.", valueName: "ms"))
    var deadlineMilliseconds: Int = Worker.defaultDeadlineMilliseconds

    @Option(name: .customLong("threads"), help: ArgumentHelp("Requests answered at once (default: every core).", valueName: "n"))
    var threadCount: Int?

    /// The thread count to use.
    var threads: Int { threadCount ?? LineServer.defaultThreads }

    func validate() throws {
        guard deadlineMilliseconds >= 0 else { throw ValidationError("--deadline-ms must be 0 or more milliseconds") }
        if let t = threadCount, t < 1 || t > 1024 { throw ValidationError("--threads must be between 1 and 1024") }
        for l in loads where l.isEmpty { throw ValidationError("--load needs a path") }
    }

    /// An engine with the reference data and the loaded records; exits with status 1 and a
    /// log line when something cannot be read.
    func engine() throws -> Engine {
        let dir = dataDirectory ?? (access("data/breeds.csv", R_OK) == 0 ? "data" : nil)
        var catalog = Catalog()
        var recommender: Recommender?
        var timeZones: TimeZoneMap?
        if let dir {
            do {
                catalog = try Catalog.load(dataDirectory: dir)
                let r = try Recommender.load(dataDirectory: dir, breeds: catalog.breeds)
                recommender = r
                log("reference data from \(dir): \(catalog.breeds.breeds.count) breeds, \(catalog.places.places.count) places, "
                    + "\(r.catalog.activities.count) activities (catalogue \(r.catalog.version), weights \(r.weights.version))")
                if access(dir + "/timezones.bin", R_OK) == 0 {
                    timeZones = try TimeZoneMap.load(path: dir + "/timezones.bin")
                } else {
                    log("no \(dir)/timezones.bin (python3 scripts/build_data.py --time-zones): lat/lon points without a timezone use UTC")
                }
            } catch {
                log("could not load reference data from \(dir): \(error)")
                throw ExitCode(1)
            }
        } else {
            log("no reference data (give --data DIR): every dog gets the mixed breed profile and place names are unknown")
        }
        let engine = Engine(catalog: catalog, privacy: exactDogLocations ? .exact : .approximate, recommender: recommender,
                            timeZones: timeZones)
        for spec in loads {
            var path = spec
            var kind: String?
            if let colon = spec.lastIndex(of: ":"), !spec[spec.index(after: colon)...].contains("/") {
                kind = String(spec[spec.index(after: colon)...])
                path = String(spec[..<colon])
            }
            do {
                let n = try engine.load(path: path, kind: kind)
                log("loaded \(n) records from \(path)")
            } catch {
                log("could not load \(path): \(error)")
                throw ExitCode(1)
            }
        }
        return engine
    }

    /// The per-request deadline, `nil` for none.
    var deadline: Int? { deadlineMilliseconds == 0 ? nil : deadlineMilliseconds }
}
