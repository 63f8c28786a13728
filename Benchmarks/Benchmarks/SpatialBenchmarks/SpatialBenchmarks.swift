import BenchSupport
import Benchmark
import Foundation
import ScoutCore
import ScoutGeodesy
import ScoutGeometry
import ScoutIndex

// Scout against a GEOS STRtree on the same 1,000,000 clustered points and the same
// queries, in the same run. Each benchmark iteration answers one query (cycling through
// the 10,000 query centres), so time per iteration is time per query.

/// Scout's live set, bulk-loaded with every point.
let scoutSet: PointSet = {
    let d = BenchData.shared
    let set = PointSet()
    var batch: [PointSet.Record] = []
    batch.reserveCapacity(d.ids.count)
    for i in 0..<d.ids.count { batch.append(PointSet.Record(id: d.ids[i], point: GeoPoint(lat: d.lats[i], lon: d.lons[i]))) }
    try! set.upsert(batch)
    set.pack()
    return set
}()

let geos = GEOSBaseline(lats: BenchData.shared.lats, lons: BenchData.shared.lons)

let geohashGrid = GeohashGridIndex(entries: (0..<Int32(BenchData.shared.ids.count)).map { $0 },
                                   lons: BenchData.shared.lons, lats: BenchData.shared.lats, precision: 6)

func config(_ seconds: Int = 4, iterations: Int = 10_000) -> Benchmark.Configuration {
    .init(metrics: [.wallClock, .mallocCountTotal, .throughput], timeUnits: .nanoseconds,
          warmupIterations: 100, maxDuration: .seconds(seconds), maxIterations: iterations)
}

nonisolated(unsafe) var cursor = 0
func nextQuery() -> GeoPoint {
    let q = BenchData.shared.queries
    cursor = (cursor + 1) % q.count
    return q[cursor]
}

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = config()

    // Radius 4 km: exact ellipsoidal membership (Scout) vs STRtree + haversine (GEOS).
    Benchmark("radius 4 km / Scout packed tree (exact WGS84)") { b in
        let s = scoutSet.snapshot()
        for _ in b.scaledIterations { blackHole(s.entries(within: 4000, of: nextQuery())) }
    }
    Benchmark("radius 4 km / Scout geohash grid p6 (exact WGS84)") { b in
        _ = geohashGrid.count
        for _ in b.scaledIterations { blackHole(geohashGrid.entries(within: 4000, of: nextQuery())) }
    }
    Benchmark("radius 4 km / GEOS STRtree + haversine") { b in
        _ = geos.tree
        for _ in b.scaledIterations { blackHole(geos.radius(center: nextQuery(), meters: 4000)) }
    }

    // k = 10 nearest, exact geodesic order.
    Benchmark("nearest k=10 / Scout") { b in
        let s = scoutSet.snapshot()
        for _ in b.scaledIterations { blackHole(s.nearest(to: nextQuery(), k: 10)) }
    }
    Benchmark("nearest k=10 / GEOS STRtree box-growing + geodesic") { b in
        _ = geos.tree
        for _ in b.scaledIterations { blackHole(geos.nearest(to: nextQuery(), k: 10)) }
    }

    // City-sized polygons (100–2000 vertices), covers vs prepared contains.
    nonisolated(unsafe) var polygonCursor = 0
    let polygons = BenchData.shared.polygons
    // Scout twice: the engine's path (a RegionCache lends the prepared region of a polygon
    // seen before) and a region rebuilt per query (validity verdict remembered).
    let regions = RegionCache()
    Benchmark("polygon / Scout seen before (GEOS-judged, grid-pruned, region cache)", configuration: config(6, iterations: 2000)) { b in
        let s = scoutSet.snapshot()
        for _ in b.scaledIterations {
            polygonCursor = (polygonCursor + 1) % polygons.count
            let ring = polygons[polygonCursor]
            let region = try! regions.checkOut(RegionKey(polygons: [[ring]])) { () throws(ScoutError) in try Region.polygon([ring]) }
            blackHole(s.entries(coveredBy: region))
            regions.checkIn(region)
        }
    }
    Benchmark("polygon / Scout rebuilt per query (GEOS-judged, grid-pruned)", configuration: config(6, iterations: 2000)) { b in
        let s = scoutSet.snapshot()
        for _ in b.scaledIterations {
            polygonCursor = (polygonCursor + 1) % polygons.count
            blackHole(s.entries(coveredBy: try! Region.polygon([polygons[polygonCursor]])))
        }
    }
    // First sight: every query a polygon never seen (each shifted east by a new number of
    // micro-degrees), so the validity check (SimpleRingProof, else GEOS's full test) and
    // every build are in the time.
    nonisolated(unsafe) var unseenShift = 0
    Benchmark("polygon / Scout first sight (validity checked, GEOS-judged, grid-pruned)", configuration: config(6, iterations: 2000)) { b in
        let s = scoutSet.snapshot()
        for _ in b.scaledIterations {
            polygonCursor = (polygonCursor + 1) % polygons.count
            unseenShift += 1
            let dx = Double(unseenShift) * 1e-6
            let ring = polygons[polygonCursor].map { $0 + SIMD2(dx, 0) }
            blackHole(s.entries(coveredBy: try! Region.polygon([ring])))
        }
    }
    Benchmark("polygon / GEOS STRtree + prepared contains", configuration: config(6, iterations: 2000)) { b in
        _ = geos.tree
        for _ in b.scaledIterations {
            polygonCursor = (polygonCursor + 1) % polygons.count
            blackHole(geos.polygon(polygons[polygonCursor]))
        }
    }

    // Bulk build of 1,000,000 points.
    Benchmark("build 1M / Scout packed tree", configuration: config(20, iterations: 5)) { b in
        let d = BenchData.shared
        let entries = (0..<Int32(d.ids.count)).map { $0 }
        for _ in b.scaledIterations { blackHole(PackedTree(entries: entries, lons: d.lons, lats: d.lats)) }
    }
    Benchmark("build 1M / Scout live set (ids, tombstones, tree)", configuration: config(20, iterations: 5)) { b in
        let d = BenchData.shared
        let batch = (0..<d.ids.count).map { PointSet.Record(id: d.ids[$0], point: GeoPoint(lat: d.lats[$0], lon: d.lons[$0])) }
        for _ in b.scaledIterations {
            let set = PointSet()
            try! set.upsert(batch)
            set.pack()
            blackHole(set)
        }
    }
    Benchmark("build 1M / GEOS STRtree", configuration: config(30, iterations: 5)) { b in
        let d = BenchData.shared
        for _ in b.scaledIterations { blackHole(GEOSBaseline(lats: d.lats, lons: d.lons)) }
    }

    // Upserts of 1,000 moved points a batch while a reader thread queries.
    Benchmark("upsert 1k-point batches while serving / Scout", configuration: config(10, iterations: 2000)) { b in
        let set = scoutSet
        let d = BenchData.shared
        let stop = ManagedAtomicFlag()
        let reader = Thread {
            while !stop.isSet { blackHole(set.snapshot().entries(within: 4000, of: nextQuery())) }
        }
        reader.start()
        var rng = SystemRandomNumberGenerator()
        b.startMeasurement()
        for _ in b.scaledIterations {
            var batch: [PointSet.Record] = []
            batch.reserveCapacity(1000)
            for _ in 0..<1000 {
                let i = Int.random(in: 0..<d.ids.count, using: &rng)
                batch.append(PointSet.Record(id: d.ids[i], point: GeoPoint(lat: d.lats[i], lon: min(180, d.lons[i] + 0.0001))))
            }
            try! set.upsert(batch)
        }
        b.stopMeasurement()
        stop.set()
    }

    Benchmark("index memory / Scout bytes per point", configuration: .init(metrics: [.custom("bytes/point", polarity: .prefersSmaller)], maxIterations: 1)) { b in
        let set = PointSet()
        let d = BenchData.shared
        try! set.upsert((0..<d.ids.count).map { PointSet.Record(id: d.ids[$0], point: GeoPoint(lat: d.lats[$0], lon: d.lons[$0])) })
        set.pack()
        b.measurement(.custom("bytes/point"), set.indexMemoryBytes / d.ids.count)
    }
}

/// A stop flag for the reader thread.
final class ManagedAtomicFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    var isSet: Bool { lock.lock(); defer { lock.unlock() }; return value }
    func set() { lock.lock(); value = true; lock.unlock() }
}
