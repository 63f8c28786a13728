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
/// stamps `removedAt` with the epoch of the snapshot that first hides an entry; readers
/// read entries below their snapshot's count and treat an entry as gone when
/// `removedAt ≤` their epoch. Removal stamps are atomic, so a reader never sees a torn
/// value.
final class EntryChunk: @unchecked Sendable {
    // @unchecked: slots below a published count are immutable except `removed`, which is
    // atomic; slots at or above it are touched by the writer alone.
    static var capacity: Int { 4096 }
    let entries: UnsafeMutablePointer<Entry>
    let removed: UnsafeMutablePointer<Atomic<UInt32>>
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

    func append(_ e: Entry) {
        (entries + count).initialize(to: e)
        (removed + count).initialize(to: Atomic(UInt32.max))
        count += 1
    }
}

/// A read-only view of the first `count` entries of a store.
struct EntryTable: Sendable {
    let chunks: [EntryChunk]
    let count: Int

    @inline(__always)
    func entry(_ i: Int32) -> Entry {
        let i = Int(i)
        return chunks[i >> 12].entries[i & 4095]
    }

    /// The position of entry `i`, read without copying its id or payload.
    @inline(__always)
    func position(_ i: Int32) -> (lon: Double, lat: Double) {
        let i = Int(i)
        let slot = chunks[i >> 12].entries + (i & 4095)
        return (slot.pointee.lon, slot.pointee.lat)
    }

    @inline(__always)
    func removedAt(_ i: Int32) -> UInt32 {
        let i = Int(i)
        return chunks[i >> 12].removed[i & 4095].load(ordering: .acquiring)
    }

    func markRemoved(_ i: Int32, epoch: UInt32) {
        let i = Int(i)
        chunks[i >> 12].removed[i & 4095].store(epoch, ordering: .releasing)
    }
}
