import ScoutIndex

/// A cache entry built for one snapshot of a kind's point set (posting lists, folded
/// names, a listing order): the snapshot's version and the generation of its entry numbers.
protocol SnapshotStamped {
    /// The version of the snapshot the entry describes.
    var version: UInt64 { get }
    /// The generation of entry numbers it uses (a compaction starts a new one).
    var generation: Int { get }
}

extension SnapshotStamped {
    /// True when the entry describes exactly `snap`.
    func isAt(_ snap: PointSet.Snapshot) -> Bool { version == snap.version && generation == snap.generation }

    /// True when the entry may be carried forward to `snap`: same entry numbering, and
    /// `snap` is no older.
    func carries(to snap: PointSet.Snapshot) -> Bool { generation == snap.generation && version <= snap.version }
}

extension Optional where Wrapped: SnapshotStamped {
    /// Stores `value` unless the entry here describes a later snapshot (a later generation,
    /// or a later or the same version of this one): a reader of an older snapshot never
    /// replaces what a newer one built.
    mutating func keepNewest(_ value: Wrapped) {
        if let now = self, now.generation > value.generation || (now.generation == value.generation && now.version >= value.version) { return }
        self = value
    }
}

extension Dictionary where Value: SnapshotStamped {
    /// Stores `value` under `key` unless the entry there describes a later snapshot
    /// (``Optional/keepNewest(_:)``).
    mutating func keepNewest(_ value: Value, for key: Key) { self[key].keepNewest(value) }
}
