import ScoutCore
import Synchronization

/// Data a caller keeps with a point: a class, so that entries stay small and reads cheap.
public protocol PointPayload: AnyObject, Sendable {}

/// One stored point: its id, position and payload.
public struct Entry: Sendable {
    /// The point's id, unique within its kind.
    public let id: String
    /// Longitude in degrees.
    public let lon: Double
    /// Latitude in degrees.
    public let lat: Double
    /// Whatever the caller keeps with the point.
    public let payload: (any PointPayload)?

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
