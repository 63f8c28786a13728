import Foundation
import PropertyBased
import ScoutCore
@testable import ScoutGeodesy
import ScoutTestSupport
import Synchronization
import Testing

/// A pair of points whose geodesic distance covers every regime: identical points,
/// micrometres, walking, city, regional, around the 1,000 km chord switch, continental,
/// nearly antipodal, plus random and adversarial pairs (poles, antimeridian, aliases).
func randomPair(_ rng: inout SplitMix64) -> (GeoPoint, GeoPoint) {
    let a = Scenario.center(&rng)
    switch rng.unit() {
    case ..<0.6:
        let d: Double
        switch rng.int(0...8) {
        case 0: d = 0
        case 1: d = rng.logUniform(1e-6, 1)
        case 2: d = rng.logUniform(1, 1_000)
        case 3: d = rng.logUniform(1_000, 100_000)
        case 4: d = rng.logUniform(100_000, 990_000)
        case 5: d = rng.uniform(990_000, 1_010_000)   // chord bound ↔ haversine switch
        case 6: d = rng.logUniform(1_000_000, 19_000_000)
        case 7: d = rng.uniform(19_900_000, 20_003_900)  // nearly antipodal
        default: d = rng.uniform(0, 20_003_931)
        }
        return (a, Scenario.destination(a, d, &rng))
    case ..<0.8:
        return (a, Scenario.point(&rng))
    case ..<0.9:
        let eps = rng.chance(0.5) ? 0 : rng.logUniform(1e-9, 1e-2)
        return (a, GeoPoint(lat: max(-90, min(90, -a.lat + rng.sign() * eps)), lon: Scenario.wrap(a.lon + 180 + rng.sign() * eps)))
    default:
        return (a, Scenario.alias(a) ?? a)
    }
}

@Suite struct DistanceBoundsTests {
    @Test func intervalsContainTheGeodesic() async {
        await propertyCheck(count: 200, input: Gen.int(in: 0...Int(Int32.max))) { seed in
            var rng = SplitMix64(seed: seed)
            var log = FailureLog()
            for _ in 0..<150 {
                let (a, b) = randomPair(&rng)
                let d = Geodesic.distance(a, b)
                let r = DistanceBounds.interval(a, b)
                log.check(r.contains(d), "interval(\(a), \(b)) = \(r) misses geodesic \(d)")
                let h = DistanceBounds.interval(haversine: DistanceBounds.haversine(a, b))
                let tol = Oracle.geodesicAccuracy
                log.check(h.lowerBound <= d + tol && d <= h.upperBound + tol, "haversine interval(\(a), \(b)) = \(h) misses geodesic \(d)")
                let rev = DistanceBounds.interval(b, a)
                log.check(rev.contains(d), "interval(\(b), \(a)) = \(rev) misses geodesic \(d)")
            }
            #expect(log.isEmpty, "\(log.summary)")
        }
    }

    /// `WGS84.NearbyECEF` (angle addition and short series, no maths-library calls) gives
    /// the positions `WGS84.ecef` gives to within 0.1 µm (nanometres in fact), inside the micrometre
    /// the chord interval allows for rounding, near the origin (the series' range, up to
    /// 0.01 rad either way, and across ±180° and at the poles) and far from it (the fallback).
    @Test func nearbyECEFAgreesWithECEF() async {
        let nearby = Atomic(0)
        await propertyCheck(count: 200, input: Gen.int(in: 0...Int(Int32.max))) { seed in
            var rng = SplitMix64(seed: seed)
            var log = FailureLog()
            let origin = Scenario.center(&rng)
            let near = WGS84.NearbyECEF(origin: origin)
            log.check(near.origin == WGS84.ecef(origin), "NearbyECEF(\(origin)).origin is not ecef's")
            for _ in 0..<100 {
                let p: GeoPoint
                switch rng.unit() {
                case ..<0.4: p = Scenario.near(origin, spread: rng.pick([1, 1_000, 60_000, 70_000]), &rng)
                case ..<0.8:
                    // Offsets up to just past the series' 0.01 rad, in degrees.
                    let d = 0.0101 * 180 / .pi
                    var lon = origin.lon + rng.uniform(-d, d)
                    if lon > 180 { lon -= 360 } else if lon < -180 { lon += 360 }
                    p = GeoPoint(lat: max(-90, min(90, origin.lat + rng.uniform(-d, d))), lon: lon)
                default: p = Scenario.point(&rng)
                }
                let got = near.ecef(p), want = WGS84.ecef(p)
                let gap = ((got - want) * (got - want)).sum().squareRoot()
                // A tenth of the chord interval's 1 µm rounding margin. (Next to ±180° both
                // differ from the true position by up to ~1e-8 m: sin λ near π magnifies the
                // rounding of λ.)
                log.check(gap <= 1e-7, "NearbyECEF(\(origin)).ecef(\(p)) is \(gap) m from ecef")
                if Swift.abs(p.lat - origin.lat) < 0.5 { nearby.add(1, ordering: .relaxed) }
            }
            #expect(log.isEmpty, "\(log.summary)")
        }
        #expect(nearby.load(ordering: .relaxed) > 5_000, "too few points near their origin")
    }

    @Test func chordIntervalIsTightWhereDocumented() {
        // The documented widths: 0.07 mm at 4 km, 8 mm at 20 km.
        let w4 = DistanceBounds.interval(chord: 4_000)
        let w20 = DistanceBounds.interval(chord: 20_000)
        #expect(w4.upperBound - w4.lowerBound < 0.0001)
        #expect(w20.upperBound - w20.lowerBound < 0.01)
    }

    @Test func millimetresEqualRoundedGeodesic() async {
        await propertyCheck(count: 200, input: Gen.int(in: 0...Int(Int32.max))) { seed in
            var rng = SplitMix64(seed: seed)
            var log = FailureLog()
            for _ in 0..<150 {
                var (a, b) = randomPair(&rng)
                if rng.chance(0.3) {
                    // Aim at a half-millimetre tie, where the bounds straddle the rounding.
                    let base = (rng.logUniform(0.001, 2_000_000) * 1000).rounded() / 1000 + 0.0005
                    b = Geodesic.destination(from: a, azimuth: rng.uniform(-180, 180), meters: base + rng.uniform(-1e-9, 1e-9))
                }
                let expected = (Geodesic.distance(a, b) * 1000).rounded() / 1000
                let got = DistanceBounds.millimetres(a, b)
                log.check(got == expected, "millimetres(\(a), \(b)) = \(got), expected \(expected)")
            }
            #expect(log.isEmpty, "\(log.summary)")
        }
    }
}

@Suite struct RadiusTestTests {
    @Test func containsIsExactAndBoundsBracket() async {
        await propertyCheck(count: 200, input: Gen.int(in: 0...Int(Int32.max))) { seed in
            var rng = SplitMix64(seed: seed)
            let c = Scenario.center(&rng)
            let r = Scenario.radius(&rng)
            let test = RadiusTest(center: c, radius: r)
            var log = FailureLog()
            for _ in 0..<250 {
                let p: GeoPoint
                switch rng.unit() {
                case ..<0.4:
                    let b = rng.pick(test.boxes)
                    let lon = b.crossesAntimeridian ? Scenario.wrap(b.west + rng.unit() * (b.east + 360 - b.west)) : rng.uniform(b.west, b.east)
                    p = rng.chance(0.1) ? GeoPoint(lat: rng.pick([b.south, b.north]), lon: rng.pick([b.west, b.east]))
                                        : GeoPoint(lat: rng.uniform(b.south, b.north), lon: lon)
                case ..<0.75:
                    let f = rng.pick([1, 0.999999, 1.000001, 1 - 1e-12, 1 + 1e-12, rng.uniform(0.99, 1.01)])
                    p = Scenario.destination(c, r * f, &rng)
                case ..<0.85:
                    p = Scenario.near(c, spread: max(r, 1e-3), &rng)
                default:
                    p = Scenario.point(&rng)
                }
                for q in [p] + (Scenario.alias(p).map { [$0] } ?? []) {
                    let d = Geodesic.distance(lat1: c.lat, lon1: c.lon, lat2: q.lat, lon2: q.lon)
                    log.check(test.contains(lat: q.lat, lon: q.lon) == (d <= r),
                              "center \(c) r \(r): contains(\(q)) = \(!(d <= r)), geodesic \(d)")
                    if d <= r {
                        log.check(test.boxes.contains { $0.contains(q) }, "center \(c) r \(r): \(q) at \(d) outside boxes \(test.boxes)")
                    }
                    if test.boxes.contains(where: { $0.contains(q) }) {
                        let b = test.bounds(lat: q.lat, lon: q.lon)
                        let tol = Oracle.geodesicAccuracy
                        log.check(b.lower <= d + tol && d <= b.upper + tol,
                                  "center \(c) r \(r): bounds(\(q)) = \(b) miss geodesic \(d)")
                    }
                }
            }
            #expect(log.isEmpty, "\(log.summary)")
        }
    }
}

extension RadiusTestTests {
    /// `covers(box)` lets the index take whole nodes untested: every point of a covered
    /// box must be within the radius. Boxes are cut from the disc's boxes, many small ones
    /// near the centre so that the test cannot pass by never covering anything.
    @Test func coveredBoxesHoldOnlyPointsWithinTheRadius() async {
        let covered = Atomic(0)
        await propertyCheck(count: 200, input: Gen.int(in: 0...Int(Int32.max))) { seed in
            var rng = SplitMix64(seed: seed)
            let c = Scenario.center(&rng)
            let r = rng.chance(0.5) ? rng.logUniform(10, 200_000) : Scenario.radius(&rng)
            let test = RadiusTest(center: c, radius: r)
            var log = FailureLog()
            for _ in 0..<100 {
                let b = rng.pick(test.boxes)
                guard !b.crossesAntimeridian else { continue }
                let f = rng.pick([1.0, 0.7, 0.5, 0.2, 0.05])
                let w = (b.east - b.west) * f, h = (b.north - b.south) * f
                let west = rng.uniform(b.west, b.east - w), south = rng.uniform(b.south, b.north - h)
                let box = GeoBox(west: west, south: south, east: west + w, north: south + h)
                guard test.covers(west: box.west, south: box.south, east: box.east, north: box.north) else { continue }
                covered.add(1, ordering: .relaxed)
                var samples = [GeoPoint(lat: box.south, lon: box.west), GeoPoint(lat: box.south, lon: box.east),
                               GeoPoint(lat: box.north, lon: box.west), GeoPoint(lat: box.north, lon: box.east)]
                for _ in 0..<20 {
                    samples.append(GeoPoint(lat: rng.uniform(box.south, box.north), lon: rng.pick([box.west, box.east, rng.uniform(box.west, box.east)])))
                }
                for p in samples {
                    let d = Geodesic.distance(c, p)
                    log.check(d <= r, "center \(c) r \(r): covered box \(box) holds \(p) at geodesic \(d)")
                    log.check(test.contains(lat: p.lat, lon: p.lon), "center \(c) r \(r): covered box \(box) holds \(p), which contains() rejects")
                }
            }
            #expect(log.isEmpty, "\(log.summary)")
        }
        #expect(covered.load(ordering: .relaxed) > 500, "only \(covered.load(ordering: .relaxed)) boxes were covered: the check is nearly vacuous")
    }
}

extension RadiusTestTests {
    /// The test's setup takes the sine and cosine of small angles from their series: they
    /// must agree with the C library's to a unit in the last place (the boxes' margins and
    /// the flat metric's slack are set for that), up to the series' limit and past it.
    @Test func smallAnglesSinesAndCosinesMatchTheLibrary() {
        var rng = SplitMix64(seed: 15)
        var angles: [Double] = [0, 1e-300, 1e-12, 6e-4, 0.0314, 0.05, 0.0500001, 0.1, 1, 3]
        for _ in 0..<10_000 { angles.append(rng.uniform(-0.06, 0.06)) }
        for x in angles + angles.map({ -$0 }) {
            let (s, c) = RadiusTest.sineAndCosine(x)
            let ds = abs(s - sin(x)) / max(sin(x).magnitude.ulp, Double.leastNormalMagnitude)
            let dc = abs(c - cos(x)) / cos(x).ulp
            #expect(ds <= 1 && dc <= 1, "sineAndCosine(\(x)) = (\(s), \(c)), library (\(sin(x)), \(cos(x)))")
        }
    }
}

@Suite struct SphericalCapTests {
    @Test func boxesHoldEveryPointWithinRadius() async {
        await propertyCheck(count: 200, input: Gen.int(in: 0...Int(Int32.max))) { seed in
            var rng = SplitMix64(seed: seed)
            let c = Scenario.center(&rng)
            let r = Scenario.radius(&rng)
            let boxes = SphericalCap(center: c, radius: r).boxes
            var log = FailureLog()
            for b in boxes {
                log.check((try? b.validated()) != nil, "center \(c) r \(r): invalid box \(b)")
            }
            func inBoxes(_ p: GeoPoint) -> Bool { boxes.contains { $0.contains(p) } }
            var samples: [GeoPoint] = [c]
            for _ in 0..<200 {
                let f = rng.pick([rng.unit(), 0.999999, 1.0, rng.uniform(0.99, 1)])
                samples.append(Scenario.destination(c, r * f, &rng))
            }
            // A pole within r: every meridian's name for the pole must be in the boxes.
            for pole in [90.0, -90.0] where Geodesic.distance(c, GeoPoint(lat: pole, lon: 0)) <= r {
                for lon in [-180, 180, 0, rng.uniform(-180, 180)] { samples.append(GeoPoint(lat: pole, lon: lon)) }
            }
            for p in samples {
                let d = Geodesic.distance(c, p)
                guard d <= r else { continue }
                for q in [p] + (Scenario.alias(p).map { [$0] } ?? []) {
                    log.check(inBoxes(q), "center \(c) r \(r): \(q) at geodesic \(d) is outside \(boxes)")
                }
            }
            #expect(log.isEmpty, "\(log.summary)")
        }
    }
}

@Suite struct BoxDistanceTests {
    @Test func lowerBoundNeverExceedsTheGeodesic() async {
        await propertyCheck(count: 200, input: Gen.int(in: 0...Int(Int32.max))) { seed in
            var rng = SplitMix64(seed: seed)
            let origin = Scenario.center(&rng)
            let bd = BoxDistance(origin: origin)
            var log = FailureLog()
            for _ in 0..<60 {
                // A box: random, or a tiny box beside the origin (centimetres away).
                var west: Double, east: Double, south: Double, north: Double
                if rng.chance(0.5) {
                    let q = Scenario.near(origin, spread: rng.pick([0.01, 1, 1_000, 100_000]), &rng)
                    let w = rng.chance(0.3) ? 0 : rng.logUniform(1e-10, 1e-3), h = rng.chance(0.3) ? 0 : rng.logUniform(1e-10, 1e-3)
                    west = q.lon; east = min(180, q.lon + w); south = q.lat; north = min(90, q.lat + h)
                    if rng.chance(0.5) { west = max(-180, q.lon - w); east = q.lon }
                    if rng.chance(0.5) { south = max(-90, q.lat - h); north = q.lat }
                } else {
                    let b = Scenario.box(&rng)
                    west = min(b.west, b.east); east = max(b.west, b.east); south = b.south; north = b.north
                }
                let lb = bd.lowerBound(west: west, south: south, east: east, north: north)
                var pts: [GeoPoint] = [GeoPoint(lat: south, lon: west), GeoPoint(lat: south, lon: east),
                                       GeoPoint(lat: north, lon: west), GeoPoint(lat: north, lon: east),
                                       GeoPoint(lat: max(south, min(north, origin.lat)), lon: west),
                                       GeoPoint(lat: max(south, min(north, origin.lat)), lon: east),
                                       GeoPoint(lat: max(south, min(north, origin.lat)), lon: max(west, min(east, origin.lon)))]
                for _ in 0..<20 { pts.append(GeoPoint(lat: rng.uniform(south, north), lon: rng.uniform(west, east))) }
                for p in pts {
                    let d = Geodesic.distance(origin, p)
                    log.check(lb <= d + Oracle.geodesicAccuracy, "origin \(origin) box [\(west), \(south), \(east), \(north)]: lowerBound \(lb) > geodesic \(d) to \(p)")
                }
            }
            #expect(log.isEmpty, "\(log.summary)")
        }
    }
}

@Suite struct GeodesicReferenceTests {
    // Reference values computed independently with pyproj 3.7.2 (PROJ 9.5.1)
    // `Geod(ellps="WGS84").inv(...)` and GeographicLib 2.x `Geodesic.WGS84.Inverse`,
    // which agree to the last digit.
    @Test(arguments: [
        // Dublin – Galway
        (53.3498, -6.2603, 53.2707, -9.0568, 186_596.41777123738),
        // The WGS84 quarter meridian, equator to pole: 10,001,965.729 m.
        (0.0, 0.0, 90.0, 0.0, 10_001_965.729312724),
        (0.0, 0.0, -90.0, 0.0, 10_001_965.729312724),
        // JFK – LHR
        (40.6413, -73.7781, 51.47, -0.4543, 5_554_908.7905475),
        // GeographicLib's documented example: Wellington to Salamanca, 19,959,679.267 m.
        (-41.32, 174.81, 40.96, -5.50, 19_959_679.26735382),
        // Nearly antipodal (the hard case for the inverse problem).
        (0.0, 0.0, 0.5, 179.7, 19_944_127.420750458),
        (89.9999, 180.0, -89.9999, -180.0, 20_003_909.11982953),
        // Across the antimeridian.
        (0.0, 179.9999, 0.0, -179.9999, 22.2638981593938),
        // Centimetres apart.
        (53.3498, -6.2603, 53.3498001, -6.2603001, 0.012969492356273173),
    ])
    func referenceDistances(lat1: Double, lon1: Double, lat2: Double, lon2: Double, expected: Double) {
        let d = Geodesic.distance(GeoPoint(lat: lat1, lon: lon1), GeoPoint(lat: lat2, lon: lon2))
        #expect(abs(d - expected) < 1e-6, "got \(d)")
        let back = Geodesic.distance(GeoPoint(lat: lat2, lon: lon2), GeoPoint(lat: lat1, lon: lon1))
        #expect(abs(back - expected) < 1e-6, "reversed: got \(back)")
        #expect(abs(DistanceBounds.millimetres(GeoPoint(lat: lat1, lon: lon1), GeoPoint(lat: lat2, lon: lon2)) - (expected * 1000).rounded() / 1000) < 1e-9)
    }

    @Test func destinationRoundTrips() async {
        await propertyCheck(count: 100, input: Gen.int(in: 0...Int(Int32.max))) { seed in
            var rng = SplitMix64(seed: seed)
            var log = FailureLog()
            for _ in 0..<50 {
                let a = Scenario.center(&rng)
                let s = rng.uniform(0, 19_000_000)
                let b = Scenario.destination(a, s, &rng)
                log.check(b.isValid, "destination \(b) from \(a) is not a valid point")
                log.check(abs(Geodesic.distance(a, b) - s) < 1e-6, "distance(\(a), destination \(b)) != \(s)")
            }
            #expect(log.isEmpty, "\(log.summary)")
        }
    }
}

extension RadiusTestTests {
    /// The flat bounds a nearest search prunes with: a box's squared lower bound never
    /// exceeds the squared geodesic to any of its points, and a point's squared bounds
    /// bracket its squared geodesic, for boxes and points of the disc's boxes.
    @Test func squaredBoundsBracketTheGeodesic() async {
        await propertyCheck(count: 200, input: Gen.int(in: 0...Int(Int32.max))) { seed in
            var rng = SplitMix64(seed: seed)
            let c = Scenario.center(&rng)
            let r = rng.logUniform(10, 200_000)
            let test = RadiusTest(center: c, radius: r)
            guard test.isFlat else { return }
            var log = FailureLog()
            for _ in 0..<60 {
                let b = rng.pick(test.boxes)
                let f = rng.pick([1.0, 0.5, 0.1, 0.01])
                let w = (b.east - b.west) * f, h = (b.north - b.south) * f
                let west = rng.uniform(b.west, b.east - w), south = rng.uniform(b.south, b.north - h)
                let box = GeoBox(west: west, south: south, east: west + w, north: south + h)
                let floor2 = test.squaredLowerBound(west: box.west, south: box.south, east: box.east, north: box.north)
                for _ in 0..<8 {
                    let p = GeoPoint(lat: rng.uniform(box.south, box.north), lon: rng.pick([box.west, box.east, rng.uniform(box.west, box.east)]))
                    let d = Geodesic.distance(c, p)
                    let (lo2, hi2) = test.squaredBounds(lat: p.lat, lon: p.lon)
                    log.check(floor2.squareRoot() <= d + 1e-6, "center \(c) r \(r): box \(box) lower bound \(floor2.squareRoot()) above \(p) at \(d)")
                    log.check(lo2.squareRoot() <= d + 1e-6 && d <= hi2.squareRoot() + 1e-6,
                              "center \(c) r \(r): \(p) at \(d) outside \(lo2.squareRoot())...\(hi2.squareRoot())")
                }
            }
            #expect(log.isEmpty, "\(log.summary)")
        }
    }
}

