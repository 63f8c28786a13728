import Foundation
import PropertyBased
import ScoutCore
import ScoutGeodesy
import ScoutTestSupport
import Testing

@Suite struct GeohashTests {
    // Reference geohashes computed independently with the PyPI package pygeohash 3.x
    // (`pygeohash.encode(lat, lon, precision=p)`); "u4pruydqqvj" is also the classic
    // example of the geohash.org documentation.
    @Test(arguments: [
        (57.64911, 10.40744, 11, "u4pruydqqvj"),
        (53.3498, -6.2603, 5, "gc7x9"),
        (53.3498, -6.2603, 9, "gc7x9813h"),
        (-33.8688, 151.2093, 8, "r3gx2f77"),
        (0.0, 0.0, 4, "s000"),
        (90.0, 180.0, 6, "zzzzzz"),
        (-90.0, -180.0, 6, "000000"),
    ])
    func knownValues(lat: Double, lon: Double, precision: Int, expected: String) throws {
        let h = try Geohash(GeoPoint(lat: lat, lon: lon), precision: precision)
        #expect(h.description == expected)
        #expect(try Geohash(expected) == h)
        #expect(try Geohash(expected.uppercased()) == h)
        #expect(h.box.contains(GeoPoint(lat: lat, lon: lon)))
    }

    @Test func encodeDecodeRoundTrip() async {
        await propertyCheck(count: 200, input: Gen.int(in: 0...Int(Int32.max))) { seed in
            var rng = SplitMix64(seed: seed)
            var log = FailureLog()
            for _ in 0..<50 {
                let p = Scenario.point(&rng)
                let precision = rng.int(1...12)
                guard let h = try? Geohash(p, precision: precision) else {
                    log.check(false, "encoding \(p) at \(precision) threw"); continue
                }
                let text = h.description
                log.check(text.count == precision, "\(p)@\(precision): \(text) has the wrong length")
                log.check(h.box.contains(p), "\(p)@\(precision): cell \(text) box \(h.box) does not hold it")
                log.check((try? Geohash(text)) == h, "\(text) does not decode to itself")
                log.check((try? Geohash(text.uppercased())) == h, "\(text) uppercased does not decode to itself")
                log.check((try? Geohash(h.center, precision: precision)) == h, "centre of \(text) encodes elsewhere")
                // Prefixes are the coarser cells that hold the point.
                if precision > 1 {
                    let coarse = try? Geohash(p, precision: precision - 1)
                    log.check(coarse?.description == String(text.dropLast()), "\(text): prefix is not the coarser cell \(String(describing: coarse))")
                }
                // A cell's south-west corner encodes into the cell itself (closed south/west edges).
                let b = h.box
                log.check((try? Geohash(GeoPoint(lat: b.south, lon: b.west), precision: precision)) == h,
                          "south-west corner of \(text) encodes elsewhere")
                // Cell dimensions.
                log.check(abs((b.east - b.west) - Geohash.cellWidth(precision)) < 1e-12 && abs((b.north - b.south) - Geohash.cellHeight(precision)) < 1e-12,
                          "\(text): box \(b) has the wrong size")
            }
            #expect(log.isEmpty, "\(log.summary)")
        }
    }

    @Test func neighboursWrapAtTheAntimeridianAndStopAtThePoles() async {
        await propertyCheck(count: 200, input: Gen.int(in: 0...Int(Int32.max))) { seed in
            var rng = SplitMix64(seed: seed)
            var log = FailureLog()
            for _ in 0..<20 {
                let precision = rng.int(1...12)
                let cols = 1 << Geohash.lonBits(precision), rows = 1 << Geohash.latBits(precision)
                let x = rng.chance(0.3) ? rng.pick([0, cols - 1]) : rng.int(0...(cols - 1))
                let y = rng.chance(0.3) ? rng.pick([0, rows - 1]) : rng.int(0...(rows - 1))
                let h = Geohash(x: x, y: y, precision: precision)
                let ns = h.neighbours
                let w = Geohash.cellWidth(precision), hh = Geohash.cellHeight(precision)
                // Oracle: the cells holding the points one cell-step away in the 8 directions.
                var expected = Set<Geohash>()
                for dy in [-1.0, 0, 1] {
                    for dx in [-1.0, 0, 1] where !(dx == 0 && dy == 0) {
                        let lat = h.center.lat + dy * hh
                        guard lat > -90 && lat < 90 else { continue }
                        var lon = h.center.lon + dx * w
                        if lon >= 180 { lon -= 360 } else if lon < -180 { lon += 360 }
                        if let cell = try? Geohash(GeoPoint(lat: lat, lon: lon), precision: precision) { expected.insert(cell) }
                    }
                }
                let got = Set(ns)
                log.check(ns.count == got.count, "\(h): neighbours contain duplicates")
                log.check(got == expected, "\(h) (x \(x) y \(y) p \(precision)): neighbours \(ns) expected \(expected)")
                log.check(!got.contains(h), "\(h) is its own neighbour")
                let expectedCount = (y == 0 || y == rows - 1) ? 5 : 8
                log.check(ns.count == expectedCount, "\(h): \(ns.count) neighbours, expected \(expectedCount)")
            }
            #expect(log.isEmpty, "\(log.summary)")
        }
    }

    @Test func circleCoverHoldsEveryPointWithinRadius() async {
        await propertyCheck(count: TestScale.count(short: 100, full: 200), input: Gen.int(in: 0...Int(Int32.max))) { seed in
            var rng = SplitMix64(seed: seed)
            var center = Scenario.center(&rng)
            let r = Scenario.radius(&rng)
            // A precision whose cells are not much smaller than the circle (bounded cover size).
            var precision = rng.int(1...12)
            while precision > 1 && Geohash.cellHeight(precision) * 111_000 * 40 < r { precision -= 1 }
            if rng.chance(0.3) {
                // Centre on (or a hair off) a cell corner: the circle spills into neighbours.
                let cell = try! Geohash(center, precision: precision)
                let eps = rng.pick([0.0, 1e-12, -1e-12, 1e-9, -1e-9])
                center = GeoPoint(lat: max(-90, min(90, cell.box.south + eps)), lon: max(-180, min(180, cell.box.west + eps)))
            }
            var cover: [Geohash] = []
            while true {
                do { cover = try Geohash.cells(coveringCircle: center, radius: r, precision: precision); break } catch {
                    // A cap around a pole spans every longitude: too many cells is documented.
                    if (error as? ScoutError)?.code == .limitExceeded && precision > 1 { precision -= 1; continue }
                    Issue.record("cover of \(center) r \(r) p \(precision) threw \(error)"); return
                }
            }
            let set = Set(cover)
            var log = FailureLog()
            log.check(set.count == cover.count, "cover of \(center) r \(r) has duplicate cells")
            var samples: [GeoPoint] = [center]
            for _ in 0..<300 {
                samples.append(Scenario.destination(center, r * rng.pick([rng.unit(), 1, 0.999999, rng.uniform(0.9, 1)]), &rng))
            }
            for pole in [90.0, -90.0] where Geodesic.distance(center, GeoPoint(lat: pole, lon: 0)) <= r {
                samples.append(GeoPoint(lat: pole, lon: rng.uniform(-180, 180)))
                samples.append(GeoPoint(lat: pole, lon: -180))
            }
            for p in samples where Geodesic.distance(center, p) <= r {
                for q in [p] + (Scenario.alias(p).map { [$0] } ?? []) {
                    let cell = try! Geohash(q, precision: precision)
                    log.check(set.contains(cell), "cover of \(center) r \(r) p \(precision) misses \(cell) holding \(q) at \(Geodesic.distance(center, q))")
                }
            }
            #expect(log.isEmpty, "\(log.summary)")
        }
    }

    @Test func badInputsThrowInvalidRequest() {
        let p = GeoPoint(lat: 10, lon: 10)
        for precision in [0, -1, 13, 100] {
            #expect(throws: ScoutError.self) { _ = try Geohash(p, precision: precision) }
            do { _ = try Geohash(p, precision: precision) } catch { #expect(error.code == .invalidRequest && error.path == "precision") }
            do { _ = try Geohash.cells(covering: GeoBox(west: 0, south: 0, east: 1, north: 1), precision: precision) } catch {
                #expect(error.code == .invalidRequest)
            }
        }
        for bad in [GeoPoint(lat: 91, lon: 0), GeoPoint(lat: .nan, lon: 0), GeoPoint(lat: 0, lon: 180.5), GeoPoint(lat: 0, lon: -.infinity)] {
            do { _ = try Geohash(bad, precision: 5); Issue.record("\(bad) encoded") } catch { #expect(error.code == .invalidRequest) }
        }
        for text in ["", "u4pruydqqvjqq", "a", "i", "l", "o", "u4pa", " u4", "u4é", "u4-", "ü"] {
            do { _ = try Geohash(text); Issue.record("\"\(text)\" decoded") } catch { #expect(error.code == .invalidRequest && error.path == "geohash") }
        }
        // Too many cells for the limit.
        do {
            _ = try Geohash.cells(covering: GeoBox(west: -180, south: -90, east: 180, north: 90), precision: 6, limit: 1000)
            Issue.record("huge cover did not throw")
        } catch { #expect(error.code == .limitExceeded) }
    }

    @Test func boxCoverAcrossTheAntimeridian() throws {
        let box = GeoBox(west: 179.5, south: -1, east: -179.5, north: 1)
        let cells = try Geohash.cells(covering: box, precision: 3)
        let set = Set(cells)
        #expect(set.count == cells.count)
        var rng = SplitMix64(seed: 7)
        for _ in 0..<2000 {
            let lon = Scenario.wrap(179.5 + rng.unit() * 1.0)
            let p = GeoPoint(lat: rng.uniform(-1, 1), lon: rng.chance(0.1) ? rng.pick([180, -180, 179.5, -179.5]) : lon)
            #expect(set.contains(try Geohash(p, precision: 3)))
        }
    }
}
