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

func seconds(_ body: () -> Void) -> Double {
    let t0 = DispatchTime.now().uptimeNanoseconds
    body()
    return Double(DispatchTime.now().uptimeNanoseconds - t0) / 1e9
}

let data = BenchData.shared
let rounds = Int(ProcessInfo.processInfo.environment["ROUNDS"] ?? "3") ?? 3
print("points: \(data.ids.count), queries: \(data.queries.count), polygons: \(data.polygons.count), rounds: \(rounds)")

var scoutBuild = 0.0, geosBuild = 0.0
var set = PointSet()
var geos: GEOSBaseline?
for _ in 0..<rounds {
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
for _ in 0..<rounds {
    var tree: PackedTree?
    treeBuild += seconds { tree = PackedTree(entries: entryNumbers, lons: data.lons, lats: data.lats) }
    precondition(tree!.count == data.ids.count)
    geos = nil
    geosTreeBuild += seconds { let g = GEOSBaseline(lats: data.lats, lons: data.lons); _ = g.tree; geos = g }
}
let baseline = geos!
let snap = set.snapshot()
print(String(format: "build (records with string ids in, index ready), mean of %d: Scout %.1f ms, GEOS %.1f ms, Scout/GEOS %.2f",
             rounds, scoutBuild / Double(rounds) * 1e3, geosBuild / Double(rounds) * 1e3, scoutBuild / geosBuild))
print(String(format: "build (coordinates in, spatial index ready), mean of %d: Scout packed tree %.1f ms (%d cores), GEOS %.1f ms, Scout/GEOS %.2f",
             rounds, treeBuild / Double(rounds) * 1e3, ProcessInfo.processInfo.activeProcessorCount,
             geosTreeBuild / Double(rounds) * 1e3, treeBuild / geosTreeBuild))

/// `ONLY=radius` (or `nearest`, `polygon`) runs the rows whose name starts with it.
let only = ProcessInfo.processInfo.environment["ONLY"]

func compare(_ name: String, count: Int, scout: (Int) -> Int, peer: (Int) -> Int) {
    if let only, !name.hasPrefix(only) { return }
    var sTotal = 0.0, gTotal = 0.0, sink = 0
    for round in 1...rounds {
        let s = seconds { for i in 0..<count { sink &+= scout(i) } }
        let g = seconds { for i in 0..<count { sink &+= peer(i) } }
        sTotal += s; gTotal += g
        print(String(format: "  %@ round %d: Scout %.2f us, GEOS %.2f us, GEOS/Scout %.2fx", name, round,
                     s / Double(count) * 1e6, g / Double(count) * 1e6, g / s))
    }
    print(String(format: "%@: mean per query Scout %.2f us, GEOS %.2f us, GEOS/Scout %.2fx (checksum %d)", name,
                 sTotal / Double(count * rounds) * 1e6, gTotal / Double(count * rounds) * 1e6, gTotal / sTotal, sink))
}

let q = data.queries
compare("radius 4 km", count: q.count, scout: { snap.entries(within: 4000, of: q[$0]).count },
        peer: { baseline.radius(center: q[$0], meters: 4000).count })
compare("nearest k=10", count: q.count, scout: { snap.nearest(to: q[$0], k: 10).count },
        peer: { baseline.nearest(to: q[$0], k: 10).count })
let polygons = data.polygons
compare("polygon", count: polygons.count, scout: { i in
    let region = try! Region.polygon([polygons[i]])
    return snap.entries(coveredBy: region).count
}, peer: { baseline.polygon(polygons[$0]).count })

// Where a polygon query's time goes: building the region (GEOS geometry, validity verdict
// from the cache after the first round, prepared geometry) against the search itself.
if only == nil || "polygon".hasPrefix(only!) {
    var buildTime = 0.0, searchTime = 0.0, sink = 0
    for _ in 1...rounds {
        var regions: [Region] = []
        buildTime += seconds { regions = polygons.map { try! Region.polygon([$0]) } }
        searchTime += seconds { for r in regions { sink &+= snap.entries(coveredBy: r).count } }
    }
    let n = Double(polygons.count * rounds)
    print(String(format: "polygon parts: region build %.2f us, search %.2f us (checksum %d)", buildTime / n * 1e6, searchTime / n * 1e6, sink))
}
