import ScoutCore
import ScoutGeodesy

/// A static index that buckets points by geohash cell at one precision: the classic
/// "geohash prefix" index that Redis GEO and many databases use, kept as flat sorted
/// arrays so that benchmarks can pit it against ``PackedTree`` fairly.
///
/// Layout: cell keys `row << 32 | column` sorted, a start offset per cell, and the
/// points grouped by cell (`[lon, lat]` and entry numbers). Memory: 20 bytes a point plus
/// 12 bytes an occupied cell.
public struct GeohashGridIndex: Sendable {
    /// Geohash precision of the cells.
    public let precision: Int
    let keys: [UInt64]
    let starts: [Int32]
    let coords: [Double]
    let entries: [Int32]

    /// Number of points.
    public var count: Int { entries.count }

    /// Bytes held by the index's arrays.
    public var memoryBytes: Int { keys.capacity * 8 + starts.capacity * 4 + coords.capacity * 8 + entries.capacity * 4 }

    /// Buckets the points `(lons[i], lats[i])` carrying `entries[i]` into cells of `precision`.
    public init(entries: [Int32], lons: [Double], lats: [Double], precision: Int) {
        self.precision = precision
        let n = entries.count
        var cellOf = [UInt64](repeating: 0, count: n)
        for i in 0..<n {
            let x = UInt64(Geohash.column(lon: lons[i], precision: precision))
            let y = UInt64(Geohash.row(lat: lats[i], precision: precision))
            cellOf[i] = y << 32 | x
        }
        let order = (0..<n).sorted { cellOf[$0] < cellOf[$1] }
        var keys: [UInt64] = [], starts: [Int32] = [], xy = [Double](repeating: 0, count: 2 * n), ids = [Int32](repeating: 0, count: n)
        for (k, i) in order.enumerated() {
            if keys.last != cellOf[i] { keys.append(cellOf[i]); starts.append(Int32(k)) }
            xy[2 * k] = lons[i]; xy[2 * k + 1] = lats[i]; ids[k] = entries[i]
        }
        starts.append(Int32(n))
        self.keys = keys
        self.starts = starts
        self.coords = xy
        self.entries = ids
    }

    /// Entry numbers of every point within `radius` metres (geodesic, exact) of `center`.
    public func entries(within radius: Double, of center: GeoPoint) -> [Int32] {
        let test = RadiusTest(center: center, radius: radius)
        var out: [Int32] = []
        for box in test.boxes {
            let x0 = UInt64(Geohash.column(lon: box.west, precision: precision))
            let x1 = UInt64(Geohash.column(lon: box.east, precision: precision))
            let y0 = UInt64(Geohash.row(lat: box.south, precision: precision))
            let y1 = UInt64(Geohash.row(lat: box.north, precision: precision))
            for y in y0...y1 {
                var c = lowerBound(y << 32 | x0)
                let last = y << 32 | x1
                while c < keys.count && keys[c] <= last {
                    for k in Int(starts[c])..<Int(starts[c + 1]) {
                        let lon = coords[2 * k], lat = coords[2 * k + 1]
                        if test.contains(lat: lat, lon: lon) { out.append(entries[k]) }
                    }
                    c += 1
                }
            }
        }
        return out
    }

    private func lowerBound(_ key: UInt64) -> Int {
        var lo = 0, hi = keys.count
        while lo < hi {
            let mid = (lo + hi) >> 1
            if keys[mid] < key { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }
}
