import Foundation
import ScoutCore
import ScoutTestSupport
@testable import ScoutTime
import Testing

/// Zones answer offsets from a transition table instead of Foundation's locked `TimeZone`:
/// the table must agree with Foundation everywhere, for every zone the system knows.
@Suite struct OffsetTableTests {
    @Test func everyZoneAgreesWithFoundation() throws {
        var rng = SplitMix64(seed: 2026)
        var tabled = 0
        for id in TimeZone.knownTimeZoneIdentifiers {
            let zone = try Zone(identifier: id, path: "zone")
            let tz = TimeZone(identifier: id)!
            if zone.table != nil { tabled += 1 }
            var instants: [Int64] = (0..<300).map { _ in Int64(rng.uniform(-2_300_000_000, 4_200_000_000)) }
            // Around every transition the table holds: the second before, at and after.
            for s in zone.table?.starts.dropFirst() ?? [] { instants += [s - 1, s, s + 1] }
            for s in instants {
                let expected = Int32(tz.secondsFromGMT(for: Date(timeIntervalSince1970: Double(s))))
                #expect(zone.offset(at: Instant(seconds: s, utcOffsetSeconds: 0)) == expected, "\(id) at \(s)")
            }
        }
        #expect(tabled > TimeZone.knownTimeZoneIdentifiers.count * 9 / 10, "most zones use a table (\(tabled))")
    }
}
