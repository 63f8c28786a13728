// Shared test support: a seeded RNG, scenario generators with adversarial inputs, and
// brute-force oracles that the geodesy, geometry, index and engine tests reuse.
//
// Everything here is deterministic given a seed, so a failing property case can be
// replayed from the seed that PropertyBased reports (the seed is the generated Int).
import Foundation
import ScoutCore
import ScoutGeodesy
@_exported import struct ScoutCore.SplitMix64

// MARK: - Random numbers

/// The tests' draws over ScoutCore's ``SplitMix64``: seeds from property tests, ranges,
/// choices.
extension SplitMix64 {
    /// A generator started at `seed` as given.
    public init(seed: UInt64) { self.init(state: seed) }
    /// A generator for a property test's `Int` seed (mixed, so small seeds differ widely).
    public init(seed: Int) { self.init(state: UInt64(bitPattern: Int64(seed)) &* 0x2545F4914F6CDD1D &+ 0x1234567) }

    /// Log-uniform in [a, b), a > 0.
    public mutating func logUniform(_ a: Double, _ b: Double) -> Double { exp(uniform(log(a), log(b))) }
    /// Uniform integer in the range.
    public mutating func int(_ r: ClosedRange<Int>) -> Int { Int.random(in: r, using: &self) }
    /// Uniform Int64 in the range.
    public mutating func int64(_ r: ClosedRange<Int64>) -> Int64 { Int64.random(in: r, using: &self) }
    /// True with probability p.
    public mutating func chance(_ p: Double) -> Bool { unit() < p }
    /// A uniformly chosen element.
    public mutating func pick<T>(_ a: [T]) -> T { a[int(0...(a.count - 1))] }
    /// ±1.
    public mutating func sign() -> Double { chance(0.5) ? 1 : -1 }
}

// MARK: - Geographic scenarios

/// Generators of points, radii, boxes and point clouds that deliberately include the
/// inputs geodesy code gets wrong: the antimeridian (±180 exactly and ±179.9999), both
/// poles (±90 exactly and ±89.9999), exact duplicates, tight clusters, radius 0, tiny and
/// huge radii.
public enum Scenario {
    public static let specialLats: [Double] = [90, -90, 89.9999, -89.9999, 89.999999999, -89.999999999, 0, 45, -45, 60, 1e-9]
    public static let specialLons: [Double] = [180, -180, 179.9999, -179.9999, 179.999999999, -179.999999999, 0, 90, -90, 1e-9, -1e-9]

    /// Centres that break naive code.
    public static let nastyCenters: [GeoPoint] = [
        GeoPoint(lat: 90, lon: 0), GeoPoint(lat: -90, lon: 0), GeoPoint(lat: 90, lon: 180), GeoPoint(lat: -90, lon: -180),
        GeoPoint(lat: 0, lon: 180), GeoPoint(lat: 0, lon: -180), GeoPoint(lat: 89.9999, lon: 180), GeoPoint(lat: -89.9999, lon: -179.9999),
        GeoPoint(lat: 53.3498, lon: -6.2603), GeoPoint(lat: 0, lon: 0), GeoPoint(lat: 45, lon: 179.9999), GeoPoint(lat: -45, lon: -179.9999),
        GeoPoint(lat: 89.5, lon: 90), GeoPoint(lat: -89.5, lon: -90), GeoPoint(lat: 70, lon: -180), GeoPoint(lat: -70, lon: 180),
    ]

    /// Wraps a longitude into [-180, 180].
    public static func wrap(_ lon: Double) -> Double {
        var l = lon
        while l > 180 { l -= 360 }
        while l < -180 { l += 360 }
        return l
    }

    /// The other name of a point on the antimeridian (lon −180 ⇄ 180), else `nil`.
    public static func alias(_ p: GeoPoint) -> GeoPoint? {
        if p.lon == 180 { return GeoPoint(lat: p.lat, lon: -180) }
        if p.lon == -180 { return GeoPoint(lat: p.lat, lon: 180) }
        return nil
    }

    /// A point drawn from a mixture of uniform-on-the-sphere and adversarial positions.
    public static func point(_ rng: inout SplitMix64) -> GeoPoint {
        let u = rng.unit()
        let uniformLat = { (rng: inout SplitMix64) in asin(rng.uniform(-1, 1)) * 180 / .pi }
        switch u {
        case ..<0.35: return GeoPoint(lat: uniformLat(&rng), lon: rng.uniform(-180, 180))
        case ..<0.50: return GeoPoint(lat: rng.pick(specialLats), lon: rng.uniform(-180, 180))
        case ..<0.65: return GeoPoint(lat: uniformLat(&rng), lon: rng.pick(specialLons))
        case ..<0.75: return GeoPoint(lat: rng.pick(specialLats), lon: rng.pick(specialLons))
        case ..<0.85: return GeoPoint(lat: uniformLat(&rng), lon: rng.sign() * (180 - rng.logUniform(1e-10, 1)))
        case ..<0.95: return GeoPoint(lat: rng.sign() * (90 - rng.logUniform(1e-10, 1)), lon: rng.uniform(-180, 180))
        default: return GeoPoint(lat: rng.sign() * 90, lon: rng.sign() * 180)
        }
    }

    /// A query centre: often one of ``nastyCenters``.
    public static func center(_ rng: inout SplitMix64) -> GeoPoint {
        rng.chance(0.3) ? rng.pick(nastyCenters) : point(&rng)
    }

    /// A radius in metres: 0, tiny, walking, city, regional, continental, up to 20,000 km.
    public static func radius(_ rng: inout SplitMix64) -> Double {
        switch rng.unit() {
        case ..<0.05: return 0
        case ..<0.15: return rng.logUniform(1e-4, 1)
        case ..<0.40: return rng.logUniform(1, 1_000)
        case ..<0.65: return rng.logUniform(1_000, 200_000)
        case ..<0.80: return rng.logUniform(200_000, 2_000_000)
        case ..<0.95: return rng.logUniform(2_000_000, 20_000_000)
        default: return 20_000_000
        }
    }

    /// A point at geodesic distance `distance` from `origin` on a random azimuth.
    public static func destination(_ origin: GeoPoint, _ distance: Double, _ rng: inout SplitMix64) -> GeoPoint {
        Geodesic.destination(from: origin, azimuth: rng.uniform(-180, 180), meters: distance)
    }

    /// A point within `spread` metres of `origin` (distance log-uniform down to a micrometre,
    /// sometimes exactly the origin).
    public static func near(_ origin: GeoPoint, spread: Double, _ rng: inout SplitMix64) -> GeoPoint {
        if rng.chance(0.05) || spread <= 0 { return origin }
        return destination(origin, rng.chance(0.5) ? rng.uniform(0, spread) : rng.logUniform(min(1e-6, spread), spread), &rng)
    }

    /// A cloud of `count` points: global adversarial points, clusters (centimetres to
    /// kilometres across, some at the poles and on the antimeridian), exact duplicates
    /// and aliases across ±180.
    public static func cloud(count: Int, _ rng: inout SplitMix64) -> [GeoPoint] {
        var out: [GeoPoint] = []
        out.reserveCapacity(count)
        let clusterCount = rng.int(1...6)
        var clusters: [(GeoPoint, Double)] = []
        for _ in 0..<clusterCount {
            clusters.append((center(&rng), rng.pick([0.01, 0.5, 5, 50, 2_000, 50_000])))
        }
        while out.count < count {
            switch rng.unit() {
            case ..<0.35: out.append(point(&rng))
            case ..<0.80:
                let (c, s) = rng.pick(clusters)
                out.append(near(c, spread: s, &rng))
            case ..<0.92:
                if let p = out.last.map({ _ in out[rng.int(0...(out.count - 1))] }) { out.append(p) } else { out.append(point(&rng)) }
            default:
                if let p = out.last.map({ _ in out[rng.int(0...(out.count - 1))] }), let a = alias(p) { out.append(a) }
                else { out.append(center(&rng)) }
            }
        }
        return out
    }

    /// A box: random, crossing 180°, degenerate, whole world, or with edges exactly on the
    /// coordinates of `points` (to test edge inclusion).
    public static func box(_ rng: inout SplitMix64, edgesFrom points: [GeoPoint] = []) -> GeoBox {
        func lat() -> Double { rng.chance(0.15) ? rng.pick(specialLats) : rng.uniform(-90, 90) }
        func lon() -> Double { rng.chance(0.15) ? rng.pick(specialLons) : rng.uniform(-180, 180) }
        let u = rng.unit()
        var west: Double, east: Double, s: Double, n: Double
        if u < 0.05 { return GeoBox(west: -180, south: -90, east: 180, north: 90) }
        if u < 0.55 || points.isEmpty {
            west = lon(); east = lon(); s = lat(); n = lat()
            if rng.chance(0.3) {   // small box
                let w = rng.logUniform(1e-7, 5), h = rng.logUniform(1e-7, 5)
                east = wrap(west + w); s = max(-90, min(90, s)); n = min(90, s + h)
            }
        } else {
            let a = rng.pick(points), b = rng.chance(0.3) ? a : rng.pick(points)
            west = a.lon; east = b.lon; s = a.lat; n = b.lat
        }
        if s > n { swap(&s, &n) }
        if rng.chance(0.1) { east = west }
        return GeoBox(west: west, south: s, east: east, north: n)
    }
}

// MARK: - Brute-force oracles on the ellipsoid

public enum Oracle {
    /// Absolute accuracy of the oracle itself: Karney's `geod_inverse` is accurate to about
    /// 15 nm (Karney 2013, "Algorithms for geodesics", §9). Bounds that are tighter than this
    /// at nanometre distances cannot be judged against it, so pure bound checks allow it;
    /// membership and millimetre checks, which Scout decides by the same call, are exact.
    public static let geodesicAccuracy = 1.5e-8

    /// The geodesic distance rounded to the millimetre, the way Scout reports distances.
    public static func mm(_ a: GeoPoint, _ b: GeoPoint) -> Double {
        (Geodesic.distance(a, b) * 1000).rounded() / 1000
    }

    static func sphericalBearing(_ a: GeoPoint, _ b: GeoPoint) -> Double {
        let rad = Double.pi / 180
        let p1 = a.lat * rad, p2 = b.lat * rad, dl = (b.lon - a.lon) * rad
        return atan2(sin(dl) * cos(p2), cos(p1) * sin(p2) - sin(p1) * cos(p2) * cos(dl)) / rad
    }

    /// The initial azimuth and length of the geodesic from `a` to `b` (not at a pole),
    /// solved by fixed-point iteration on `Geodesic.destination`; `miss` is how far the
    /// solved geodesic ends from `b` (metres), for the caller to check.
    public static func geodesic(from a: GeoPoint, to b: GeoPoint) -> (azimuth: Double, length: Double, miss: Double) {
        let length = Geodesic.distance(a, b)
        if length == 0 { return (0, 0, 0) }
        var az = sphericalBearing(a, b)
        for _ in 0..<60 {
            let c = Geodesic.destination(from: a, azimuth: az, meters: length)
            var delta = sphericalBearing(a, b) - sphericalBearing(a, c)
            if delta > 180 { delta -= 360 } else if delta < -180 { delta += 360 }
            az += delta
            if abs(delta) < 1e-14 { break }
        }
        return (az, length, Geodesic.distance(Geodesic.destination(from: a, azimuth: az, meters: length), b))
    }

    /// Rigorous bounds of the geodesic distance from `p` to a route of geodesic segments.
    ///
    /// Each segment is bisected; a sample at arc position t gives an upper bound, and by the
    /// triangle inequality the distance over `[t − h, t + h]` is at least `D − h`, which gives
    /// the lower bound. Intervals are refined until `h ≤ resolution` or until they cannot come
    /// within `cutoff`. So `upper` is the minimum over geodesic samples (the sampling oracle)
    /// and `lower ≥ upper − resolution` near the route.
    public static func distanceToRoute(_ p: GeoPoint, route: [GeoPoint], resolution: Double, cutoff: Double) -> (lower: Double, upper: Double) {
        var upper = Double.infinity, lower = Double.infinity
        for i in 0..<(route.count - 1) {
            let a = route[i]
            let (az, length, _) = geodesic(from: a, to: route[i + 1])
            var stack: [(Double, Double)] = [(0, length)]
            // The endpoints themselves.
            for q in [a, route[i + 1]] { let d = Geodesic.distance(p, q); upper = min(upper, d) }
            while let (t0, t1) = stack.popLast() {
                let m = (t0 + t1) / 2, h = (t1 - t0) / 2
                let d = Geodesic.distance(p, Geodesic.destination(from: a, azimuth: az, meters: m))
                upper = min(upper, d)
                // Prune what cannot come within `cutoff` or beat the best sample: its bound
                // d − h is then ≥ the final minimum's, so `lower` stays rigorous.
                if h <= resolution || d - h >= min(cutoff, upper) { lower = min(lower, d - h); continue }
                stack.append((t0, m)); stack.append((m, t1))
            }
        }
        return (max(0, lower), upper)
    }
}

// MARK: - Routes

extension Scenario {
    /// A walking-scale route of 2–20 vertices (segments of 5 m to 1.5 km, with sharp turns
    /// and doubling back); sometimes crossing the antimeridian or circling near a pole.
    public static func route(_ rng: inout SplitMix64) -> [GeoPoint] {
        let n = rng.int(2...20)
        var p: GeoPoint
        switch rng.unit() {
        case ..<0.2: p = GeoPoint(lat: rng.uniform(-70, 70), lon: rng.sign() * (180 - rng.uniform(0, 0.01)))
        case ..<0.35: p = GeoPoint(lat: rng.sign() * (90 - rng.uniform(0.005, 0.03)), lon: rng.uniform(-180, 180))
        default: p = GeoPoint(lat: rng.uniform(-80, 80), lon: rng.uniform(-180, 180))
        }
        var out = [p]
        var heading = rng.uniform(-180, 180)
        while out.count < n {
            heading += rng.chance(0.2) ? rng.uniform(150, 210) : rng.uniform(-60, 60)
            let q = Geodesic.destination(from: p, azimuth: heading, meters: rng.logUniform(5, 1_500))
            if abs(q.lat) > 89.9999 { heading += 180; continue }   // keep vertices off the pole itself
            out.append(q)
            p = q
        }
        return out
    }
}

// MARK: - Planar polygons on an exact grid

/// Planar polygons whose vertices lie on a 1/64° grid and test points on a 1/256° grid, so
/// that every orientation test below is exact in `Double`, and the brute-force
/// point-in-polygon (even-odd ray casting plus an on-segment test) is an exact oracle.
public enum PlanarPolygons {
    public typealias Ring = [SIMD2<Double>]
    public typealias Polygon = [Ring]

    public static let vertexGrid = 1.0 / 64
    public static let pointGrid = 1.0 / 256

    @inline(__always) static func cross(_ o: SIMD2<Double>, _ a: SIMD2<Double>, _ b: SIMD2<Double>) -> Double {
        (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x)
    }

    /// True when p lies on the closed segment ab (exact for grid coordinates).
    public static func onSegment(_ p: SIMD2<Double>, _ a: SIMD2<Double>, _ b: SIMD2<Double>) -> Bool {
        cross(a, b, p) == 0 && p.x >= min(a.x, b.x) && p.x <= max(a.x, b.x) && p.y >= min(a.y, b.y) && p.y <= max(a.y, b.y)
    }

    /// True when p is on the boundary of a ring.
    public static func onBoundary(_ p: SIMD2<Double>, _ ring: Ring) -> Bool {
        for i in 0..<(ring.count - 1) where onSegment(p, ring[i], ring[i + 1]) { return true }
        return false
    }

    /// Even-odd crossing parity of a ray from p towards +x (half-open rule; exact on grids).
    public static func crossings(_ p: SIMD2<Double>, _ ring: Ring) -> Int {
        var c = 0
        for i in 0..<(ring.count - 1) {
            let a = ring[i], b = ring[i + 1]
            if (a.y > p.y) != (b.y > p.y) {
                // p.x < x-intercept  ⇔  (p.x − a.x)(b.y − a.y) < (p.y − a.y)(b.x − a.x) when b.y > a.y
                let lhs = (p.x - a.x) * (b.y - a.y), rhs = (p.y - a.y) * (b.x - a.x)
                if b.y > a.y ? lhs < rhs : lhs > rhs { c += 1 }
            }
        }
        return c
    }

    /// Brute-force covers: on any boundary, or inside by even-odd over the rings of one polygon.
    public static func covers(_ polygons: [Polygon], _ p: SIMD2<Double>) -> Bool {
        for poly in polygons {
            if poly.contains(where: { onBoundary(p, $0) }) { return true }
            let parity = poly.reduce(0) { $0 + crossings(p, $1) }
            if parity % 2 == 1 { return true }
        }
        return false
    }

    static func segmentsIntersect(_ a: SIMD2<Double>, _ b: SIMD2<Double>, _ c: SIMD2<Double>, _ d: SIMD2<Double>) -> Bool {
        let d1 = cross(c, d, a), d2 = cross(c, d, b), d3 = cross(a, b, c), d4 = cross(a, b, d)
        if ((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0)) { return true }
        return onSegment(a, c, d) || onSegment(b, c, d) || onSegment(c, a, b) || onSegment(d, a, b)
    }

    /// True when the closed ring is simple: no repeated vertices, no touching non-adjacent
    /// edges, no spikes.
    public static func isSimple(_ ring: Ring) -> Bool {
        let n = ring.count - 1
        guard n >= 3, ring.first == ring.last else { return false }
        if Set(ring.dropLast().map { [$0.x, $0.y] }).count != n { return false }
        for i in 0..<n {
            let a = ring[i], b = ring[i + 1], c = ring[(i + 2) % n]
            if cross(a, b, c) == 0 && onSegment(c, a, b) { return false }  // spike
            for j in (i + 1)..<n {
                if j == i + 1 || (i == 0 && j == n - 1) { continue }
                if segmentsIntersect(a, b, ring[j], ring[j + 1]) { return false }
            }
        }
        return true
    }

    static func ringsDisjoint(_ r: Ring, _ s: Ring) -> Bool {
        for i in 0..<(r.count - 1) {
            for j in 0..<(s.count - 1) where segmentsIntersect(r[i], r[i + 1], s[j], s[j + 1]) { return false }
        }
        return true
    }

    static func snap(_ v: Double, _ g: Double) -> Double { (v / g).rounded() * g }

    /// A star-shaped ring around `c` with radii in `radii` (degrees), snapped to the vertex grid.
    public static func starRing(center c: SIMD2<Double>, vertices n: Int, radii: ClosedRange<Double>, _ rng: inout SplitMix64) -> Ring {
        var angles = (0..<n).map { i in (Double(i) + rng.uniform(0.05, 0.95)) * 2 * .pi / Double(n) }
        angles.sort()
        var ring: Ring = angles.map { t in
            let r = rng.uniform(radii.lowerBound, radii.upperBound)
            return SIMD2(snap(c.x + r * cos(t), vertexGrid), snap(c.y + r * sin(t), vertexGrid))
        }
        if rng.chance(0.5) { ring.reverse() }
        ring.append(ring[0])
        return ring
    }

    /// Smallest distance from c to the ring's edges (approximate, for sizing holes).
    static func innerRadius(_ c: SIMD2<Double>, _ ring: Ring) -> Double {
        var best = Double.infinity
        for i in 0..<(ring.count - 1) {
            let a = ring[i], b = ring[i + 1], ab = b - a
            let t = max(0, min(1, ((c - a) * ab).sum() / max((ab * ab).sum(), 1e-300)))
            let q = a + t * ab, d = c - q
            best = min(best, (d * d).sum().squareRoot())
        }
        return best
    }

    /// A valid polygon or multipolygon (each polygon a shell and possibly one hole), with
    /// its envelope inside `lon`/`lat`. Polygons are checked simple and disjoint exactly.
    public static func multiPolygon(_ rng: inout SplitMix64, parts: Int, lon: ClosedRange<Double> = -170...170,
                                    lat: ClosedRange<Double> = -80...80, size: ClosedRange<Double> = 0.2...3) -> [Polygon] {
        while true {
            var polys: [Polygon] = []
            var ok = true
            let base = SIMD2(snap(rng.uniform(lon.lowerBound, lon.upperBound), vertexGrid), snap(rng.uniform(lat.lowerBound, lat.upperBound), vertexGrid))
            var cursor = base
            for _ in 0..<parts {
                let rmax = rng.uniform(size.lowerBound, size.upperBound)
                let c = SIMD2(cursor.x + rmax, cursor.y + rng.uniform(-rmax, rmax))
                cursor.x += 2 * rmax + rng.uniform(0.1, 1)
                let shell = starRing(center: c, vertices: rng.int(3...24), radii: (rmax * 0.3)...rmax, &rng)
                guard isSimple(shell) else { ok = false; break }
                var poly: Polygon = [shell]
                let inner = innerRadius(c, shell)
                if rng.chance(0.6), inner > 0.2 {
                    let hole = starRing(center: c, vertices: rng.int(3...12), radii: (inner * 0.2)...(inner * 0.7), &rng)
                    if isSimple(hole), ringsDisjoint(shell, hole), crossings(hole[0], shell) % 2 == 1 { poly.append(hole) }
                }
                polys.append(poly)
            }
            guard ok else { continue }
            for p in polys { for r in p { for v in r where !lon.contains(v.x) || !lat.contains(v.y) { ok = false } } }
            if ok { return polys }
        }
    }

    /// Test points for a polygon set: every vertex, exact edge midpoints and quarter points,
    /// grid points in and around the envelope, and arbitrary real points.
    public static func samplePoints(_ polys: [Polygon], count: Int, _ rng: inout SplitMix64) -> [SIMD2<Double>] {
        var out: [SIMD2<Double>] = []
        var xmin = Double.infinity, xmax = -Double.infinity, ymin = Double.infinity, ymax = -Double.infinity
        for p in polys {
            for r in p {
                for i in 0..<(r.count - 1) {
                    let a = r[i], b = r[i + 1]
                    out.append(a)
                    out.append((a + b) / 2)
                    out.append(a + (b - a) / 4)
                    xmin = min(xmin, a.x); xmax = max(xmax, a.x); ymin = min(ymin, a.y); ymax = max(ymax, a.y)
                }
            }
        }
        let mx = (xmax - xmin) * 0.1 + 0.01, my = (ymax - ymin) * 0.1 + 0.01
        while out.count < count {
            let x = rng.uniform(xmin - mx, xmax + mx), y = rng.uniform(ymin - my, ymax + my)
            if rng.chance(0.6) { out.append(SIMD2(snap(x, pointGrid), snap(y, pointGrid))) }
            else if rng.chance(0.5) {
                // on a vertex's horizontal or vertical line: ray-casting degeneracies
                let v = rng.pick(out)
                out.append(rng.chance(0.5) ? SIMD2(snap(x, pointGrid), v.y) : SIMD2(v.x, snap(y, pointGrid)))
            } else { out.append(SIMD2(x, y)) }
        }
        return out
    }

    /// WKT text of the polygons (exact decimal text of grid coordinates).
    public static func wkt(_ polys: [Polygon], multi: Bool) -> String {
        func ring(_ r: Ring) -> String { "(" + r.map { "\($0.x) \($0.y)" }.joined(separator: ", ") + ")" }
        func poly(_ p: Polygon) -> String { "(" + p.map(ring).joined(separator: ", ") + ")" }
        if !multi { return "POLYGON " + poly(polys[0]) }
        return "MULTIPOLYGON (" + polys.map(poly).joined(separator: ", ") + ")"
    }
}

/// Records the first few failures of a property case with context and reports whether
/// the case is still clean; keeps a failing case from flooding the log.
public struct FailureLog {
    public private(set) var messages: [String] = []
    public let limit: Int
    public init(limit: Int = 5) { self.limit = limit }
    public var isEmpty: Bool { messages.isEmpty }
    /// Adds a message when `condition` is false; returns `condition`.
    @discardableResult
    public mutating func check(_ condition: Bool, _ message: @autoclosure () -> String) -> Bool {
        if !condition && messages.count < limit { messages.append(message()) }
        return condition
    }
    public var full: Bool { messages.count >= limit }
    public var summary: String { messages.joined(separator: "\n") }
}

/// Paths inside the repository, for tests that read committed data.
public enum Repository {
    /// The repository root (two levels above this file's folder).
    public static let root: String = {
        var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(3)   // Tests/ScoutTestSupport/Support.swift
        return parts.joined(separator: "/")
    }()

    /// The committed data directory.
    public static var data: String { root + "/data" }
}

extension Repository {
    /// Makes sure `data/sample/dogs.jsonl` exists: it is generated, not committed
    /// (`scripts/build_data.py --sample-dogs`), and `swift test` may run without `scripts/test.sh`.
    public static func ensureSampleDogs() {
        guard !FileManager.default.fileExists(atPath: data + "/sample/dogs.jsonl") else { return }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = ["python3", root + "/scripts/build_data.py", "--sample-dogs", "--if-missing"]
        try? p.run()
        p.waitUntilExit()
    }
}

/// How much the long property tests run: their short form in `swift test` (the README's test
/// command), the full form with `SCOUT_TEST_FULL=1` (`bash scripts/test_full.sh`).
public enum TestScale {
    /// True when the full runs are asked for.
    public static let isFull = ProcessInfo.processInfo.environment["SCOUT_TEST_FULL"] == "1"

    /// `short` in the test command, `full` when the full runs are asked for.
    public static func count(short: Int, full: Int) -> Int { isFull ? full : short }
}
