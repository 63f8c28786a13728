import Foundation
import ScoutCore
import ScoutGeometry
import ScoutTestSupport
import Testing

/// `data/timezones.bin`, built by `python3 scripts/build_data.py --time-zones --if-missing`
/// (scripts/test.sh runs it first): the tests fail, not skip, when it is missing.
enum TimeZoneData {
    static let path = Repository.data + "/timezones.bin"
    static let loaded: Result<TimeZoneMap, ScoutError> = Result { () throws(ScoutError) in try TimeZoneMap.load(path: path) }
    static func map() throws -> TimeZoneMap { try loaded.get() }

    /// `Tests/Fixtures/timezone_points.csv` (scripts/make_tz_fixture.py): seeded random
    /// points and the zone timezonefinder 9.0.0 gives each.
    struct Row: Sendable {
        let line: Int
        let point: GeoPoint
        let zone: String
        let kind: String
    }

    static let fixture: [Row] = {
        let path = Repository.root + "/Tests/Fixtures/timezone_points.csv"
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return [] }
        return text.split(separator: "\n").enumerated().dropFirst().compactMap { i, line in
            let f = line.split(separator: ",", omittingEmptySubsequences: false)
            guard f.count == 4, let lat = Double(f[0]), let lon = Double(f[1]) else { return nil }
            return Row(line: i + 1, point: GeoPoint(lat: lat, lon: lon), zone: String(f[2]), kind: String(f[3]))
        }
    }()
}

@Suite struct TimeZoneMapTests {
    struct Place: Sendable, CustomTestStringConvertible {
        let name: String, lat: Double, lon: Double, zone: String
        var testDescription: String { name }
    }

    /// Towns on both sides of borders, enclaves, the antimeridian and the poles, with the zone
    /// in force there.
    static let places: [Place] = [
        Place(name: "Görlitz", lat: 51.1522, lon: 14.9680, zone: "Europe/Berlin"),
        Place(name: "Görlitz, Untermarkt (200 m from the Neisse)", lat: 51.1561, lon: 14.9886, zone: "Europe/Berlin"),
        Place(name: "Zgorzelec", lat: 51.1490, lon: 15.0110, zone: "Europe/Warsaw"),
        Place(name: "Zgorzelec centre", lat: 51.1532, lon: 15.0096, zone: "Europe/Warsaw"),
        Place(name: "Tijuana", lat: 32.5149, lon: -117.0382, zone: "America/Tijuana"),
        Place(name: "Tijuana, Zona Río", lat: 32.5290, lon: -117.0240, zone: "America/Tijuana"),
        Place(name: "San Ysidro (San Diego, at the border)", lat: 32.5556, lon: -117.0470, zone: "America/Los_Angeles"),
        Place(name: "San Diego", lat: 32.7157, lon: -117.1611, zone: "America/Los_Angeles"),
        Place(name: "Ceuta", lat: 35.8894, lon: -5.3213, zone: "Africa/Ceuta"),
        Place(name: "Fnideq", lat: 35.8497, lon: -5.3586, zone: "Africa/Casablanca"),
        Place(name: "Baarle-Hertog (Belgian enclave)", lat: 51.4330, lon: 4.9300, zone: "Europe/Brussels"),
        Place(name: "Baarle-Nassau", lat: 51.4450, lon: 4.9300, zone: "Europe/Amsterdam"),
        Place(name: "Kaliningrad", lat: 54.7104, lon: 20.4522, zone: "Europe/Kaliningrad"),
        Place(name: "Dublin", lat: 53.3498, lon: -6.2603, zone: "Europe/Dublin"),
        Place(name: "Belfast", lat: 54.5973, lon: -5.9301, zone: "Europe/London"),
        Place(name: "Dundalk", lat: 54.0090, lon: -6.4049, zone: "Europe/Dublin"),
        Place(name: "Newry", lat: 54.1751, lon: -6.3402, zone: "Europe/London"),
        Place(name: "Lifford", lat: 54.8326, lon: -7.4832, zone: "Europe/Dublin"),
        Place(name: "Strabane (1.4 km from Lifford)", lat: 54.8273, lon: -7.4633, zone: "Europe/London"),
        Place(name: "Valga", lat: 57.7772, lon: 26.0473, zone: "Europe/Tallinn"),
        Place(name: "Valka", lat: 57.7750, lon: 26.0200, zone: "Europe/Riga"),
        Place(name: "Haparanda", lat: 65.8355, lon: 24.1368, zone: "Europe/Stockholm"),
        Place(name: "Tornio", lat: 65.8481, lon: 24.1466, zone: "Europe/Helsinki"),
        Place(name: "El Paso", lat: 31.7619, lon: -106.4850, zone: "America/Denver"),
        Place(name: "Ciudad Juárez", lat: 31.6904, lon: -106.4245, zone: "America/Ciudad_Juarez"),
        Place(name: "Wrocław", lat: 51.1079, lon: 17.0385, zone: "Europe/Warsaw"),
        Place(name: "Galway", lat: 53.2707, lon: -9.0568, zone: "Europe/Dublin"),
        // Antimeridian.
        Place(name: "Suva", lat: -18.1416, lon: 178.4419, zone: "Pacific/Fiji"),
        Place(name: "Taveuni, east of 180°", lat: -16.85, lon: -179.97, zone: "Pacific/Fiji"),
        Place(name: "Anadyr", lat: 64.7337, lon: 177.4968, zone: "Asia/Anadyr"),
        Place(name: "Big Diomede", lat: 65.7800, lon: -169.06, zone: "Asia/Anadyr"),
        Place(name: "Little Diomede", lat: 65.7583, lon: -168.9536, zone: "America/Nome"),
        Place(name: "Attu", lat: 52.9, lon: 172.9, zone: "America/Adak"),
        Place(name: "Chatham Islands", lat: -43.95, lon: -176.55, zone: "Pacific/Chatham"),
        Place(name: "Apia", lat: -13.8333, lon: -171.7667, zone: "Pacific/Apia"),
        Place(name: "Pago Pago", lat: -14.2756, lon: -170.7020, zone: "Pacific/Pago_Pago"),
        Place(name: "Kiritimati", lat: 1.87, lon: -157.4, zone: "Pacific/Kiritimati"),
        // Poles and the high Arctic.
        Place(name: "Longyearbyen", lat: 78.2232, lon: 15.6267, zone: "Arctic/Longyearbyen"),
        Place(name: "North Pole", lat: 90, lon: 0, zone: "Etc/GMT"),
        Place(name: "near the North Pole at 120°W", lat: 89.99, lon: -120, zone: "Etc/GMT+8"),
        Place(name: "South Pole", lat: -90, lon: 0, zone: "Antarctica/McMurdo"),
        Place(name: "near the South Pole at 45°E", lat: -89.99, lon: 45, zone: "Antarctica/McMurdo"),
        Place(name: "McMurdo Station", lat: -77.8419, lon: 166.6863, zone: "Antarctica/McMurdo"),
        // Open sea: nautical zones (POSIX sign: Etc/GMT+3 is UTC−3).
        Place(name: "mid-Atlantic", lat: 30, lon: -40, zone: "Etc/GMT+3"),
    ]

    @Test(arguments: places) func aPlaceGetsItsZone(_ place: Place) throws {
        let map = try TimeZoneData.map()
        #expect(map.zoneIdentifier(at: GeoPoint(lat: place.lat, lon: place.lon)) == place.zone)
    }

    @Test func theAntimeridianItselfIsInATwelveHourZone() throws {
        let map = try TimeZoneData.map()
        // On the line both bands touch; either is right, and both sides of it are decided.
        for lat in [-60.0, -30, 0, 30] {
            #expect(["Etc/GMT-12", "Etc/GMT+12"].contains(map.zoneIdentifier(at: GeoPoint(lat: lat, lon: 180)) ?? "nil"))
            #expect(["Etc/GMT-12", "Etc/GMT+12"].contains(map.zoneIdentifier(at: GeoPoint(lat: lat, lon: -180)) ?? "nil"))
        }
        #expect(map.zoneIdentifier(at: GeoPoint(lat: 0, lon: 179.9)) == "Etc/GMT-12")
        #expect(map.zoneIdentifier(at: GeoPoint(lat: 0, lon: -179.9)) == "Etc/GMT+12")
    }

    @Test func everyPointOnAGlobalGridHasAZone() throws {
        let map = try TimeZoneData.map()
        var missing: [String] = []
        for lat in stride(from: -90.0, through: 90, by: 2.5) {
            for lon in stride(from: -180.0, through: 180, by: 2.5) where map.zoneIdentifier(at: GeoPoint(lat: lat, lon: lon)) == nil {
                missing.append("(\(lat), \(lon))")
            }
        }
        #expect(missing.isEmpty, "no zone at \(missing.prefix(10))")
    }

    @Test func invalidPointsHaveNoZone() throws {
        let map = try TimeZoneData.map()
        #expect(map.zoneIdentifier(at: GeoPoint(lat: .nan, lon: 0)) == nil)
        #expect(map.zoneIdentifier(at: GeoPoint(lat: 0, lon: .infinity)) == nil)
        #expect(map.zoneIdentifier(at: GeoPoint(lat: 91, lon: 0)) == nil)
        #expect(map.zoneIdentifier(at: GeoPoint(lat: 0, lon: 180.5)) == nil)
    }

    @Test func everyZoneIsOneFoundationKnows() throws {
        let map = try TimeZoneData.map()
        #expect(map.zoneIdentifiers.count == 444)
        #expect(map.zoneIdentifiers == map.zoneIdentifiers.sorted())
        let unknown = map.zoneIdentifiers.filter { TimeZone(identifier: $0) == nil }
        #expect(unknown.isEmpty, "Foundation does not know \(unknown)")
        #expect(map.source.contains("timezone-boundary-builder"))
    }

    /// The oracle: every fixture point gets the zone timezonefinder gives it, except in the
    /// source's deliberate overlaps, where timezonefinder's pick follows its own candidate
    /// order and Scout's the smaller polygon: there both must be among the covering zones.
    @Test func agreesWithTimezonefinderOnTheFixture() throws {
        let map = try TimeZoneData.map()
        let rows = TimeZoneData.fixture
        #expect(rows.count == 5000)
        var wrong: [String: Int] = [:], overlap: [String: Int] = [:], total: [String: Int] = [:]
        var examples: [String] = [], overlaps: Set<String> = []
        for r in rows {
            total[r.kind, default: 0] += 1
            let got = map.zoneIdentifier(at: r.point)
            guard got != r.zone else { continue }
            let all = map.zoneIdentifiers(at: r.point)
            if all.count > 1, all.first == got, all.contains(r.zone) {
                overlap[r.kind, default: 0] += 1
                overlaps.insert(all.joined(separator: " over "))
            } else {
                wrong[r.kind, default: 0] += 1
                if examples.count < 10 { examples.append("line \(r.line) \(r.kind): \(got ?? "nil") ≠ \(r.zone) (covering: \(all))") }
            }
        }
        print("TimeZoneMap vs timezonefinder: " + total.keys.sorted().map {
            "\($0) \(total[$0]! - wrong[$0, default: 0] - overlap[$0, default: 0])/\(total[$0]!) equal, \(overlap[$0, default: 0]) in overlaps"
        }.joined(separator: "; ") + "; overlaps: \(overlaps.sorted())")
        #expect(wrong.isEmpty, "\(examples.joined(separator: "\n"))")
        // Overlaps are a handful of disputed areas, not a habit.
        #expect(overlap.values.reduce(0, +) <= 25)
    }

    @Test func overlapsListEveryCoveringZone() throws {
        let map = try TimeZoneData.map()
        // Xinjiang: both zones are in use; the smaller polygon (Asia/Urumqi) comes first.
        #expect(map.zoneIdentifiers(at: GeoPoint(lat: 43.8, lon: 87.6)) == ["Asia/Urumqi", "Asia/Shanghai"])
        #expect(map.zoneIdentifiers(at: GeoPoint(lat: 53.3498, lon: -6.2603)) == ["Europe/Dublin"])
        #expect(map.zoneIdentifiers(at: GeoPoint(lat: .nan, lon: 0)) == [])
    }

    @Test func concurrentLookupsGiveTheSequentialAnswers() async throws {
        let map = try TimeZoneData.map()
        let points = TimeZoneData.fixture.prefix(2000).map(\.point)
        let expected = points.map { map.zoneIdentifier(at: $0) }
        let fresh = try TimeZoneMap.load(path: TimeZoneData.path)   // nothing prepared yet
        let chunks = 8
        let answers = await withTaskGroup(of: (Int, [String?]).self) { group in
            for c in 0..<chunks {
                group.addTask {
                    // Every task walks all points, from a different start, so pieces are prepared concurrently.
                    let order = (0..<points.count).map { (($0 + c * 250) % points.count) }
                    var out = [String?](repeating: nil, count: points.count)
                    for i in order { out[i] = fresh.zoneIdentifier(at: points[i]) }
                    return (c, out)
                }
            }
            var all: [[String?]] = []
            for await (_, out) in group { all.append(out) }
            return all
        }
        for out in answers { #expect(out == expected) }
    }

    @Test func aMissingFileIsNotFound() {
        #expect(throws: ScoutError.self) { try TimeZoneMap.load(path: Repository.root + "/no/such/timezones.bin") }
        do {
            _ = try TimeZoneMap.load(path: Repository.root + "/no/such/timezones.bin")
        } catch {
            #expect(error.code == .notFound)
            #expect(error.message.contains("build_data.py --time-zones"))
        }
    }

    @Test func aDamagedFileIsRefused() throws {
        let dir = FileManager.default.temporaryDirectory.path
        let original = try Data(contentsOf: URL(fileURLWithPath: TimeZoneData.path))
        let cases: [(String, Data)] = [
            ("garbage", Data("not a time-zone file at all, just some text of sufficient length to pass.".utf8)),
            ("truncated", original.prefix(original.count / 2)),
            ("wrong version", { var d = original.prefix(original.count); d[8] = 99; return Data(d) }()),
        ]
        for (name, bytes) in cases {
            let path = dir + "/scout-tz-\(name.replacingOccurrences(of: " ", with: "-"))-\(getpid()).bin"
            try bytes.write(to: URL(fileURLWithPath: path))
            defer { try? FileManager.default.removeItem(atPath: path) }
            do {
                _ = try TimeZoneMap.load(path: path)
                Issue.record("\(name): loaded")
            } catch {
                #expect(error.code == .internal, "\(name)")
            }
        }
    }

    /// Load time and lookup speed, printed (not asserted: debug builds and busy machines vary).
    @Test func speed() throws {
        let clock = ContinuousClock()
        var map: TimeZoneMap?
        let load = try clock.measure { map = try TimeZoneMap.load(path: TimeZoneData.path) }
        let points = TimeZoneData.fixture.map(\.point)
        var found = 0
        let cold = clock.measure { for p in points where map!.zoneIdentifier(at: p) != nil { found += 1 } }
        let warm = clock.measure { for p in points where map!.zoneIdentifier(at: p) != nil { found += 1 } }
        func us(_ d: Duration) -> Double { Double(d.components.attoseconds) / 1e12 + Double(d.components.seconds) * 1e6 }
        #if DEBUG
        let build = "debug build, ~10× the release figures in docs/time-zones.md"
        #else
        let build = "release build"
        #endif
        print("TimeZoneMap (\(build)): load \(Int(us(load) / 1000)) ms; \(points.count) fixture points: first pass \(Int(us(cold) / Double(points.count))) µs/lookup, second pass \(String(format: "%.2f", us(warm) / Double(points.count))) µs/lookup")
        #expect(found == 2 * points.count)
    }
}
