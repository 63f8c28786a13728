import Foundation
import ScoutCore

/// A static kd-tree packed into two flat arrays (KDBush layout): interleaved
/// longitude/latitude coordinates and the entry number of each point.
///
/// The tree is implicit: the points of a node occupy a contiguous range, split at its
/// middle element alternately by longitude and latitude, down to leaves of
/// ``nodeSize`` points. Memory: 20 bytes a point, nothing else.
///
/// - Complexity: build O(n log n); a box query O(√n + k); no allocation per query.
public struct PackedTree: Sendable {
    /// Points per leaf.
    public static let nodeSize = 32

    /// `[lon0, lat0, lon1, lat1, …]` in tree order.
    public let coords: [Double]
    /// Entry number of each point, in tree order.
    public let entries: [Int32]

    /// Number of points.
    @inlinable public var count: Int { entries.count }

    /// Bytes held by the tree's arrays.
    public var memoryBytes: Int { coords.capacity * 8 + entries.capacity * 4 }

    /// Builds a tree over the points `(lon[i], lat[i])` carrying `entries[i]`.
    public init(entries: [Int32], lons: [Double], lats: [Double]) {
        precondition(entries.count == lons.count && lons.count == lats.count)
        var ids = entries
        var xy = [Double](repeating: 0, count: entries.count * 2)
        for i in 0..<entries.count { xy[2 * i] = lons[i]; xy[2 * i + 1] = lats[i] }
        if ids.count > PackedTree.nodeSize {
            ids.withUnsafeMutableBufferPointer { idp in
                xy.withUnsafeMutableBufferPointer { cp in
                    PackedTree.sort(idp, cp, 0, idp.count - 1, 0)
                }
            }
        }
        self.entries = ids
        self.coords = xy
    }

    private static func sort(_ ids: UnsafeMutableBufferPointer<Int32>, _ xy: UnsafeMutableBufferPointer<Double>,
                             _ left: Int, _ right: Int, _ axis: Int) {
        if right - left <= nodeSize { return }
        let m = (left + right) >> 1
        select(ids, xy, m, left, right, axis)
        sort(ids, xy, left, m - 1, 1 - axis)
        sort(ids, xy, m + 1, right, 1 - axis)
    }

    /// Floyd–Rivest selection: puts the k-th smallest (by `axis`) at `k`, smaller ones before it.
    private static func select(_ ids: UnsafeMutableBufferPointer<Int32>, _ xy: UnsafeMutableBufferPointer<Double>,
                               _ k: Int, _ left: Int, _ right: Int, _ axis: Int) {
        var left = left, right = right
        while right > left {
            if right - left > 600 {
                let n = Double(right - left + 1), i = Double(k - left + 1)
                let z = log(n), s = 0.5 * exp(2 * z / 3)
                let sd = 0.5 * (z * s * (n - s) / n).squareRoot() * (i - n / 2 < 0 ? -1 : 1)
                let newLeft = max(left, Int((Double(k) - i * s / n + sd).rounded(.down)))
                let newRight = min(right, Int((Double(k) + (n - i) * s / n + sd).rounded(.down)))
                select(ids, xy, k, newLeft, newRight, axis)
            }
            let t = xy[2 * k + axis]
            var i = left, j = right
            swapItem(ids, xy, left, k)
            if xy[2 * right + axis] > t { swapItem(ids, xy, left, right) }
            while i < j {
                swapItem(ids, xy, i, j)
                i += 1; j -= 1
                while xy[2 * i + axis] < t { i += 1 }
                while xy[2 * j + axis] > t { j -= 1 }
            }
            if xy[2 * left + axis] == t { swapItem(ids, xy, left, j) }
            else { j += 1; swapItem(ids, xy, j, right) }
            if j <= k { left = j + 1 }
            if k <= j { right = j - 1 }
        }
    }

    @inline(__always)
    private static func swapItem(_ ids: UnsafeMutableBufferPointer<Int32>, _ xy: UnsafeMutableBufferPointer<Double>, _ i: Int, _ j: Int) {
        ids.swapAt(i, j)
        xy.swapAt(2 * i, 2 * j)
        xy.swapAt(2 * i + 1, 2 * j + 1)
    }

    /// Calls `body(entry, lon, lat)` for every point in the box (edges inclusive; the box
    /// must not cross the antimeridian). Allocates nothing.
    @inlinable
    public func forEach(west: Double, south: Double, east: Double, north: Double,
                        _ body: (Int32, Double, Double) -> Void) {
        let n = entries.count
        if n == 0 { return }
        coords.withUnsafeBufferPointer { xy in
            entries.withUnsafeBufferPointer { ids in
                withUnsafeTemporaryAllocation(of: Int.self, capacity: 256) { stack in
                    var sp = 0
                    stack[0] = 0; stack[1] = n - 1; stack[2] = 0; sp = 3
                    while sp > 0 {
                        let axis = stack[sp - 1], right = stack[sp - 2], left = stack[sp - 3]
                        sp -= 3
                        if right - left <= PackedTree.nodeSize {
                            var i = left
                            while i <= right {
                                let x = xy[2 * i], y = xy[2 * i + 1]
                                if x >= west && x <= east && y >= south && y <= north { body(ids[i], x, y) }
                                i += 1
                            }
                            continue
                        }
                        let m = (left + right) >> 1
                        let x = xy[2 * m], y = xy[2 * m + 1]
                        if x >= west && x <= east && y >= south && y <= north { body(ids[m], x, y) }
                        let c = axis == 0 ? x : y
                        if (axis == 0 ? west : south) <= c {
                            stack[sp] = left; stack[sp + 1] = m - 1; stack[sp + 2] = 1 - axis; sp += 3
                        }
                        if (axis == 0 ? east : north) >= c {
                            stack[sp] = m + 1; stack[sp + 1] = right; stack[sp + 2] = 1 - axis; sp += 3
                        }
                    }
                }
            }
        }
    }
}
