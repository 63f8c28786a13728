import CIntrinsics
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
/// Reclamation: dead versions leave the trees at merges, and their entry slots leave the
/// store at *compactions*. When dead slots outnumber both the live points and
/// ``compactionSlack``, the live entries are copied into fresh chunks under new numbers
/// `0..<live` and the levels are rebuilt over the new numbers — in the writer for small
/// sets (up to ``synchronousCompactionLimit`` points), else as a background merge whose
/// result is installed with the writes made meanwhile renumbered after it. A compaction
/// publishes a new epoch; older snapshots keep the old chunks and trees alive and answer
/// from them until released. So memory is proportional to the live points (about two
/// slots a point at worst), entry numbers stay below `2 × live + slack`, and epochs are
/// 64-bit.
///
/// Concurrency model: one writer at a time (writers serialise on a lock), readers never
/// wait for writers. Each write publishes an immutable ``Snapshot`` with a new epoch;
/// a reader takes the current snapshot (a reference copy under a lock held for
/// nanoseconds) and queries it without locks, seeing exactly the state of one epoch —
/// never a half-applied batch, a half-built level or a half-done compaction.
///
/// Entry numbers (``EntryRef/index``) name an entry within one epoch only: a compaction
/// gives the same point another number under the next epoch.
public final class PointSet: Sendable {
    /// Entries packed into a level once this many are buffered.
    public static var bufferLimit: Int { 1024 }
    /// Merges producing more entries than this run on a background queue.
    public static var backgroundMergeThreshold: Int { 1 << 17 }
    /// Dead entry slots tolerated before a compaction, however few points are live (the
    /// default of ``compactionSlack``).
    public static var defaultCompactionSlack: Int { 1 << 14 }
    /// Sets of at most this many live points compact in the writer; bigger ones compact on
    /// the background queue.
    public static var synchronousCompactionLimit: Int { 1 << 15 }

    /// Dead entry slots tolerated before a compaction: one runs once dead slots outnumber
    /// both this and the live points.
    public let compactionSlack: Int

    struct WriterState {
        var chunks: [EntryChunk] = []
        var entryCount = 0
        /// The entries removed in this generation of entry numbers, in stamping order
        /// (``RemovalLog``).
        var removals: [RemovalChunk] = []
        /// How many removals ``removals`` holds (every chunk but the last is full).
        var removalCount: Int { removals.last.map { (removals.count - 1) * RemovalChunk.capacity + $0.count } ?? 0 }
        var bufferStart = 0
        var ids = IdMap()
        /// Number of live points.
        var liveCount: Int { ids.count }
        /// Oldest first.
        var levels: [Level] = []
        var epoch: UInt64 = 0
        var merging = false
        /// While `merging`, the number of oldest levels the background merge is rebuilding.
        var mergeInputs = 0
        /// Compactions so far.
        var compactions = 0
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

    let writer: Mutex<WriterState>
    private let published: Mutex<Snapshot>
    /// Told of each snapshot that starts a new generation of entry numbers (``observeCompactions(_:)``).
    private let compactionObserver = Mutex<(@Sendable (Snapshot) -> Void)?>(nil)
    private let mergeQueue = DispatchQueue(label: "scout.pointset.merge", qos: .utility)
    private let mergeGroup = DispatchGroup()

    /// Creates an empty set.
    public convenience init() { self.init(compactionSlack: PointSet.defaultCompactionSlack) }

    /// Creates an empty set that compacts once dead entry slots outnumber both
    /// `compactionSlack` and the live points (small values are for tests), its first write
    /// at epoch `startingEpoch + 1`.
    init(compactionSlack: Int, startingEpoch: UInt64 = 0) {
        precondition(compactionSlack >= 0)
        self.compactionSlack = compactionSlack
        var w = WriterState()
        w.epoch = startingEpoch
        writer = Mutex(w)
        published = Mutex(Snapshot(version: startingEpoch, table: EntryTable(chunks: [], count: 0), levels: [], cleanLevels: [],
                                   bufferStart: 0, liveCount: 0, generation: 0))
    }

    /// A set over a writer's state built elsewhere (``init(restoring:)``), published as is
    /// (checked first in checking builds).
    init(restored w: WriterState) {
        compactionSlack = PointSet.defaultCompactionSlack
        writer = Mutex(w)
        published = Mutex(Snapshot(version: w.epoch, table: EntryTable(chunks: [], count: 0), levels: [], cleanLevels: [],
                                   bufferStart: 0, liveCount: 0, generation: 0))
        publish(w, restructured: true)
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
        public var payload: PointPayload?
        /// Creates a record.
        public init(id: String, point: GeoPoint, payload: PointPayload? = nil) {
            self.id = id
            self.point = point
            self.payload = payload
        }
    }

    /// Inserts or replaces (by id) a batch of points, atomically: readers see all of it
    /// or none. Every point is validated first; a bad one throws and changes nothing.
    ///
    /// - Returns: the number of records applied.
    /// - Complexity: amortised O(log n) a record (packing, merging and compaction included).
    @discardableResult
    public func upsert(_ records: [Record]) throws(ScoutError) -> Int {
        for (i, r) in records.enumerated() {
            _ = try r.point.validated(path: "records[\(i)]")
            guard !r.id.isEmpty else { throw ScoutError(.invalidRequest, "id must be a non-empty string", path: "records[\(i)].id") }
        }
        if records.isEmpty { return 0 }
        writer.withLock { w in
            // Compaction keeps entryCount below 2 × live + slack + a merge's worth of writes.
            precondition(w.entryCount + records.count <= Int(Int32.max), "PointSet: more than 2^31 entry slots")
            w.epoch += 1
            // Grow the id map once for a big batch (it grows geometrically, so small batches stay cheap).
            w.ids.reserve(w.ids.count + records.count)
            var newChunks = w.chunks
            // A big batch is appended in spatial order, so that the entries one query reads
            // lie together in memory; `order[k]` is the batch position of the k-th appended.
            let order = Self.spatialOrder(records)
            let batchStart = w.entryCount
            // A big batch, taken in spatial order, reads its records and probes the id map
            // at random. So the misses overlap, each record is prefetched 2 × `IdMap.lookahead`
            // records ahead, and its tag worked out and its slot prefetched `lookahead` ahead.
            let ahead = IdMap.lookahead
            var tags = [UInt64](repeating: 0, count: order == nil ? 0 : ahead)
            func tagAhead(_ k: Int) {
                if k + ahead < records.count {
                    records.withUnsafeBufferPointer { scout_prefetch($0.baseAddress! + Int(order![k + ahead])) }
                }
                let t = IdMap.tag(records[Int(order![k])].id)
                tags[k & (ahead - 1)] = t
                w.ids.prefetch(tag: t)
            }
            if order != nil { for k in 0..<min(ahead, records.count) { tagAhead(k) } }
            for k in records.indices {
                let j = order.map { Int($0[k]) } ?? k
                let tag: UInt64? = order == nil ? nil : tags[k & (ahead - 1)]
                if order != nil, k + ahead < records.count { tagAhead(k + ahead) }
                let r = records[j]
                let index = Int32(w.entryCount)
                // Append first, so that a version this batch replaces lies in a chunk we hold.
                appendEntry(Entry(id: r.id, lon: r.point.lon, lat: r.point.lat, payload: r.payload), to: &newChunks)
                // One probe of the id map: insert, and learn the version this one replaces.
                let table = EntryTable(chunks: newChunks, count: w.entryCount + 1)
                if let old = w.ids.set(r.id, tag: tag, to: index, in: table) {
                    if let order, Int(old) >= batchStart, Int(order[Int(old) - batchStart]) > j {
                        // An id twice in a reordered batch: the later record in the batch wins.
                        w.ids.set(r.id, to: old, in: table)
                        table.markRemoved(index, epoch: w.epoch)
                        Self.countRemoval(of: index, in: &w)
                    } else {
                        table.markRemoved(old, epoch: w.epoch)
                        Self.countRemoval(of: old, in: &w)
                    }
                }
                w.entryCount += 1
            }
            w.chunks = newChunks
            let packed = packBufferIfFull(&w)
            let compacted = reclaimIfNeeded(&w)
            publish(w, restructured: packed || compacted)
        }
        return records.count
    }

    /// Batches of at least this many records are appended in spatial order (``spatialOrder(_:)``).
    static let spatialOrderThreshold = 1024

    /// The order a big batch is appended in: its positions sorted by a Morton (Z-order) code of
    /// their longitude and latitude, 16 bits each, ties in batch order; `nil` below
    /// ``spatialOrderThreshold`` records. Entries are read in the order queries find them,
    /// near one another, and a batch loaded from a file in no spatial order would otherwise
    /// cost every answer a cache miss a result.
    ///
    /// - Complexity: O(n log n) for n records.
    static func spatialOrder(_ records: [Record]) -> [Int32]? {
        guard records.count >= spatialOrderThreshold else { return nil }
        var keys = [UInt64](repeating: 0, count: records.count)
        records.withUnsafeBufferPointer { rs in
            keys.withUnsafeMutableBufferPointer { keys in
                for i in 0..<rs.count {
                    let x = UInt32(min(65535, max(0, (rs[i].point.lon + 180) / 360 * 65536)))
                    let y = UInt32(min(65535, max(0, (rs[i].point.lat + 90) / 180 * 65536)))
                    keys[i] = UInt64(spread(x) | spread(y) << 1) << 32 | UInt64(i)
                }
            }
        }
        radixSortByHighHalf(&keys)
        return keys.map { Int32(truncatingIfNeeded: $0 & 0xFFFF_FFFF) }
    }

    /// Sorts keys by their high 32 bits, stably (``RadixSort``): keys whose low halves rise
    /// in their initial order (batch positions) end in the order `sort()` gives them, in O(n)
    /// instead of O(n log n).
    static func radixSortByHighHalf(_ keys: inout [UInt64]) {
        RadixSort.sort(&keys, byBits: 32..<64)
    }

    /// The 16 low bits of `v` spread to the even bits of the result.
    @inline(__always)
    private static func spread(_ v: UInt32) -> UInt32 {
        var x = v & 0xFFFF
        x = (x | x << 8) & 0x00FF_00FF
        x = (x | x << 4) & 0x0F0F_0F0F
        x = (x | x << 2) & 0x3333_3333
        x = (x | x << 1) & 0x5555_5555
        return x
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
                guard let old = w.ids.remove(id, in: table) else { continue }
                table.markRemoved(old, epoch: w.epoch)
                removed += 1
                Self.countRemoval(of: old, in: &w)
            }
            if removed > 0 {
                let compacted = reclaimIfNeeded(&w)
                publish(w, restructured: compacted)
            } else { w.epoch -= 1 }
            return removed
        }
    }

    /// The live entry with this id now, or `nil` (a get-by-id: the writer's id map, read
    /// under its lock; the entry itself is immutable once written).
    ///
    /// - Complexity: O(1) expected.
    public func entry(id: String) -> Entry? {
        writer.withLock { w in
            let table = EntryTable(chunks: w.chunks, count: w.entryCount)
            guard let index = w.ids.entry(of: id, in: table) else { return nil }
            return table.entry(index)
        }
    }

    /// Blocks until background merges have finished (for tests and benchmarks).
    public func waitForMerges() { mergeGroup.wait() }

    /// Packs the whole buffer into a level now (for bulk loads and benchmarks).
    public func pack() {
        writer.withLock { w in
            packBuffer(&w)
            _ = reclaimIfNeeded(&w)
            publish(w, restructured: true)
        }
    }

    /// Compacts now, whatever the share of dead slots: waits for background merges, then
    /// renumbers the live entries into fresh chunks in the writer (for tests, benchmarks
    /// and a quiet moment after a mass removal). Publishes a new epoch.
    ///
    /// - Complexity: O(n log n) for n live points, in the caller's thread.
    public func compact() {
        while true {
            waitForMerges()
            let done = writer.withLock { w -> Bool in
                guard !w.merging else { return false }
                compactNow(&w)
                publish(w, restructured: true)
                return true
            }
            if done { return }
        }
    }

    /// Logs a removed entry (see ``RemovalLog``) and counts it against the level that holds
    /// it (none while it is buffered).
    private static func countRemoval(of entry: Int32, in w: inout WriterState) {
        logRemoval(entry, to: &w.removals)
        let e = Int(entry)
        guard e < w.bufferStart, let level = w.levels.lastIndex(where: { $0.start <= e }) else { return }
        w.levels[level].removed += 1
    }

    /// Publishes the writer's state as the current snapshot; in checking builds, checks the
    /// writer's state and the snapshot first: all of it after a pack, merge or compaction
    /// (O(n log n), at most once per ``bufferLimit`` writes of a steady stream), the O(1)
    /// part after other writes.
    private func publish(_ w: WriterState, restructured: Bool = false) {
        let snap = Snapshot(version: w.epoch, table: EntryTable(chunks: w.chunks, count: w.entryCount),
                            levels: w.levels.map(\.tree), cleanLevels: w.levels.map { $0.removed == 0 },
                            bufferStart: w.bufferStart, liveCount: w.liveCount, generation: w.compactions,
                            removals: RemovalLog(chunks: w.removals, count: w.removalCount))
        #if SCOUT_INTERNAL_CHECKS
        var problems = violations(of: w, full: restructured)
        if restructured { problems += snap._invariantViolations() }
        precondition(problems.isEmpty, "PointSet invariants broken: \(problems.prefix(5))")
        #endif
        let before = published.withLock { current in
            let before = current.generation
            current = snap
            return before
        }
        if snap.generation != before, let observe = compactionObserver.withLock({ $0 }) { observe(snap) }
    }

    /// Has `observer` told of each snapshot a compaction publishes (a new generation of entry
    /// numbers), right after it is published, by the thread that published it: a writer, or
    /// the background queue, holding the writer's lock (the observer must not write to this
    /// set). One observer at a time; a later call replaces it. For caches keyed by entry
    /// number, which a compaction invalidates.
    package func observeCompactions(_ observer: @escaping @Sendable (Snapshot) -> Void) {
        compactionObserver.withLock { $0 = observer }
    }

    /// Whether dead entry slots outnumber both the live points and ``compactionSlack``.
    func needsCompaction(_ w: WriterState) -> Bool {
        let live = w.liveCount
        return w.entryCount - live > max(live, compactionSlack)
    }

    /// Starts a compaction when dead slots dominate and no merge is running: in the writer
    /// for small sets, else on the background queue. Returns whether the state changed.
    private func reclaimIfNeeded(_ w: inout WriterState) -> Bool {
        guard !w.merging, needsCompaction(w) else { return false }
        if w.liveCount <= Self.synchronousCompactionLimit || w.levels.isEmpty {
            compactNow(&w)
            return true
        }
        scheduleMerge(&w, compacting: true)
        return false
    }

    /// Compacts every level and the buffer in the writer (no merge may be running).
    private func compactNow(_ w: inout WriterState) {
        precondition(!w.merging)
        let c = Self.compacted(table: EntryTable(chunks: w.chunks, count: w.entryCount), epoch: w.epoch,
                               levelsEnd: w.bufferStart, end: w.entryCount)
        Self.install(c, replacingLevels: w.levels.count, tailStart: w.entryCount, in: &w)
    }

    /// Live entries renumbered into fresh chunks: those the levels held first, as one level
    /// over `0..<treeCount`, then those that were buffered (if the compaction took the buffer).
    struct Compaction {
        let chunks: [EntryChunk]
        /// The old number of each new entry.
        let oldNumbers: [Int32]
        /// New entries `0..<treeCount` are in `tree`; the rest were buffered.
        let treeCount: Int
        let tree: PackedTree
        /// Id → new number of every entry live at the compaction's epoch.
        let ids: IdMap
        let includesBuffer: Bool
        var count: Int { oldNumbers.count }
    }

    /// Copies the entries below `end` live at `epoch` into fresh chunks, numbered from 0 in
    /// their old order, and packs those below `levelsEnd` (the levels' entries) into one
    /// level. Reads only entries below the table's count, so it may run beside the writer.
    ///
    /// Every entry below the buffer that is live at `epoch` is in a level (an invariant),
    /// so one sequential scan of the removal epochs finds them, already sorted.
    static func compacted(table: EntryTable, epoch: UInt64, levelsEnd: Int, end: Int) -> Compaction {
        var live: [Int32] = []
        var treeCount = 0
        for i in 0..<end where table.removedAt(Int32(i)) > epoch {
            live.append(Int32(i))
            if i < levelsEnd { treeCount += 1 }
        }
        var chunks: [EntryChunk] = []
        chunks.reserveCapacity(live.count / EntryChunk.capacity + 1)
        var lons: [Double] = [], lats: [Double] = []
        lons.reserveCapacity(treeCount); lats.reserveCapacity(treeCount)
        for (j, old) in live.enumerated() {
            let e = table.entry(old)
            appendEntry(e, to: &chunks)
            if j < treeCount { lons.append(e.lon); lats.append(e.lat) }
        }
        let ids = IdMap(distinctIdsOf: EntryTable(chunks: chunks, count: live.count))
        let tree = PackedTree(entries: Array(0..<Int32(treeCount)), lons: lons, lats: lats)
        return Compaction(chunks: chunks, oldNumbers: live, treeCount: treeCount, tree: tree, ids: ids,
                          includesBuffer: end > levelsEnd)
    }

    /// Installs a compaction of the oldest `replacingLevels` levels (and of the buffer, if
    /// it includes it): removals stamped since its epoch are copied over, entries from
    /// `tailStart` on (written since) are appended after it and the newer levels renumbered
    /// to match. Publishes under a new epoch, since entry numbers change.
    static func install(_ c: Compaction, replacingLevels replaced: Int, tailStart: Int, in w: inout WriterState) {
        precondition(!c.includesBuffer || tailStart == w.entryCount, "a compaction of the buffer has no tail")
        let old = EntryTable(chunks: w.chunks, count: w.entryCount)
        var chunks = c.chunks
        var ids = c.ids
        let fresh = EntryTable(chunks: chunks, count: c.count)
        var removedFromTree = 0
        for j in 0..<c.count {
            let stamp = old.removedAt(c.oldNumbers[j])
            guard stamp != EntryChunk.never else { continue }
            fresh.markRemoved(Int32(j), epoch: stamp)
            ids.remove(fresh.entry(Int32(j)).id, in: fresh)
            if j < c.treeCount { removedFromTree += 1 }
        }
        let delta = c.count - tailStart
        for i in tailStart..<w.entryCount {
            let e = old.entry(Int32(i)), stamp = old.removedAt(Int32(i))
            appendEntry(e, removedAt: stamp, to: &chunks)
            if stamp == EntryChunk.never { ids.set(e.id, to: Int32(i + delta), in: EntryTable(chunks: chunks, count: i + delta)) }
        }
        var levels: [Level] = []
        levels.reserveCapacity(w.levels.count - replaced + 1)
        if c.treeCount > 0 { levels.append(Level(tree: c.tree, start: 0, removed: removedFromTree)) }
        for l in w.levels[replaced...] {
            levels.append(Level(tree: PackedTree(renumbering: l.tree, by: Int32(delta)), start: l.start + delta, removed: l.removed))
        }
        w.bufferStart = c.includesBuffer ? c.treeCount : w.bufferStart + delta
        w.levels = levels
        w.chunks = chunks
        w.entryCount += delta
        w.ids = ids
        w.epoch += 1
        w.compactions += 1
        // New entry numbers: removals before this epoch are history no cache carries over.
        w.removals = []
    }

    @discardableResult
    private func packBufferIfFull(_ w: inout WriterState) -> Bool {
        if w.entryCount - w.bufferStart >= Self.bufferLimit { packBuffer(&w); return true }
        return false
    }

    /// Builds a level from the live entries of `trees` and of the entry range `range`.
    private static func build(table: EntryTable, epoch: UInt64, trees: [PackedTree], range: Range<Int>) -> PackedTree {
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
                if !w.merging { scheduleMerge(&w, compacting: needsCompaction(w)) }
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

    /// Merges every level into one on the background queue — and, when `compacting`,
    /// renumbers their live entries into fresh chunks; writes continue meanwhile and land in
    /// new levels. Installation swaps exactly the merged levels, so nothing is lost.
    private func scheduleMerge(_ w: inout WriterState, compacting: Bool) {
        guard w.levels.count >= (compacting ? 1 : 2) else { return }
        w.merging = true
        w.mergeInputs = w.levels.count
        let inputCount = w.levels.count
        // A compaction reads the store, not the trees (see `compacted`).
        let inputs = compacting ? [] : w.levels.map(\.tree)
        // The merge drops the entries removed by now; later removals are the merged level's.
        let removedBefore = w.levels.reduce(0) { $0 + $1.removed }
        let table = EntryTable(chunks: w.chunks, count: w.entryCount)
        let epoch = w.epoch
        // The inputs hold every live entry below the buffer; entries from here on are the
        // tail a compaction renumbers after its own.
        let tailStart = w.bufferStart
        mergeGroup.enter()
        mergeQueue.async { [self] in
            if compacting {
                let c = Self.compacted(table: table, epoch: epoch, levelsEnd: tailStart, end: tailStart)
                writer.withLock { w in
                    // The merged inputs are still the oldest levels, and no other compaction
                    // ran meanwhile (none starts while `merging`): numbers are as scheduled.
                    Self.install(c, replacingLevels: inputCount, tailStart: tailStart, in: &w)
                    w.merging = false
                    _ = reclaimIfNeeded(&w)
                    publish(w, restructured: true)
                }
            } else {
                let merged = Self.build(table: table, epoch: epoch, trees: inputs, range: 0..<0)
                writer.withLock { w in
                    // The merged inputs are still the oldest levels: only this merge removes them.
                    let replaced = w.levels.prefix(inputCount)
                    let level = Level(tree: merged, start: replaced[0].start,
                                      removed: replaced.reduce(0) { $0 + $1.removed } - removedBefore)
                    w.levels.replaceSubrange(0..<inputCount, with: [level])
                    w.merging = false
                    _ = reclaimIfNeeded(&w)
                    publish(w, restructured: true)
                }
            }
            mergeGroup.leave()
        }
    }

    /// Bytes used by the spatial structures: trees (20 bytes a point and their node
    /// arrays, see ``PackedTree``) and the removal
    /// epochs (8 bytes an entry slot). Ids and payloads are not counted (see
    /// ``entryStoreBytes``).
    public var indexMemoryBytes: Int {
        let s = snapshot()
        return s.levels.reduce(0) { $0 + $1.memoryBytes } + s.table.chunks.count * EntryChunk.capacity * MemoryLayout<UInt64>.stride
    }

    /// Bytes of the current entry store: its chunks of entries and removal epochs
    /// (``Snapshot/entrySlotCapacity`` slots), not counting the strings and payloads the
    /// entries point to.
    public var entryStoreBytes: Int { snapshot().table.chunks.count * EntryChunk.bytes }

    /// Compactions so far (for stats and tests).
    public var compactionCount: Int { snapshot().generation }

    /// An immutable state of the set at one epoch.
    public final class Snapshot: Sendable {
        /// The write epoch this snapshot shows: a 64-bit counter that never wraps. Every
        /// write and every compaction publishes a new one, so entry numbers are stable for
        /// one version.
        public let version: UInt64
        /// The low 32 bits of ``version``, for callers that key caches by a 32-bit epoch.
        /// It wraps after 2^32 writes (about two hours at 600,000 writes a second): prefer
        /// ``version``.
        public var epoch: UInt32 { UInt32(truncatingIfNeeded: version) }
        let table: EntryTable
        let levels: [PackedTree]
        /// Per level: no entry of it is removed at this epoch, so queries skip the check.
        let cleanLevels: [Bool]
        let bufferStart: Int
        /// Number of live points.
        public let liveCount: Int
        /// Compactions before this snapshot: entry numbers of snapshots of different
        /// generations name different entries.
        public let generation: Int
        /// The entries removed in this generation up to this snapshot, in stamping order.
        let removals: RemovalLog

        init(version: UInt64, table: EntryTable, levels: [PackedTree], cleanLevels: [Bool], bufferStart: Int, liveCount: Int,
             generation: Int, removals: RemovalLog = .empty) {
            self.version = version
            self.removals = removals
            self.table = table
            self.levels = levels
            self.cleanLevels = cleanLevels
            self.bufferStart = bufferStart
            self.liveCount = liveCount
            self.generation = generation
        }

        /// Entry slots this snapshot's store holds, live or dead (entry numbers are below it).
        public var entrySlots: Int { table.count }

        /// Entry slots allocated by this snapshot's store (whole chunks).
        public var entrySlotCapacity: Int { table.chunks.count * EntryChunk.capacity }

        /// Number of packed levels (for stats and tests).
        public var levelCount: Int { levels.count }

        /// The entry behind an entry number returned by a query.
        public func entry(_ ref: EntryRef) -> Entry { table.entry(ref.index) }

        @inline(__always)
        func isLive(_ e: Int32) -> Bool { table.removedAt(e) > version }

        /// Whether entry `e` is live at this snapshot (for caches the engine carries from
        /// one snapshot to the next).
        @inline(__always)
        package func isLiveEntry(_ e: Int32) -> Bool { isLive(e) }

        /// How many removals this snapshot's generation has logged up to it: a later
        /// snapshot of the same generation gives the entries removed since, from this
        /// position, with ``entriesRemoved(since:below:)``.
        package var removalPosition: Int { removals.count }

        /// The entries below `count` removed after the snapshot whose
        /// ``removalPosition`` was `position` (an older snapshot of this generation) and
        /// by this one, in the order they were removed.
        ///
        /// - Complexity: O(removals since), not O(entries).
        package func entriesRemoved(since position: Int, below count: Int) -> [Int32] {
            var out: [Int32] = []
            for i in min(max(position, 0), removals.count)..<removals.count {
                let e = removals[i]
                if Int(e) < count { out.append(e) }
            }
            return out
        }

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

        /// Entry numbers run from 0 to this, live or not.
        public var entryCount: Int { table.count }

        /// This snapshot seen through a subset of its live entries: one packed level of
        /// `entries` alone (each must be live at this snapshot), over the same entry store,
        /// so every query answers as this snapshot would for a filter that keeps exactly
        /// `entries`, and entry numbers mean the same. For a filter that keeps few entries,
        /// a query on it walks only theirs.
        ///
        /// - Complexity: O(m log m) for m entries; 20 bytes a point and the tree's node
        ///   arrays (see ``PackedTree``).
        package func restricted(to entries: [Int32]) -> Snapshot {
            Snapshot(version: version, table: table, levels: [tree(of: entries)], cleanLevels: [true], bufferStart: table.count,
                     liveCount: entries.count, generation: generation, removals: removals)
        }

        /// A packed tree of `entries` at their stored positions.
        private func tree(of entries: [Int32]) -> PackedTree {
            var lons = [Double](), lats = [Double]()
            lons.reserveCapacity(entries.count)
            lats.reserveCapacity(entries.count)
            for e in entries {
                let p = table.position(e)
                lons.append(p.lon)
                lats.append(p.lat)
            }
            return PackedTree(entries: entries, lons: lons, lats: lats)
        }

        /// ``restricted(to:)`` carried forward to this snapshot: the `count` entries live
        /// here that a filter keeps, as the level of `earlier` (``restricted(to:)``'s view at
        /// an earlier snapshot of this generation, for the same filter) and a second level
        /// packed from `added`, the kept entries appended since `earlier`'s store count.
        /// Entries of the first level removed since are skipped by this snapshot's liveness
        /// check. (Every kept entry older than `earlier` is in its level: a record never
        /// changes, so the filter kept it then too.)
        ///
        /// - Complexity: O(a log a) for the a entries of `added`.
        package func restricted(adding added: [Int32], count: Int, reusing earlier: Snapshot) -> Snapshot {
            precondition(earlier.generation == generation && earlier.version <= version && earlier.levels.count == 1,
                         "a view is carried from restricted(to:) at an earlier snapshot of the same generation")
            let base = earlier.levels[0]
            var levels = [base], clean = [base.count == count - added.count]
            if !added.isEmpty {
                levels.append(tree(of: added))
                clean.append(true)
            }
            return Snapshot(version: version, table: table, levels: levels, cleanLevels: clean, bufferStart: table.count,
                            liveCount: count, generation: generation, removals: removals)
        }

        /// `previous` (a view of ``restricted(adding:count:reusing:)``'s at an earlier snapshot
        /// of this generation) at this snapshot, its levels unchanged: for a filter whose
        /// kept entries appended since are the same as `previous`'s, of which `count` are
        /// live here; `firstLevelClean` when none of the first level's was removed since.
        ///
        /// - Complexity: O(levels).
        package func restricted(sameLevelsAs previous: Snapshot, count: Int, firstLevelClean: Bool) -> Snapshot {
            precondition(previous.generation == generation && previous.version <= version && !previous.levels.isEmpty,
                         "a view is carried from an earlier snapshot of the same generation")
            return Snapshot(version: version, table: table, levels: previous.levels,
                            cleanLevels: [firstLevelClean] + previous.cleanLevels.dropFirst(), bufferStart: table.count,
                            liveCount: count, generation: generation, removals: removals)
        }

        /// Bytes held by the packed levels (not by the entry store, which snapshots share).
        package var levelBytes: Int { levels.reduce(0) { $0 + $1.memoryBytes } }

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
