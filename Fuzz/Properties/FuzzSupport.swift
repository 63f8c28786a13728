import ScoutCatalog
import ScoutCore
import ScoutEngine
import ScoutJSON
import ScoutRecommend
import ScoutRecommendJSON
#if canImport(Glibc)
import Glibc
#endif

/// Helpers the fuzz targets and their replays share: where the repository is, and a small
/// engine to fuzz.
public enum FuzzSupport {
    /// The repository's root: `$SCOUT_ROOT`, else two folders above this file
    /// (`Fuzz/Properties/FuzzSupport.swift`).
    public static let repositoryRoot: String = {
        if let p = getenv("SCOUT_ROOT") { return String(cString: p) }
        var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(3)
        return parts.joined(separator: "/")
    }()

    /// Writes a line to stderr (libFuzzer owns stdout's meaning only loosely, but keep it quiet).
    public static func log(_ message: String) {
        var line = "fuzz: " + message + "\n"
        line.withUTF8 { _ = write(2, $0.baseAddress, $0.count) }
    }

    /// Stops the process with a message: a harness problem, not a finding.
    public static func fail(_ message: String) -> Never {
        log(message)
        exit(3)
    }

    /// The reference data (breeds, places, activities, weights) from `data/`.
    public static let reference: (catalog: Catalog, recommender: Recommender) = {
        let dir = repositoryRoot + "/data"
        do throws(ScoutError) {
            let catalog = try Catalog.load(dataDirectory: dir)
            let recommender = try Recommender.load(dataDirectory: dir, breeds: catalog.breeds)
            return (catalog, recommender)
        } catch {
            fail("could not load reference data from \(dir): \(error)")
        }
    }()

    /// A few hundred sample records near the places the protocol's examples ask about
    /// (Ireland, Wrocław) plus the first of each file, read once from `data/sample/`.
    public static let sampleRecords: [PointRecord] = {
        var out: [PointRecord] = []
        for (file, cap) in [("dogs", 250), ("gyms", 150), ("shelters", 60)] {
            let path = repositoryRoot + "/data/sample/\(file).jsonl"
            guard let f = fopen(path, "r") else { fail("cannot open \(path) (run scripts/build_data.py --sample-dogs)") }
            defer { fclose(f) }
            var taken = 0, lineNumber = 0
            var buffer: UnsafeMutablePointer<CChar>?
            var capacity = 0
            while taken < cap, getline(&buffer, &capacity, f) > 0, let b = buffer {
                lineNumber += 1
                let text = String(cString: b)
                guard let v = try? JSONReader.parse(text), let lat = v["lat"]?.double, let lon = v["lon"]?.double else { continue }
                let ireland = lon > -11 && lon < -5.3 && lat > 51.3 && lat < 55.5
                let wroclaw = lon > 16.5 && lon < 17.5 && lat > 50.8 && lat < 51.4
                guard ireland || wroclaw || lineNumber <= 10 else { continue }
                if let r = try? PointRecord.from(json: v, defaultKind: nil, path: "\(file)[\(lineNumber)]") {
                    out.append(r)
                    taken += 1
                }
            }
            free(buffer)
        }
        return out
    }()

    /// A new engine over the reference data holding ``sampleRecords`` (dog locations exact,
    /// so that answers do not depend on the privacy grid).
    public static func makeEngine() -> Engine {
        let engine = Engine(catalog: reference.catalog, privacy: .exact)
        do throws(ScoutError) {
            _ = try engine.upsert(sampleRecords)
        } catch {
            fail("could not upsert the sample records: \(error)")
        }
        return engine
    }
}
