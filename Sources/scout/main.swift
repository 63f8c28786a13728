import ScoutCatalog
import ScoutEngine
import ScoutGeometry
import ScoutRecommend
import ScoutWorker
#if canImport(Glibc)
import Glibc
#endif

/// `scout` — the command-line entry point. Logs go to stderr; stdout carries only
/// protocol lines (`serve`).
func log(_ message: String) {
    var line = "scout: " + message + "\n"
    line.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
}

let usage = """
    usage: scout serve [--data DIR] [--exact-dog-locations] [--load PATH[:KIND]]... [--data-root DIR]... [--deadline-ms N]
               JSON Lines worker on stdin/stdout (docs/protocol.md). --data names the directory
               with breeds.csv, places.tsv, activities.json and weights.json (default: ./data when it exists). Dogs' locations
               leave approximately unless --exact-dog-locations is given. The protocol's load op reads only files below a
               --data-root directory (none by default: protocol load is off); --load at start-up reads any path.
               --deadline-ms N bounds each request's geometry work (default 1000; 0: none).
           scout version
    """

CrashReport.install()
// A deliberate crash with a record's text in memory, for the test that reads the crash report.
if let secret = getenv("SCOUT_CRASH_TEST").map({ String(cString: $0) }) {
    let kept = [secret, secret + " lives at 51.10794,17.03854"]
    withExtendedLifetime(kept) { UnsafeMutablePointer<Int>(bitPattern: 8)!.pointee = kept.count }
}

var args = Array(CommandLine.arguments.dropFirst())
guard let command = args.first else { log(usage); exit(2) }
args.removeFirst()

switch command {
case "serve":
    var dataDirectory: String? = access("data/breeds.csv", R_OK) == 0 ? "data" : nil
    var privacy = LocationPrivacy.approximate
    var loads: [(path: String, kind: String?)] = []
    var dataRoots: [String] = []
    var deadline: Int? = Worker.defaultDeadlineMilliseconds
    var i = 0
    while i < args.count {
        switch args[i] {
        case "--data":
            guard i + 1 < args.count else { log("--data needs a directory"); exit(2) }
            dataDirectory = args[i + 1]
            i += 2
        case "--load":
            guard i + 1 < args.count else { log("--load needs a path"); exit(2) }
            var path = args[i + 1]
            var kind: String?
            if let colon = path.lastIndex(of: ":"), !path[path.index(after: colon)...].contains("/") {
                kind = String(path[path.index(after: colon)...])
                path = String(path[..<colon])
            }
            loads.append((path, kind))
            i += 2
        case "--data-root":
            guard i + 1 < args.count else { log("--data-root needs a directory"); exit(2) }
            dataRoots.append(args[i + 1])
            i += 2
        case "--deadline-ms":
            guard i + 1 < args.count, let ms = Int(args[i + 1]), ms >= 0 else {
                log("--deadline-ms needs a whole number of milliseconds (0: no deadline)"); exit(2)
            }
            deadline = ms == 0 ? nil : ms
            i += 2
        case "--exact-dog-locations":
            privacy = .exact
            i += 1
        default:
            log("unknown option \(args[i])\n\(usage)")
            exit(2)
        }
    }
    var catalog = Catalog()
    var recommender: Recommender?
    var timeZones: TimeZoneMap?
    if let dataDirectory {
        do {
            catalog = try Catalog.load(dataDirectory: dataDirectory)
            let r = try Recommender.load(dataDirectory: dataDirectory, breeds: catalog.breeds)
            recommender = r
            log("reference data from \(dataDirectory): \(catalog.breeds.breeds.count) breeds, \(catalog.places.places.count) places, "
                + "\(r.catalog.activities.count) activities (catalogue \(r.catalog.version), weights \(r.weights.version))")
            if access(dataDirectory + "/timezones.bin", R_OK) == 0 {
                timeZones = try TimeZoneMap.load(path: dataDirectory + "/timezones.bin")
            } else {
                log("no \(dataDirectory)/timezones.bin (python3 scripts/build_data.py --time-zones): lat/lon points without a timezone use UTC")
            }
        } catch {
            log("could not load reference data from \(dataDirectory): \(error)")
            exit(1)
        }
    } else {
        log("no reference data (give --data DIR): every dog gets the mixed breed profile and place names are unknown")
    }
    let engine = Engine(catalog: catalog, privacy: privacy, recommender: recommender, timeZones: timeZones)
    for (path, kind) in loads {
        do {
            let n = try engine.load(path: path, kind: kind)
            log("loaded \(n) records from \(path)")
        } catch {
            log("could not load \(path): \(error)")
            exit(1)
        }
    }
    let files: FileAccess
    do { files = try FileAccess(roots: dataRoots) } catch {
        log("--data-root: \(error.message)")
        exit(2)
    }
    let served = LineServer(worker: Worker(engine: engine, files: files, deadlineMilliseconds: deadline)).run()
    log("served \(served) requests")
    exit(0)
case "version", "--version":
    var v = Worker.version + "\n"
    v.withUTF8 { _ = write(1, $0.baseAddress, $0.count) }
default:
    log("unknown command \(command)\n\(usage)")
    exit(2)
}
