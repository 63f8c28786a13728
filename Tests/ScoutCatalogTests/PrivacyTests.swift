import ScoutCore
import ScoutGeodesy
import ScoutTestSupport
import Testing
@testable import ScoutCatalog

@Suite struct PrivacyTests {
    @Test func dogsShowTheirCellCentreAndRoundedDistances() throws {
        var rng = SplitMix64(seed: 11)
        for _ in 0..<2000 {
            let p = GeoPoint(lat: rng.uniform(49, 59), lon: rng.uniform(-11, 24))
            let shown = LocationPrivacy.approximate.shown(p, kind: "dog")
            #expect(shown != p)
            // The same point every time, and the shown point lies in the dog's own ~1 km cell.
            #expect(LocationPrivacy.approximate.shown(p, kind: "dog") == shown)
            let cell = try Geohash(p, precision: 6)
            #expect(try Geohash(shown, precision: 6) == cell)
            #expect(abs(shown.lat - p.lat) <= Geohash.cellHeight(6) / 2 + 1e-12)
            #expect(Geodesic.distance(p, shown) < 1000)
            let d = rng.uniform(0, 50_000)
            let r = LocationPrivacy.approximate.shown(distance: d, kind: "dog")
            #expect(r.truncatingRemainder(dividingBy: 100) == 0 && abs(r - d) <= 50)
        }
    }

    @Test func publicPlacesAndTheExactModeKeepExactPoints() {
        let p = GeoPoint(lat: 53.27071, lon: -9.05681)
        #expect(LocationPrivacy.approximate.shown(p, kind: "gym") == p)
        #expect(LocationPrivacy.approximate.shown(p, kind: "shelter") == p)
        #expect(LocationPrivacy.exact.shown(p, kind: "dog") == p)
        #expect(LocationPrivacy.exact.shown(distance: 1234.567, kind: "dog") == 1234.567)
    }
}
