import Foundation
import PropertyBased
import ScoutCore
import ScoutGeodesy
import ScoutGeometry
import ScoutTestSupport
import Testing

/// Points to judge against a corridor: on and beside the route at distances around the
/// half-width (just inside and just outside the 0.1% contract), vertices, and far points.
func corridorSamples(route: [GeoPoint], distance d: Double, count: Int, _ rng: inout SplitMix64) -> [GeoPoint] {
    var out = route
    while out.count < count {
        let i = rng.int(0...(route.count - 2))
        let (az, length, _) = Oracle.geodesic(from: route[i], to: route[i + 1])
        let t = rng.chance(0.15) ? rng.pick([0, length]) : rng.uniform(0, length)
        let foot = Geodesic.destination(from: route[i], azimuth: az, meters: t)
        let f: Double
        switch rng.unit() {
        case ..<0.4: f = rng.pick([0.995, 0.998, 0.9985, 1.0015, 1.002, 1.005, 1.0])
        case ..<0.9: f = rng.uniform(0, 2)
        default: f = rng.uniform(2, 20)
        }
        // Mostly perpendicular to the segment, sometimes any direction (caps and joins).
        let side = rng.chance(0.7) ? az + rng.sign() * 90 + rng.uniform(-5, 5) : rng.uniform(-180, 180)
        out.append(Geodesic.destination(from: foot, azimuth: side, meters: d * f))
    }
    return out
}

@Suite struct CorridorTests {
    @Test func corridorHonoursItsAccuracyContract() async {
        await propertyCheck(count: 60, input: Gen.int(in: 0...Int(Int32.max))) { seed in
            var rng = SplitMix64(seed: seed)
            let route = Scenario.route(&rng)
            let d = rng.logUniform(1, 400)
            let corridor: Corridor
            do { corridor = try Corridor(line: route, distance: d) } catch {
                Issue.record("corridor rejected: \(error) route \(route)"); return
            }
            var log = FailureLog()
            for i in 0..<(route.count - 1) {
                let miss = Oracle.geodesic(from: route[i], to: route[i + 1]).miss
                log.check(miss < 1e-6, "oracle could not solve segment \(i): miss \(miss) m")
            }
            let samples = corridorSamples(route: route, distance: d, count: 150, &rng) + (0..<10).map { _ in Scenario.point(&rng) }
            var decided = 0
            for p in samples {
                let (lower, upper) = Oracle.distanceToRoute(p, route: route, resolution: d * 2e-4, cutoff: 2 * d)
                let inside = corridor.contains(lon: p.lon, lat: p.lat)
                if upper <= d * (1 - 0.001) {
                    decided += 1
                    log.check(inside, "route \(route) d \(d): \(p) at \(upper) m is not in the corridor")
                } else if lower >= d * (1 + 0.001) {
                    decided += 1
                    log.check(!inside, "route \(route) d \(d): \(p) at ≥ \(lower) m is in the corridor")
                }
                // Everything in the corridor is within its reach of the centre.
                if inside {
                    log.check(Geodesic.distance(corridor.center, p) <= corridor.reach, "\(p) in the corridor but beyond its reach")
                }
            }
            log.check(decided > samples.count / 2, "only \(decided) of \(samples.count) samples decided")
            #expect(log.isEmpty, "\(log.summary)")
        }
    }

    @Test func corridorInputErrors() {
        let line = [GeoPoint(lat: 53.27, lon: -9.05), GeoPoint(lat: 53.28, lon: -9.04)]
        for bad in [0.0, -1, .nan, .infinity] {
            expectError(.invalidRequest, pathSuffix: "distance_m") { _ = try Corridor(line: line, distance: bad) }
        }
        expectError(.limitExceeded, pathSuffix: "distance_m") { _ = try Corridor(line: line, distance: 100_001) }
        expectError(.invalidGeometry, containing: "at least 2", pathSuffix: "coordinates") { _ = try Corridor(line: [line[0]], distance: 10) }
        expectError(.invalidGeometry, pathSuffix: "coordinates[1]") {
            _ = try Corridor(line: [line[0], GeoPoint(lat: 91, lon: 0)], distance: 10)
        }
        expectError(.invalidGeometry, pathSuffix: "coordinates[0]") {
            _ = try Corridor(line: [GeoPoint(lat: .nan, lon: 0), line[0]], distance: 10)
        }
        expectError(.limitExceeded) {
            _ = try Corridor(line: [GeoPoint(lat: 0, lon: 0), GeoPoint(lat: 0, lon: 5)], distance: 10)
        }
        // Exactly 100 km is allowed.
        #expect((try? Corridor(line: line, distance: 100_000)) != nil)
    }
}
