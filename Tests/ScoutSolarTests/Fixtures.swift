import Foundation
import ScoutTestSupport
import ScoutTime

/// The committed astral 3.2 reference data (`Tests/Fixtures/README.md` says how it was made).
enum Fixtures {
    struct Elevation {
        let line: Int
        let lat: Double, lon: Double
        let utc: Instant
        /// astral's apparent elevation (with its refraction) and geometric elevation, degrees.
        let apparent: Double, geometric: Double
    }

    struct SunTimes {
        let line: Int
        let lat: Double, lon: Double
        let date: LocalDate
        let dawn: Instant?, sunrise: Instant?, sunset: Instant?, dusk: Instant?

        /// The nautical zone the fixture's `date` is local to: round(lon / 15) hours
        /// (Python's round: ties to even), within ±12.
        var utcOffsetSeconds: Int32 {
            Int32(max(-12, min(12, (lon / 15).rounded(.toNearestOrEven)))) * 3600
        }
        /// Local midnight that starts `date`, as Unix seconds.
        var midnight: Int64 { date.daysSinceEpoch * 86_400 - Int64(utcOffsetSeconds) }
        var place: String { "(\(lat), \(lon)) on \(date), line \(line)" }
    }

    static func rows(_ name: String) -> [(line: Int, fields: [String])] {
        let path = Repository.root + "/Tests/Fixtures/" + name
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { fatalError("cannot read \(path)") }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: true)
        return lines.enumerated().dropFirst().map { (i, l) in
            (i + 1, l.split(separator: ",", omittingEmptySubsequences: false).map(String.init))
        }
    }

    static func instant(_ s: String) -> Instant? {
        s.isEmpty ? nil : try! Instant.parse(s, path: "fixture")
    }

    static let elevations: [Elevation] = rows("solar_elevation.csv").map { line, f in
        precondition(f.count == 5, "solar_elevation.csv line \(line)")
        return Elevation(line: line, lat: Double(f[0])!, lon: Double(f[1])!, utc: instant(f[2])!,
                         apparent: Double(f[3])!, geometric: Double(f[4])!)
    }

    static let sunTimes: [SunTimes] = rows("sun_times.csv").map { line, f in
        precondition(f.count == 7, "sun_times.csv line \(line)")
        return SunTimes(line: line, lat: Double(f[0])!, lon: Double(f[1])!, date: try! LocalDate.parse(f[2], path: "fixture"),
                        dawn: instant(f[3]), sunrise: instant(f[4]), sunset: instant(f[5]), dusk: instant(f[6]))
    }
}
