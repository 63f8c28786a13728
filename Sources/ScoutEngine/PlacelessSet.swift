import ScoutCatalog
import ScoutJSON
import Synchronization

/// The records of one kind that have no place (articles, programs, dog lovers, and untyped
/// records given without `lat`/`lon`): found by id and by listing, never by a spatial query.
///
/// Writes replace the whole map under a lock (the engine applies them one at a time);
/// reads take an immutable snapshot, so a listing never sees half a write.
final class PlacelessSet: Sendable {
    /// One immutable state: the records by id, and the same sorted by id for listings.
    final class Snapshot: Sendable {
        /// Increases with every write that changed something.
        let version: UInt64
        /// The records by id.
        let byID: [String: RecordPayload?]
        /// Ids in byte order; entry `i` is text-index document `-1 - i`.
        let ids: [String]

        init(version: UInt64, byID: [String: RecordPayload?]) {
            self.version = version
            self.byID = byID
            ids = byID.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        }
    }

    private let state = Mutex(Snapshot(version: 0, byID: [:]))

    /// The current state.
    func snapshot() -> Snapshot { state.withLock { $0 } }

    /// Number of records.
    var count: Int { snapshot().byID.count }

    /// Inserts or replaces records by id.
    ///
    /// - Complexity: O(n) for n records held (the map is copied once per write).
    func upsert(_ records: [(id: String, payload: RecordPayload?)]) {
        guard !records.isEmpty else { return }
        state.withLock { s in
            var map = s.byID
            for r in records { map[r.id] = .some(r.payload) }
            s = Snapshot(version: s.version + 1, byID: map)
        }
    }

    /// Removes records by id (unknown ids are ignored); returns how many went.
    @discardableResult
    func remove(ids: [String]) -> Int {
        state.withLock { s in
            var map = s.byID
            var removed = 0
            for id in ids where map.removeValue(forKey: id) != nil { removed += 1 }
            if removed > 0 { s = Snapshot(version: s.version + 1, byID: map) }
            return removed
        }
    }
}
