import Foundation
import PropertyBased
import ScoutCore
@testable import ScoutGeometry
import ScoutTestSupport
import Testing

/// The simplicity proof may only ever say "valid" where GEOS's full validity test says so
/// too; everything else goes to GEOS. And it must prove ordinary city polygons, or it saves
/// nothing.
@Suite struct SimpleRingProofTests {
    /// Random rings on a tiny lattice: crossings, touching vertices, straight and reversing
    /// turns, repeated positions and valid shapes, all common.
    static func latticeRing(_ rng: inout SplitMix64) -> [SIMD2<Double>] {
        let k = rng.int(3...9), side = rng.int(1...4)
        var ring = (0..<k).map { _ in SIMD2(Double(rng.int(0...side)), Double(rng.int(0...side))) }
        ring.append(ring[0])
        return ring
    }

    /// A star-shaped ring around a centre (simple), then sometimes broken: a spike that
    /// returns on itself, a vertex moved across the ring, a vertex touching another, or a
    /// vertex moved by a few ulps onto its neighbours' line.
    static func starRing(_ rng: inout SplitMix64) -> (ring: [SIMD2<Double>], broken: Bool) {
        let n = rng.chance(0.1) ? rng.int(200...3000) : rng.int(3...200)
        let scale = rng.logUniform(1e-7, 50), cx = rng.uniform(-179, 179), cy = rng.uniform(-89, 89)
        // Radial noise from none to far more than the step between vertices (a zigzag whose
        // segments' boxes overlap many others', as in the benchmark's polygons).
        let noise = rng.pick([0, 0.01, 0.1, 0.7])
        // Sometimes wound twice around the centre (an odd count, so no vertex repeats): every
        // segment turns the same way about the centre, yet the ring crosses itself.
        let turns = n > 4 && n % 2 == 1 && rng.chance(0.15) ? 2.0 : 1.0
        var ring: [SIMD2<Double>] = (0..<n).map { i in
            let t = (Double(i) + rng.uniform(-0.45, 0.45)) / Double(n) * 2 * .pi * turns
            let r = scale * (1 - noise * rng.unit())
            return SIMD2(cx + r * cos(t), cy + r * sin(t))
        }
        var broken = turns > 1
        if n > 4, rng.chance(0.5) {
            broken = true
            let i = rng.int(1...(n - 2))
            switch rng.int(0...4) {
            case 4:   // onto (nearly: rounding decides) a far segment
                let k = (i + n / 2) % (n - 1)
                ring[i] = ring[k] + (ring[k + 1] - ring[k]) * rng.uniform(0.1, 0.9)
            case 0: ring.insert(ring[i - 1], at: i + 1)   // spike: i-1 → i → i-1
            case 1: ring[i] = SIMD2(2 * cx - ring[i].x, 2 * cy - ring[i].y)   // thrown across
            case 2: ring[i] = ring[(i + n / 2) % n]   // touches another vertex
            default:   // onto the line of its neighbours (nearly: rounding decides)
                let a = ring[i - 1], b = ring[i + 1]
                ring[i] = a + (b - a) * rng.uniform(0.1, 0.9)
            }
        }
        ring.append(ring[0])
        return (ring, broken)
    }

    @Test func provedOnlyWhereGEOSSaysValid() async {
        await propertyCheck(count: 300, input: Gen.int(in: 0...Int(Int32.max))) { seed in
            var rng = SplitMix64(seed: seed)
            for _ in 0..<40 {
                let ring = rng.chance(0.5) ? Self.latticeRing(&rng) : Self.starRing(&rng).ring
                guard let v = SimpleRingProof.verdicts(ring: ring) else { continue }
                #expect(!v.proved || v.geosValid, "proved valid but GEOS says invalid: \(ring)")
            }
        }
    }

    /// Thin slivers whose validity rests on the exact side of a point a rounding error away
    /// from a line: plain floating-point orientations get some of these wrong, so the proof
    /// must leave them to GEOS.
    @Test func nearlyCollinearSliversAreLeftToGEOS() {
        var rng = SplitMix64(seed: 0x5c0)
        var proved = 0
        for _ in 0..<3000 {
            // p small and q, r far on either side of it along one direction: p lies on the
            // line q–r up to rounding errors far smaller than the orientation's own (as in
            // Kettner et al.'s classroom examples), between q and r, so q → r → p folds back.
            let p = SIMD2(rng.uniform(0.4, 0.6), rng.uniform(0.4, 0.6))
            let dir = SIMD2(rng.uniform(-1, 1), rng.uniform(-1, 1))
            let q = p - dir * rng.uniform(5, 50), r = p + dir * rng.uniform(5, 50)
            let w = p + SIMD2(-dir.y, dir.x) * rng.sign() * rng.logUniform(1e-15, 1)
            let ring = rng.chance(0.5) ? [q, r, p, w, q] : [q, r, p, w, q].reversed()
            guard let v = SimpleRingProof.verdicts(ring: Array(ring)) else { continue }
            #expect(!v.proved || v.geosValid, "proved valid but GEOS says invalid: \(ring)")
            if v.proved { proved += 1 }
        }
        #expect(proved > 0, "the proof never decided a sliver")
    }

    @Test func provesStarPolygonsOfCitySize() {
        var rng = SplitMix64(seed: 15)
        for n in [4, 10, 100, 1000, 2000] {
            let cx = rng.uniform(-10, 20), cy = rng.uniform(40, 60)
            var ring: [SIMD2<Double>] = (0..<n).map { i in
                let t = (Double(i) + rng.uniform(-0.45, 0.45)) / Double(n) * 2 * .pi
                let r = 0.05 * (1 + 0.3 * sin(5 * t) + 0.05 * rng.uniform(-1, 1))
                return SIMD2(cx + r * cos(t), cy + r * sin(t))
            }
            ring.append(ring[0])
            let v = SimpleRingProof.verdicts(ring: ring)
            #expect(v?.proved == true && v?.geosValid == true, "\(n) vertices: \(String(describing: v))")
        }
    }

    /// The star path: whether it proves `ring` (closed) by itself.
    static func provedStarShaped(_ ring: [SIMD2<Double>]) -> Bool {
        let xs = ring.map(\.x), ys = ring.map(\.y)
        return ring.withUnsafeBufferPointer {
            SimpleRingProof.provesStarShaped($0, segments: ring.count - 1, box: (xs.min()!, xs.max()!, ys.min()!, ys.max()!))
        }
    }

    /// City-like stars (the benchmark's kind: radius harmonics and per-vertex noise, so the
    /// kernel is small), convex rings and their clockwise twins are proved by the star path,
    /// without pairs of segments; and GEOS agrees they are valid.
    @Test func starShapedRingsAreProvedByAPointOfTheirKernel() {
        var rng = SplitMix64(seed: 0x57a2)
        for trial in 0..<60 {
            let n = rng.int(4...2000)
            let cx = rng.uniform(-170, 170), cy = rng.uniform(-80, 80), scale = rng.logUniform(1e-4, 5)
            let convex = trial % 3 == 0
            var harmonics: [(Double, Double)] = (1...6).map { k in (rng.uniform(0, 0.18 / Double(k)), rng.uniform(0, 2 * .pi)) }
            if convex { harmonics = [] }
            var ring: [SIMD2<Double>] = (0..<n).map { i in
                let t = (Double(i) + rng.uniform(-0.45, 0.45)) / Double(n) * 2 * .pi
                var r = 1.0
                for (k, (a, phase)) in harmonics.enumerated() { r += a * sin(Double(k + 1) * t + phase) }
                if !convex { r += rng.uniform(-0.04, 0.04) }
                return SIMD2(cx + scale * r * cos(t), cy + scale * r * sin(t))
            }
            if rng.chance(0.5) { ring.reverse() }
            ring.append(ring[0])
            #expect(Self.provedStarShaped(ring), "trial \(trial): \(n) vertices, convex \(convex)")
            let v = SimpleRingProof.verdicts(ring: ring)
            #expect(v?.proved == true && v?.geosValid == true, "trial \(trial): \(String(describing: v))")
        }
    }

    /// Rings wound two or three times around a centre (pentagrams and their kin): every
    /// segment turns the same way about the centre, but the ring crosses itself. The star
    /// path must refuse them (the winding count), and nothing may prove them.
    @Test func ringsWoundMoreThanOnceAreNeverProved() {
        var rng = SplitMix64(seed: 0x9e7)
        for (n, step) in [(5, 2), (7, 2), (7, 3), (9, 2), (9, 4), (11, 3), (101, 2), (1001, 3)] {
            for clockwise in [false, true] {
                let cx = rng.uniform(-100, 100), cy = rng.uniform(-60, 60)
                // Every `step`-th vertex of a regular n-gon in turn: wound `step` times.
                var ring: [SIMD2<Double>] = (0..<n).map { i in
                    let t = Double(i * step % n) / Double(n) * 2 * .pi
                    let r = 0.5 * (1 + 0.02 * rng.uniform(-1, 1))
                    return SIMD2(cx + r * cos(t), cy + r * sin(t))
                }
                if clockwise { ring.reverse() }
                ring.append(ring[0])
                #expect(!Self.provedStarShaped(ring), "{\(n)/\(step)} proved star-shaped")
                let v = SimpleRingProof.verdicts(ring: ring)
                #expect(v?.proved == false && v?.geosValid == false, "{\(n)/\(step)}: \(String(describing: v))")
            }
        }
    }

    /// A simple ring that is not star-shaped (a spiral corridor: no point sees every
    /// segment's inner side) is left to the pairs of segments, which still prove it.
    @Test func simpleRingsThatAreNotStarShapedAreProvedThePairwiseWay() {
        // A square spiral corridor one unit wide, two and a half turns: its inner end is
        // hidden from its outer end.
        var inner: [SIMD2<Double>] = [], outer: [SIMD2<Double>] = []
        for i in 0..<40 {
            let t = Double(i) / 16 * 2 * .pi, r = 2 + Double(i) / 8
            inner.append(SIMD2(r * cos(t), r * sin(t)))
            outer.append(SIMD2((r + 0.6) * cos(t), (r + 0.6) * sin(t)))
        }
        var ring = inner + outer.reversed()
        ring.append(ring[0])
        ring = ring.map { $0 + SIMD2(10, 45) }
        #expect(!Self.provedStarShaped(ring))
        let v = SimpleRingProof.verdicts(ring: ring)
        #expect(v?.proved == true && v?.geosValid == true, "\(String(describing: v))")
    }

    /// Through `Region`: a large broken ring is refused with GEOS's reason (validity before
    /// the range check), a good one is built and answers.
    @Test func largeRingsKeepGEOSVerdicts() throws {
        func star(_ n: Int, cx: Double, cy: Double) -> [SIMD2<Double>] {
            (0..<n).map { i in
                let t = Double(i) / Double(n) * 2 * .pi
                let r = 0.01 * (1 + 0.2 * sin(7 * t))
                return SIMD2(cx + r * cos(t), cy + r * sin(t))
            }
        }
        var good = star(600, cx: -9.05, cy: 53.27)
        good.append(good[0])
        let region = try Region.polygon([good])
        #expect(region.covers(lon: -9.05, lat: 53.27))
        #expect(region.relation(lon: -9.05, lat: 53.27) == .inside)
        for outOfRange in [false, true] {
            var bad = star(600, cx: outOfRange ? 179.995 : -9.05, cy: 53.27)
            bad[300] = bad[10]   // touches another vertex
            bad.append(bad[0])
            do {
                _ = try Region.polygon([bad])
                Issue.record("accepted a self-touching ring")
            } catch {
                #expect(error.message.contains("not valid") && error.message.contains("Self-intersection"), "\(error)")
            }
        }
    }

    /// Polygons the proof leaves to GEOS are still refused with GEOS's reason.
    @Test func brokenRingsGetGEOSReasons() {
        let square: [SIMD2<Double>] = [SIMD2(0, 0), SIMD2(1, 0), SIMD2(1, 1), SIMD2(0, 1), SIMD2(0, 0)]
        let cases: [(ring: [SIMD2<Double>], reason: String)] = [
            ([SIMD2(0, 0), SIMD2(1, 0), SIMD2(1, 1), SIMD2(2, 2), SIMD2(1, 1), SIMD2(0, 1), SIMD2(0, 0)], "Self-intersection"),  // spike
            ([SIMD2(0, 0), SIMD2(2, 0), SIMD2(1, 1), SIMD2(2, 2), SIMD2(0, 2), SIMD2(1, 1), SIMD2(0, 0)], "Ring Self-intersection"),  // touch
            ([SIMD2(0, 0), SIMD2(2, 0), SIMD2(1, 0), SIMD2(1, 1), SIMD2(0, 0)], "Self-intersection"),  // overlap
            ([SIMD2(0, 0), SIMD2(1, 1), SIMD2(1, 0), SIMD2(0, 1), SIMD2(0, 0)], "Self-intersection"),  // bow-tie
        ]
        for (ring, reason) in cases {
            do {
                _ = try Region.polygon([ring.map { $0 + SIMD2(3.25, 7.5) }])
                Issue.record("accepted: \(ring)")
            } catch {
                #expect(error.code == .invalidGeometry)
                #expect(error.message.contains(reason), "\(error)")
                #expect(!error.message.contains("["), "coordinates leak into \(error)")
            }
        }
        #expect((try? Region.polygon([square])) != nil)
    }
}
