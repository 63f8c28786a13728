import BenchSupport
import Foundation
import ScoutCore
import ScoutGeometry
import ScoutIndex

// Mean time per query — the statistic issue 2's targets name, which package-benchmark does
// not report — for Scout and the GEOS STRtree baseline on the same points and queries.
// Rounds alternate the two systems so that machine noise hits both alike; the ratio of
// means is printed per round and over all rounds.
// Run: `bash scripts/bench-mean.sh` (or `swift run -c release MeanPerQuery` here).
// Environment: ROUNDS (default 3), BUILD_ROUNDS (default ROUNDS), ONLY (a row-name prefix),
// PEER=0 (time Scout alone, for profiling Scout's side under perf or callgrind), BUCKETS=1
// (radius and nearest per query, grouped by the points within 4 km).

func seconds(_ body: () -> Void) -> Double {
    let t0 = DispatchTime.now().uptimeNanoseconds
    body()
    return Double(DispatchTime.now().uptimeNanoseconds - t0) / 1e9
}

let data = BenchData.shared
let rounds = Int(ProcessInfo.processInfo.environment["ROUNDS"] ?? "3") ?? 3
let buildRounds = Int(ProcessInfo.processInfo.environment["BUILD_ROUNDS"] ?? "") ?? rounds
print("points: \(data.ids.count), queries: \(data.queries.count), polygons: \(data.polygons.count), rounds: \(rounds)")

var scoutBuild = 0.0, geosBuild = 0.0
var set = PointSet()
var geos: GEOSBaseline?
for _ in 0..<buildRounds {
    var records: [PointSet.Record] = []
    records.reserveCapacity(data.ids.count)
    for i in 0..<data.ids.count { records.append(PointSet.Record(id: data.ids[i], point: GeoPoint(lat: data.lats[i], lon: data.lons[i]))) }
    let fresh = PointSet()
    scoutBuild += seconds { try! fresh.upsert(records); fresh.pack() }
    set = fresh
    geos = nil
    geosBuild += seconds { let g = GEOSBaseline(lats: data.lats, lons: data.lons); _ = g.tree; geos = g }
}
// The spatial index alone (what the GEOS baseline builds: no string ids), from the same
// coordinate arrays, in alternating rounds.
var treeBuild = 0.0, geosTreeBuild = 0.0
let entryNumbers = (0..<Int32(data.ids.count)).map { $0 }
for _ in 0..<buildRounds {
    var tree: PackedTree?
    treeBuild += seconds { tree = PackedTree(entries: entryNumbers, lons: data.lons, lats: data.lats) }
    precondition(tree!.count == data.ids.count)
    geos = nil
    geosTreeBuild += seconds { let g = GEOSBaseline(lats: data.lats, lons: data.lons); _ = g.tree; geos = g }
}
let baseline = geos!
let snap = set.snapshot()
print(String(format: "build (records with string ids in, index ready), mean of %d: Scout %.1f ms, GEOS %.1f ms, Scout/GEOS %.2f",
             buildRounds, scoutBuild / Double(buildRounds) * 1e3, geosBuild / Double(buildRounds) * 1e3, scoutBuild / geosBuild))
print(String(format: "build (coordinates in, spatial index ready), mean of %d: Scout packed tree %.1f ms (%d cores), GEOS %.1f ms, Scout/GEOS %.2f",
             buildRounds, treeBuild / Double(buildRounds) * 1e3, ProcessInfo.processInfo.activeProcessorCount,
             geosTreeBuild / Double(buildRounds) * 1e3, treeBuild / geosTreeBuild))

/// `ONLY=radius` (or `nearest`, `polygon`, `polygon, seen`) runs the rows whose name starts with it.
let only = ProcessInfo.processInfo.environment["ONLY"]
/// `PEER=0` skips the GEOS side of every row (its ratio then means nothing).
let runPeer = ProcessInfo.processInfo.environment["PEER"] != "0"

func compare(_ name: String, count: Int, scout: (Int) -> Int, peer: (Int) -> Int) {
    if let only, !name.hasPrefix(only) { return }
    var sTotal = 0.0, gTotal = 0.0, scoutResults = 0, peerResults = 0
    for round in 1...rounds {
        let s = seconds { for i in 0..<count { scoutResults &+= scout(i) } }
        let g = runPeer ? seconds { for i in 0..<count { peerResults &+= peer(i) } } : 0
        sTotal += s; gTotal += g
        print(String(format: "  %@ round %d: Scout %.2f us, GEOS %.2f us, GEOS/Scout %.2fx", name, round,
                     s / Double(count) * 1e6, g / Double(count) * 1e6, g / s))
    }
    print(String(format: "%@: mean per query Scout %.2f us, GEOS %.2f us, GEOS/Scout %.2fx (results: Scout %d, GEOS %d)", name,
                 sTotal / Double(count * rounds) * 1e6, gTotal / Double(count * rounds) * 1e6, gTotal / sTotal, scoutResults, peerResults))
}

let q = data.queries

// `BUCKETS=1`: radius 4 km and nearest k=10 timed query by query, grouped by how many points
// lie within 4 km of the centre (one pass of each system, alternating per query).
if ProcessInfo.processInfo.environment["BUCKETS"] == "1" {
    let edges = [0, 10, 50, 200, 1_000, Int.max]
    var rows = [[Double]](repeating: [0, 0, 0, 0, 0], count: edges.count - 1)   // count, radius S, G, nearest S, G
    for i in 0..<q.count {
        var n = 0
        let rs = seconds { n = snap.entries(within: 4000, of: q[i]).count }
        let rg = seconds { _ = baseline.radius(center: q[i], meters: 4000) }
        let ns = seconds { _ = snap.nearest(to: q[i], k: 10) }
        let ng = seconds { _ = baseline.nearest(to: q[i], k: 10) }
        let b = edges.firstIndex { $0 > n }! - 1
        rows[b][0] += 1; rows[b][1] += rs; rows[b][2] += rg; rows[b][3] += ns; rows[b][4] += ng
    }
    print("points within 4 km | queries | radius Scout | GEOS | ratio | nearest Scout | GEOS | ratio")
    for (b, r) in rows.enumerated() where r[0] > 0 {
        let c = r[0] / 1e6
        print(String(format: "%d–%d | %.0f | %.2f us | %.2f us | %.1fx | %.2f us | %.2f us | %.1fx", edges[b], edges[b + 1] - 1, r[0],
                     r[1] / c, r[2] / c, r[2] / r[1], r[3] / c, r[4] / c, r[4] / r[3]))
    }
}
compare("radius 4 km", count: q.count, scout: { snap.entries(within: 4000, of: q[$0]).count },
        peer: { baseline.radius(center: q[$0], meters: 4000).count })
compare("nearest k=10", count: q.count, scout: { snap.nearest(to: q[$0], k: 10).count },
        peer: { baseline.nearest(to: q[$0], k: 10).count })
// Polygons three ways, each against the same baseline query (which builds and prepares
// the polygon every time and never tests validity):
// - first sight: every query a polygon never seen (each round shifts all vertices by a
//   new micro-degree offset), so GEOS's validity test and every build are in the time;
// - rebuilt: `Region.polygon` per query, the validity verdict remembered (no RegionCache);
// - seen before: the engine's path, a `RegionCache` lending the prepared region.
let polygons = data.polygons
let repeats = 8
let perRound = polygons.count * repeats
// Round r's first-sight polygons: every vertex moved east by a distinct number of µ°.
// Built only when the row runs (rounds × 400 rings of up to 2,000 vertices).
let unseen: [[[SIMD2<Double>]]] = only.map({ !"polygon, first sight".hasPrefix($0) }) == true ? [] : (0..<rounds).map { r in
    (0..<perRound).map { i in
        let dx = Double(1 + r * repeats + i / polygons.count) * 1e-6
        return polygons[i % polygons.count].map { $0 + SIMD2(dx, 0) }
    }
}
nonisolated(unsafe) var unseenRound = -1
compare("polygon, first sight", count: perRound, scout: { i in
    if i == 0 { unseenRound += 1 }
    return snap.entries(coveredBy: try! Region.polygon([unseen[unseenRound][i]])).count
}, peer: { baseline.polygon(unseen[unseenRound][$0]).count })
for ring in polygons { _ = try! Region.polygon([ring]) }   // verdicts remembered
compare("polygon, rebuilt", count: perRound, scout: { i in
    snap.entries(coveredBy: try! Region.polygon([polygons[i % polygons.count]])).count
}, peer: { baseline.polygon(polygons[$0 % polygons.count]).count })
let regions = RegionCache()
func cachedQuery(_ ring: [SIMD2<Double>]) -> Int {
    let region = try! regions.checkOut(RegionKey(polygons: [[ring]])) { () throws(ScoutError) in try Region.polygon([ring]) }
    defer { regions.checkIn(region) }
    return snap.entries(coveredBy: region).count
}
for ring in polygons { _ = cachedQuery(ring) }
compare("polygon, seen before", count: perRound, scout: { cachedQuery(polygons[$0 % polygons.count]) },
        peer: { baseline.polygon(polygons[$0 % polygons.count]).count })
