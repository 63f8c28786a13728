import ScoutCore
import Synchronization

/// Data a caller keeps with a point: subclass it. A class, not a protocol, so that an entry
/// holds one 8-byte reference (an existential would take 16: the object and a witness table)
/// and reads stay cheap. Subclasses must be immutable once stored: readers on any thread see
/// the same object.
open class PointPayload: @unchecked Sendable {
    /// A payload with nothing in it (subclasses add their fields).
    public init() {}
}

/// One stored point: its id, position and payload.
public struct Entry: Sendable {
    /// The point's id, unique within its kind.
    public let id: String
    /// Longitude in degrees.
    public let lon: Double
    /// Latitude in degrees.
    public let lat: Double
    /// Whatever the caller keeps with the point.
    public let payload: PointPayload?

    /// The position as a ``GeoPoint``.
    @inlinable public var point: GeoPoint { GeoPoint(lat: lat, lon: lon) }
}

/// Append-only storage of entries in fixed chunks that never move, with a removal epoch
/// per entry.
///
/// The single writer appends entries beyond what any published snapshot can see, and
/// stamps `removed` with the epoch of the snapshot that first hides an entry; readers
/// read entries below their snapshot's count and treat an entry as gone when
/// `removedAt ≤` their epoch. Removal stamps are atomic, so a reader never sees a torn
/// value. Epochs are 64-bit: at a million writes a second they last 580,000 years.
///
/// A store is never shrunk in place. Compaction (see ``PointSet``) copies the live entries
/// into fresh chunks under new numbers; the old chunks stay intact, and are freed when the
/// last snapshot that reads them is released.
final class EntryChunk: @unchecked Sendable {
    // @unchecked: slots below a published count are immutable except `removed`, which is
    // atomic; slots at or above it are touched by the writer alone.
    static var capacity: Int { 4096 }
    /// `log2(capacity)`: entry `i` lives in chunk `i >> shift`, slot `i & mask`.
    static var shift: Int { 12 }
    static var mask: Int { 4095 }
    /// The stamp of an entry no epoch has removed.
    static var never: UInt64 { .max }
    let entries: UnsafeMutablePointer<Entry>
    let removed: UnsafeMutablePointer<Atomic<UInt64>>
    var count = 0

    init() {
        entries = .allocate(capacity: Self.capacity)
        removed = .allocate(capacity: Self.capacity)
    }

    deinit {
        entries.deinitialize(count: count)
        entries.deallocate()
        removed.deinitialize(count: count)
        removed.deallocate()
    }

    /// Appends `e`, removed at epoch `removedAt` (``never`` for a live entry).
    func append(_ e: Entry, removedAt: UInt64 = EntryChunk.never) {
        (entries + count).initialize(to: e)
        (removed + count).initialize(to: Atomic(removedAt))
        count += 1
    }

    /// Bytes a chunk holds, full or not.
    static var bytes: Int { capacity * (MemoryLayout<Entry>.stride + MemoryLayout<UInt64>.stride) }
}

/// A read-only view of the first `count` entries of a store.
struct EntryTable: Sendable {
    let chunks: [EntryChunk]
    let count: Int

    @inline(__always)
    func entry(_ i: Int32) -> Entry {
        let i = Int(i)
        return chunks[i >> EntryChunk.shift].entries[i & EntryChunk.mask]
    }

    /// Whether entry `a`'s id comes before entry `b`'s: their UTF-8 bytes compared
    /// lexicographically (the order every answer's ties follow), read in place.
    @inline(__always)
    func idPrecedes(_ a: Int32, _ b: Int32) -> Bool {
        let a = Int(a), b = Int(b)
        let x = chunks[a >> EntryChunk.shift].entries + (a & EntryChunk.mask)
        let y = chunks[b >> EntryChunk.shift].entries + (b & EntryChunk.mask)
        return x.pointee.id.utf8.lexicographicallyPrecedes(y.pointee.id.utf8)
    }

    /// Entry `i`'s id, read without copying its position or payload.
    @inline(__always)
    func id(_ i: Int32) -> String {
        let i = Int(i)
        return (chunks[i >> EntryChunk.shift].entries + (i & EntryChunk.mask)).pointee.id
    }

    /// Whether entry `i`'s id is `id` (`String ==`), read in place.
    @inline(__always)
    func idEquals(_ i: Int32, _ id: String) -> Bool {
        let i = Int(i)
        return (chunks[i >> EntryChunk.shift].entries + (i & EntryChunk.mask)).pointee.id == id
    }

    /// The position of entry `i`, read without copying its id or payload.
    @inline(__always)
    func position(_ i: Int32) -> (lon: Double, lat: Double) {
        let i = Int(i)
        let slot = chunks[i >> EntryChunk.shift].entries + (i & EntryChunk.mask)
        return (slot.pointee.lon, slot.pointee.lat)
    }

    @inline(__always)
    func removedAt(_ i: Int32) -> UInt64 {
        let i = Int(i)
        return chunks[i >> EntryChunk.shift].removed[i & EntryChunk.mask].load(ordering: .acquiring)
    }

    func markRemoved(_ i: Int32, epoch: UInt64) {
        let i = Int(i)
        chunks[i >> EntryChunk.shift].removed[i & EntryChunk.mask].store(epoch, ordering: .releasing)
    }
}

/// Appends entries to a chunk list, adding a chunk when the last one is full.
@inline(__always)
func appendEntry(_ e: Entry, removedAt: UInt64 = EntryChunk.never, to chunks: inout [EntryChunk]) {
    if chunks.isEmpty || chunks[chunks.count - 1].count == EntryChunk.capacity { chunks.append(EntryChunk()) }
    chunks[chunks.count - 1].append(e, removedAt: removedAt)
}

/// The entry numbers a store's removals stamped, in the order they were stamped (so by
/// epoch), in fixed chunks that never move: the single writer appends past what any
/// published snapshot counts, and readers read below their snapshot's count. It lets a
/// cache carried from one snapshot to a later one find the entries removed in between in
/// O(removed), not O(entries). A compaction renumbers the entries and starts a new log.
final class RemovalChunk: @unchecked Sendable {
    // @unchecked: slots below a published count are immutable; slots at or above it are
    // touched by the writer alone.
    static var capacity: Int { 4096 }
    static var shift: Int { 12 }
    static var mask: Int { 4095 }
    let slots: UnsafeMutablePointer<Int32>
    var count = 0

    init() { slots = .allocate(capacity: Self.capacity) }

    deinit { slots.deallocate() }
}

/// A read-only view of the first `count` entries of a removal log.
struct RemovalLog: Sendable {
    let chunks: [RemovalChunk]
    let count: Int

    /// The entry the `i`-th logged removal stamped.
    @inline(__always)
    subscript(i: Int) -> Int32 { chunks[i >> RemovalChunk.shift].slots[i & RemovalChunk.mask] }

    static let empty = RemovalLog(chunks: [], count: 0)
}

/// Logs the removal of `entry`, adding a chunk when the last one is full.
@inline(__always)
func logRemoval(_ entry: Int32, to chunks: inout [RemovalChunk]) {
    if chunks.isEmpty || chunks[chunks.count - 1].count == RemovalChunk.capacity { chunks.append(RemovalChunk()) }
    let last = chunks[chunks.count - 1]
    (last.slots + last.count).initialize(to: entry)
    last.count += 1
}
