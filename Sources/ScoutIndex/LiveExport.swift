import CIntrinsics
import Dispatch
import ScoutCore
import Synchronization

/// The live points of a ``PointSet`` as flat arrays in packed-tree order: what a snapshot
/// file stores, and what ``PointSet/init(restoring:)`` rebuilds a set from without sorting.
///
/// Point `i` has id `ids[i]`, position `(coords[2i], coords[2i+1])` (longitude, latitude)
/// and payload `payloads[i]`; the coordinates are already a ``PackedTree`` (KDBush order)
/// over the entry numbers `0..<count`, so one array serves as the store's positions and the
/// tree.
public struct LiveExport: Sendable {
    /// Ids, unique, in tree order.
    public var ids: [String]
    /// `[lon0, lat0, lon1, lat1, …]` in tree order.
    public var coords: [Double]
    /// Each point's payload, in tree order; empty when no point has one.
    public var payloads: [PointPayload?]

    /// Number of points.
    public var count: Int { ids.count }

    /// Wraps arrays in tree order (checked by ``PointSet/init(restoring:)``, not here).
    public init(ids: [String], coords: [Double], payloads: [PointPayload?]) {
        self.ids = ids
        self.coords = coords
        self.payloads = payloads
    }
}

extension PointSet {
    /// The live points of the current snapshot, renumbered `0..<live` in packed-tree order.
    ///
    /// ```swift
    /// let live = set.exportLive()
    /// let copy = try PointSet(restoring: live)   // answers every query as `set` does
    /// ```
    /// - Complexity: O(n log n) for n live points (one tree build); the set keeps serving.
    public func exportLive() -> LiveExport { snapshot().exportLive() }
}

extension PointSet.Snapshot {
    /// The live points of this snapshot, renumbered `0..<live` in packed-tree order (see
    /// ``PointSet/exportLive()``). A snapshot never changes, so this may run on any thread
    /// while the set keeps taking writes.
    ///
    /// - Complexity: O(n log n) for n live points (one tree build).
    public func exportLive() -> LiveExport {
        let s = self
        // A set that is one clean level over every entry (a restored set before any write)
        // is exported as it stands, so a snapshot of a restored set is the same file.
        let tree: PackedTree
        if s.levels.count == 1, s.cleanLevels[0], s.bufferStart == s.table.count, s.levels[0].count == s.liveCount {
            tree = s.levels[0]
        } else {
            var refs: [Int32] = [], lons: [Double] = [], lats: [Double] = []
            refs.reserveCapacity(s.liveCount); lons.reserveCapacity(s.liveCount); lats.reserveCapacity(s.liveCount)
            for i in 0..<s.table.count where s.isLive(Int32(i)) {
                let p = s.table.position(Int32(i))
                refs.append(Int32(i)); lons.append(p.lon); lats.append(p.lat)
            }
            tree = PackedTree(entries: refs, lons: lons, lats: lats)
        }
        var ids: [String] = [], payloads: [PointPayload?] = []
        ids.reserveCapacity(tree.count); payloads.reserveCapacity(tree.count)
        for e in tree.entries {
            let entry = s.table.entry(e)
            ids.append(entry.id)
            payloads.append(entry.payload)
        }
        return LiveExport(ids: ids, coords: tree.coords, payloads: payloads)
    }
}

extension PointSet {
    /// A set holding exactly the points of `live`, packed as one level whose tree is
    /// `live.coords` as given (not sorted again), at version 1.
    ///
    /// Checks everything a query relies on and throws `invalid_request` naming the point
    /// (`points[17].id`) otherwise: matching array lengths, valid positions, non-empty
    /// distinct ids, and the kd-tree order of the coordinates (O(n log n) comparisons, no
    /// moves), so that a damaged export can give neither a crash nor a wrong answer.
    ///
    /// - Complexity: O(n log n) comparisons and O(n) copies for n points.
    public convenience init(restoring live: LiveExport) throws(ScoutError) {
        let n = live.ids.count
        guard live.coords.count == 2 * n, live.payloads.count == n || live.payloads.isEmpty else {
            throw ScoutError(.invalidRequest, "\(n) ids, \(live.coords.count) coordinates and \(live.payloads.count) payloads do not match",
                             path: "points")
        }
        guard n <= Int(Int32.max) / 2 else { throw ScoutError(.limitExceeded, "too many points for one set", path: "points") }
        // Two threads: first each works out the id map's tags of half of the ids; then one
        // builds the id map writes need from them, checking the ids as it goes
        // (``IdMap/init(checking:tagged:)``), and the other checks the positions and the
        // tree order; then both fill the entry chunks, each taking the next unfilled one.
        let work = RestoreWork(live)
        if n >= IdMap.sortedBuildThreshold {
            work.tagged.withUnsafeMutableBufferPointer { buffer in
                let tagged = SharedTags(base: buffer.baseAddress!)
                DispatchQueue.concurrentPerform(iterations: 2) { half in
                    live.ids.withUnsafeBufferPointer { IdMap.tagEntries($0, half == 0 ? 0..<(n / 2) : (n / 2)..<n, into: tagged.base) }
                }
            }
        }
        DispatchQueue.concurrentPerform(iterations: 2) { half in
            if half == 0 {
                do throws(IdMap.BadId) {
                    work.ids = try IdMap(checking: live.ids, tagged: &work.tagged)
                } catch {
                    switch error {
                    case .empty(let i): work.idError = ScoutError(.invalidRequest, "id must be a non-empty string", path: "points[\(i)].id")
                    case .repeated(let i): work.idError = ScoutError(.invalidRequest, "the id appears twice", path: "points[\(i)].id")
                    }
                }
            } else {
                work.positionError = Self.positionError(live.coords)
            }
            work.fillChunks()
        }
        if let e = work.idError ?? work.positionError { throw e }
        var w = WriterState()
        w.ids = work.ids
        let chunks = work.chunks
        w.chunks = chunks
        w.entryCount = n
        w.bufferStart = n
        if n > 0 {
            let tree = PackedTree(treeOrderEntries: Array(0..<Int32(n)), coords: live.coords)
            w.levels = [Level(tree: tree, start: 0)]
        }
        w.epoch = 1
        self.init(restored: w)
    }

    /// The work of a restore's two threads: the id map and the checks, each written by one
    /// thread only, and the entry chunks, which both fill (each chunk by the thread that
    /// took its number).
    private final class RestoreWork: @unchecked Sendable {
        var ids = IdMap()
        /// The id map's tagged entries (``IdMap/tagEntries(_:_:into:)``) of a big set, worked
        /// out by both threads before the map is built, which sorts them in place and empties
        /// them; empty for a small one.
        var tagged: [UInt64]
        var idError: ScoutError?
        var positionError: ScoutError?
        /// The points' entries `0..<count`, all live, once ``fillChunks()`` returned on both threads.
        let chunks: [EntryChunk]
        private let live: LiveExport
        private let next = Atomic<Int>(0)

        init(_ live: LiveExport) {
            self.live = live
            let n = live.count
            // Not zeroed: every entry is written before the map reads it.
            tagged = n >= IdMap.sortedBuildThreshold ? [UInt64](unsafeUninitializedCapacity: n) { $1 = n } : []
            chunks = (0..<((n + EntryChunk.capacity - 1) / EntryChunk.capacity)).map { _ in EntryChunk() }
        }

        /// Fills chunks until none is left unfilled.
        func fillChunks() {
            live.ids.withUnsafeBufferPointer { ids in
                live.coords.withUnsafeBufferPointer { xy in
                    live.payloads.withUnsafeBufferPointer { payloads in
                        while true {
                            let k = next.add(1, ordering: .relaxed).oldValue
                            guard k < chunks.count else { return }
                            let chunk = chunks[k], start = k * EntryChunk.capacity
                            let count = min(EntryChunk.capacity, ids.count - start)
                            for j in 0..<count {
                                let i = start + j
                                let payload = payloads.isEmpty ? nil : payloads[i]
                                (chunk.entries + j).initialize(to: Entry(id: ids[i], lon: xy[2 * i], lat: xy[2 * i + 1], payload: payload))
                                (chunk.removed + j).initialize(to: Atomic(EntryChunk.never))
                            }
                            chunk.count = count
                        }
                    }
                }
            }
        }
    }

    /// Where both threads write the tagged entries, each into its own half.
    private struct SharedTags: @unchecked Sendable {
        let base: UnsafeMutablePointer<UInt64>
    }

    /// The first invalid position or break of packed-tree order, as an error.
    private static func positionError(_ coords: [Double]) -> ScoutError? {
        let bad: Int? = coords.withUnsafeBufferPointer { xy in
            for i in 0..<(xy.count / 2) {
                let lon = xy[2 * i], lat = xy[2 * i + 1]
                // Written as `!(…)` so that NaN fails.
                if !(lon >= -180 && lon <= 180 && lat >= -90 && lat <= 90) { return i }
            }
            return nil
        }
        if let i = bad { return ScoutError(.invalidRequest, "the position is not a valid longitude/latitude", path: "points[\(i)]") }
        if let (i, why) = PackedTree.orderViolation(coords: coords) {
            return ScoutError(.invalidRequest, "the coordinates are not in packed-tree order (\(why))", path: "points[\(i)]")
        }
        return nil
    }
}

extension PackedTree {
    /// The first violation of packed kd-tree order in `coords` (tree order, interleaved
    /// lon/lat): the index of a point on the wrong side of its node's split, and why; `nil`
    /// when every node is split at its middle point as ``PackedTree/init(entries:lons:lats:)``
    /// splits it.
    ///
    /// - Complexity: O(n log n) comparisons, no allocation beyond a small stack.
    static func orderViolation(coords: [Double]) -> (Int, String)? {
        let n = coords.count / 2
        guard n > nodeSize else { return nil }
        return coords.withUnsafeBufferPointer { xy -> (Int, String)? in
            var stack: [(left: Int, right: Int, axis: Int)] = [(0, n - 1, 0)]
            while let (left, right, axis) = stack.popLast() {
                if right - left <= nodeSize { continue }
                let m = (left + right) >> 1
                let c = xy[2 * m + axis]
                var i = left
                while i < m { if xy[2 * i + axis] > c { return (i, "left of the split at \(m), above it") }; i += 1 }
                i = m + 1
                while i <= right { if xy[2 * i + axis] < c { return (i, "right of the split at \(m), below it") }; i += 1 }
                stack.append((left, m - 1, 1 - axis))
                stack.append((m + 1, right, 1 - axis))
            }
            return nil
        }
    }
}
