import Dispatch
import ScoutCore
import Synchronization

/// A live set of points of one kind: bulk loads, upserts and removals while any number
/// of threads query it.
///
/// Layout (a small log-structured merge of packed trees):
/// - every version of every point is appended to an ``EntryStore`` chunk that never moves;
/// - recent entries sit in a linear *buffer* (at most ``bufferLimit``) until the buffer is
///   packed into a ``PackedTree`` *level*; levels of similar size are merged, big merges on
///   a background queue; dead versions are dropped at each merge;
/// - a removal (or the replaced version of an upserted id) is a tombstone: the entry's
///   removal epoch.
///
/// Concurrency model: one writer at a time (writers serialise on a lock), readers never
/// wait for writers. Each write publishes an immutable ``Snapshot`` with a new epoch;
/// a reader takes the current snapshot (a reference copy under a lock held for
/// nanoseconds) and queries it without locks, seeing exactly the state of one epoch —
/// never a half-applied batch or a half-built level.
public final class PointSet: Sendable {
    /// Entries packed into a level once this many are buffered.
    public static var bufferLimit: Int { 1024 }
    /// Merges producing more entries than this run on a background queue.
    public static var backgroundMergeThreshold: Int { 1 << 17 }

    struct WriterState {
        var chunks: [EntryChunk] = []
        var entryCount = 0
        var bufferStart = 0
        var ids: [String: Int32] = [:]
        /// Oldest first.
        var levels: [Level] = []
        var epoch: UInt32 = 0
        var merging = false
        /// While `merging`, the number of oldest levels the background merge is rebuilding.
        var mergeInputs = 0
    }

    /// A packed level and what the writer knows about it.
    struct Level {
        var tree: PackedTree
        /// First entry number the level was built from: a level holds entries from its
        /// start up to the next level's start (the newest one up to `bufferStart`).
        var start: Int
        /// Entries of the level removed since it was built; a level with none skips the
        /// liveness check in queries.
        var removed = 0
    }

    private let writer = Mutex(WriterState())
    private let published: Mutex<Snapshot>
    private let mergeQueue = DispatchQueue(label: "scout.pointset.merge", qos: .utility)
    private let mergeGroup = DispatchGroup()

    /// Creates an empty set.
    public init() {
        published = Mutex(Snapshot(epoch: 0, table: EntryTable(chunks: [], count: 0), levels: [], cleanLevels: [],
                                   bufferStart: 0, liveCount: 0))
    }

    /// The current state, for querying. Cheap; hold it as long as a query needs.
    public func snapshot() -> Snapshot { published.withLock { $0 } }

    /// Number of live points.
    public var count: Int { snapshot().liveCount }

    /// One point to insert or replace.
    public struct Record: Sendable {
        /// Unique id within the set.
        public var id: String
        /// Position; must be valid.
        public var point: GeoPoint
        /// Caller's data.
        public var payload: (any PointPayload)?
        /// Creates a record.
        public init(id: String, point: GeoPoint, payload: (any PointPayload)? = nil) {
            self.id = id
            self.point = point
            self.payload = payload
        }
    }

    /// Inserts or replaces (by id) a batch of points, atomically: readers see all of it
    /// or none. Every point is validated first; a bad one throws and changes nothing.
    ///
    /// - Returns: the number of records applied.
    @discardableResult
    public func upsert(_ records: [Record]) throws(ScoutError) -> Int {
        for (i, r) in records.enumerated() {
            _ = try r.point.validated(path: "records[\(i)]")
            guard !r.id.isEmpty else { throw ScoutError(.invalidRequest, "id must be a non-empty string", path: "records[\(i)].id") }
        }
        if records.isEmpty { return 0 }
        writer.withLock { w in
            w.epoch += 1
            // Grow the id map once for a big batch, geometrically so small batches stay cheap.
            let need = w.ids.count + records.count
            if need > w.ids.capacity { w.ids.reserveCapacity(max(need, 2 * w.ids.capacity)) }
            var newChunks = w.chunks
            for r in records {
                if newChunks.isEmpty || newChunks[newChunks.count - 1].count == EntryChunk.capacity {
                    newChunks.append(EntryChunk())
                }
                let index = Int32(w.entryCount)
                // One probe of the id map: insert, and learn the version this one replaces.
                if let old = w.ids.updateValue(index, forKey: r.id) {
                    // newChunks holds every chunk, including ones this batch added.
                    EntryTable(chunks: newChunks, count: w.entryCount).markRemoved(old, epoch: w.epoch)
                    Self.countRemoval(of: old, in: &w)
                }
                newChunks[newChunks.count - 1].append(Entry(id: r.id, lon: r.point.lon, lat: r.point.lat, payload: r.payload))
                w.entryCount += 1
            }
            w.chunks = newChunks
            packBufferIfFull(&w)
            publish(w)
        }
        return records.count
    }

    /// Removes the points with these ids (unknown ids are ignored), atomically.
    ///
    /// - Returns: the number of points removed.
    @discardableResult
    public func remove(ids: [String]) -> Int {
        writer.withLock { w in
            var removed = 0
            w.epoch += 1
            let table = EntryTable(chunks: w.chunks, count: w.entryCount)
            for id in ids {
                guard let old = w.ids.removeValue(forKey: id) else { continue }
                table.markRemoved(old, epoch: w.epoch)
                removed += 1
                Self.countRemoval(of: old, in: &w)
            }
            if removed > 0 { publish(w) } else { w.epoch -= 1 }
            return removed
        }
    }

    /// Blocks until background merges have finished (for tests and benchmarks).
    public func waitForMerges() { mergeGroup.wait() }

    /// Packs the whole buffer into a level now (for bulk loads and benchmarks).
    public func pack() {
        writer.withLock { w in
            packBuffer(&w)
            publish(w)
        }
    }

    /// Counts a removed entry against the level that holds it (none while it is buffered).
    private static func countRemoval(of entry: Int32, in w: inout WriterState) {
        let e = Int(entry)
        guard e < w.bufferStart, let level = w.levels.lastIndex(where: { $0.start <= e }) else { return }
        w.levels[level].removed += 1
    }

    private func publish(_ w: WriterState) {
        let snap = Snapshot(epoch: w.epoch, table: EntryTable(chunks: w.chunks, count: w.entryCount),
                            levels: w.levels.map(\.tree), cleanLevels: w.levels.map { $0.removed == 0 },
                            bufferStart: w.bufferStart, liveCount: w.ids.count)
        published.withLock { $0 = snap }
    }

    private func packBufferIfFull(_ w: inout WriterState) {
        if w.entryCount - w.bufferStart >= Self.bufferLimit { packBuffer(&w) }
    }

    /// Builds a level from the live entries of `trees` and of the entry range `range`.
    private static func build(table: EntryTable, epoch: UInt32, trees: [PackedTree], range: Range<Int>) -> PackedTree {
        var ids: [Int32] = [], lons: [Double] = [], lats: [Double] = []
        let total = trees.reduce(range.count) { $0 + $1.count }
        ids.reserveCapacity(total); lons.reserveCapacity(total); lats.reserveCapacity(total)
        func add(_ e: Int32, _ lon: Double, _ lat: Double) {
            if table.removedAt(e) > epoch { ids.append(e); lons.append(lon); lats.append(lat) }
        }
        for t in trees {
            for i in 0..<t.count { add(t.entries[i], t.coords[2 * i], t.coords[2 * i + 1]) }
        }
        for i in range {
            let p = table.position(Int32(i))
            add(Int32(i), p.lon, p.lat)
        }
        return PackedTree(entries: ids, lons: lons, lats: lats)
    }

    private func packBuffer(_ w: inout WriterState) {
        guard w.entryCount > w.bufferStart else { return }
        let table = EntryTable(chunks: w.chunks, count: w.entryCount)
        var level = Self.build(table: table, epoch: w.epoch, trees: [], range: w.bufferStart..<w.entryCount)
        var start = w.bufferStart
        w.bufferStart = w.entryCount
        // Merge with the newest levels while they are not much bigger (a binary-counter LSM).
        while let last = w.levels.last, last.tree.count <= 4 * max(level.count, 1) {
            // Never fold in a level the background merge is rebuilding: its installation
            // replaces exactly the oldest `mergeInputs` levels.
            if w.merging && w.levels.count <= w.mergeInputs { break }
            if last.tree.count + level.count > Self.backgroundMergeThreshold {
                if !w.merging { scheduleMerge(&w) }
                break
            }
            w.levels.removeLast()
            start = last.start
            level = Self.build(table: table, epoch: w.epoch, trees: [last.tree, level], range: 0..<0)
        }
        // An empty level is dropped: its entries are all dead, so no removal can land in
        // its range, which the previous level's start now covers.
        if level.count > 0 { w.levels.append(Level(tree: level, start: start)) }
    }

    /// Merges every level into one on the background queue; writes continue meanwhile and
    /// land in new levels. Installation swaps exactly the merged levels, so nothing is lost.
    private func scheduleMerge(_ w: inout WriterState) {
        guard w.levels.count >= 2 else { return }
        w.merging = true
        w.mergeInputs = w.levels.count
        let inputs = w.levels.map(\.tree)
        // The merge drops the entries removed by now; later removals are the merged level's.
        let removedBefore = w.levels.reduce(0) { $0 + $1.removed }
        let table = EntryTable(chunks: w.chunks, count: w.entryCount)
        let epoch = w.epoch
        mergeGroup.enter()
        mergeQueue.async { [self] in
            let merged = Self.build(table: table, epoch: epoch, trees: inputs, range: 0..<0)
            writer.withLock { w in
                // The merged inputs are still the oldest levels: only this merge removes them.
                let replaced = w.levels.prefix(inputs.count)
                let level = Level(tree: merged, start: replaced[0].start,
                                  removed: replaced.reduce(0) { $0 + $1.removed } - removedBefore)
                w.levels.replaceSubrange(0..<inputs.count, with: [level])
                w.merging = false
                publish(w)
            }
            mergeGroup.leave()
        }
    }

    /// Bytes used by the spatial structures: trees (20 bytes a point) and the removal
    /// epochs (4 bytes an entry). Ids and payloads are not counted.
    public var indexMemoryBytes: Int {
        let s = snapshot()
        return s.levels.reduce(0) { $0 + $1.memoryBytes } + s.table.chunks.count * EntryChunk.capacity * 4
    }

    /// An immutable state of the set at one epoch.
    public final class Snapshot: Sendable {
        /// The write epoch this snapshot shows.
        public let epoch: UInt32
        let table: EntryTable
        let levels: [PackedTree]
        /// Per level: no entry of it is removed at this epoch, so queries skip the check.
        let cleanLevels: [Bool]
        let bufferStart: Int
        /// Number of live points.
        public let liveCount: Int

        init(epoch: UInt32, table: EntryTable, levels: [PackedTree], cleanLevels: [Bool], bufferStart: Int, liveCount: Int) {
            self.epoch = epoch
            self.table = table
            self.levels = levels
            self.cleanLevels = cleanLevels
            self.bufferStart = bufferStart
            self.liveCount = liveCount
        }

        /// Number of packed levels (for stats and tests).
        public var levelCount: Int { levels.count }

        /// The entry behind an entry number returned by a query.
        public func entry(_ ref: EntryRef) -> Entry { table.entry(ref.index) }

        @inline(__always)
        func isLive(_ e: Int32) -> Bool { table.removedAt(e) > epoch }

        /// Walks every live point in a box that does not cross the antimeridian with
        /// `visitor` (see ``PackedTree/visit(west:south:east:north:only:_:)``); buffered
        /// points are candidates.
        @inline(__always)
        func visitLive<V: PointVisitor>(west: Double, south: Double, east: Double, north: Double, _ visitor: inout V) {
            for (i, level) in levels.enumerated() {
                if cleanLevels[i] {
                    level.visit(west: west, south: south, east: east, north: north, only: AllEntries(), &visitor)
                } else {
                    level.visit(west: west, south: south, east: east, north: north, only: LiveEntries(snapshot: self), &visitor)
                }
            }
            var i = bufferStart
            while i < table.count {
                let e = table.position(Int32(i))
                if e.lon >= west && e.lon <= east && e.lat >= south && e.lat <= north && isLive(Int32(i)) {
                    visitor.candidate(Int32(i), lon: e.lon, lat: e.lat)
                }
                i += 1
            }
        }

        /// Calls `body(entry, lon, lat)` for every live point in a box that does not cross
        /// the antimeridian.
        @inline(__always)
        func forEachLive(west: Double, south: Double, east: Double, north: Double, _ body: (Int32, Double, Double) -> Void) {
            withoutActuallyEscaping(body) { body in
                var visitor = EachPoint(body: body)
                visitLive(west: west, south: south, east: east, north: north, &visitor)
            }
        }

        /// Every live entry number (for brute-force checks and exports).
        public func allLive() -> [EntryRef] {
            var out: [EntryRef] = []
            for i in 0..<table.count where isLive(Int32(i)) { out.append(EntryRef(index: Int32(i))) }
            return out
        }
    }
}

/// The entries a snapshot still holds.
struct LiveEntries: EntryFilter {
    let snapshot: PointSet.Snapshot
    @inline(__always) func includes(_ entry: Int32) -> Bool { snapshot.isLive(entry) }
}

/// A reference to one entry of a ``PointSet`` snapshot.
public struct EntryRef: Hashable, Sendable {
    /// The entry number.
    public let index: Int32
    /// Wraps an entry number.
    @inlinable public init(index: Int32) { self.index = index }
}
