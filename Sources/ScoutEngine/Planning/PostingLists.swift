import ScoutCatalog
import ScoutCore
import ScoutIndex

/// One field's posting lists (value → entries, ascending) in shards of about 8 values, so
/// that a copy that changes a few values copies those values' shards and the shard table,
/// not every value: folding a few thousand changes into a million owners' lists costs
/// milliseconds, not a copy of the million.
struct ValueLists: Sendable, Equatable {
    private var shards: [[String: [Int32]]]

    /// The lists of `dictionary`.
    init(_ dictionary: [String: [Int32]] = [:]) {
        shards = [[:]]
        reshard(to: dictionary.count)
        for (value, list) in dictionary { self[value] = list }
    }

    /// Spreads the values over a power of two of shards, about 8 values each.
    private mutating func reshard(to values: Int) {
        var count = 1
        while count * 8 < values { count *= 2 }
        guard count != shards.count else { return }
        let all = shards
        shards = [[String: [Int32]]](repeating: [:], count: count)
        for shard in all { for (value, list) in shard { shards[value.hashValue & (count - 1)][value] = list } }
    }

    /// A value's entries (`nil` for none); setting `nil` or an empty list drops the value.
    subscript(value: String) -> [Int32]? {
        get { shards[value.hashValue & (shards.count - 1)][value] }
        set { shards[value.hashValue & (shards.count - 1)][value] = newValue?.isEmpty == false ? newValue : nil }
    }

    /// Every value with entries.
    var keys: [String] { shards.flatMap(\.keys) }

    /// Number of values with entries.
    var count: Int { shards.reduce(0) { $0 + $1.count } }

    /// Spreads the values again if they have outgrown the shards (after a fold added many).
    mutating func rebalance() { if count > 16 * shards.count { reshard(to: count) } }

    /// Equal when they hold the same lists, however sharded.
    static func == (a: ValueLists, b: ValueLists) -> Bool {
        a.count == b.count && a.shards.allSatisfy { $0.allSatisfy { b[$0.key] == $0.value } }
    }
}

/// Changes carried on top of posting lists' base: per categorical field and value, the
/// entries appended since (ascending) and how many entries holding the value were removed
/// since (of the base or of the appended ones).
struct PostingDelta: Sendable {
    /// field → value → entries appended (ascending), removed ones included.
    var added: [String: [String: [Int32]]] = [:]
    /// field → value → entries holding it removed.
    var removed: [String: [String: Int]] = [:]
    /// Entries appended or removed that this delta records.
    var entries = 0

    /// What the delta adds to a value's count.
    func count(_ field: String, _ value: String) -> Int { (added[field]?[value]?.count ?? 0) - (removed[field]?[value] ?? 0) }

    /// Whether an entry holding the value was removed.
    func removedSome(_ field: String, _ value: String) -> Bool { (removed[field]?[value] ?? 0) > 0 }

    /// This delta followed by `newer`'s changes.
    func merged(with newer: PostingDelta) -> PostingDelta {
        var m = self
        for (field, byValue) in newer.added {
            for (value, list) in byValue { m.added[field, default: [:]][value, default: []] += list }
        }
        for (field, byValue) in newer.removed {
            for (value, n) in byValue { m.removed[field, default: [:]][value, default: 0] += n }
        }
        m.entries += newer.entries
        return m
    }
}

/// Posting lists of one kind at one snapshot: for each categorical field, the entries
/// holding each value.
///
/// A write does not rebuild them. An entry's record never changes (a write appends a new
/// entry and stamps the old one removed), so the lists of the next snapshot of the same
/// generation are this one's carried forward: the entries appended since, and counts of
/// the entries removed since (read from the snapshot's removal log). The changes go to a
/// small recent delta (copied at each snapshot), merged into an older one every
/// ``recentLimit`` entries, and both are folded into the base lists past
/// ``carryLimit(_:)`` (no record is read again); so a write costs O(1) amortised, not
/// O(entries carried). A fold (tens of milliseconds at a million records) is posted to a
/// ``SpareCore`` at half the limit with the changes so far (``folding``), and the changes
/// from then on start fresh deltas; once the fold is done, its base replaces this one
/// under those deltas, so no record is read again. Only if it is not done by twice the limit
/// does a query wait for it or fold itself. After a compaction renumbers the entries, the lists are built again
/// from every live record.
final class PostingLists: Sendable, SnapshotStamped {
    /// The snapshot these lists describe.
    let version: UInt64
    let generation: Int
    /// The snapshot's ``PointSet/Snapshot/removalPosition``: removals logged after it are
    /// not yet accounted for.
    let removalPosition: Int
    /// Entries below this number are accounted for.
    let covered: Int
    /// Entries below this number are in ``base``.
    let baseCovered: Int
    /// field → value → entry numbers (ascending) live when the lists were last built.
    let base: [String: ValueLists]
    /// Changes since ``base`` was built: those handed to ``pendingFold`` (empty when there
    /// is none), then older, then recent.
    let folding: PostingDelta
    let older: PostingDelta
    let recent: PostingDelta
    /// The fold of ``base`` and ``folding`` (the changes up to the snapshot it was posted
    /// at), on a spare core; ``older`` and ``recent`` hold the changes since.
    let pendingFold: SpareCore.Job<PostingLists>?

    /// Entries carried in the deltas.
    var carriedEntries: Int { folding.entries + older.entries + recent.entries }

    /// The fields that have posting lists.
    static let fields = ["breed", "owner_id", "shelter_id", "species"]

    /// Builds the lists from every live record of `snap`.
    init(_ snap: PointSet.Snapshot) {
        version = snap.version
        generation = snap.generation
        removalPosition = snap.removalPosition
        covered = snap.entryCount
        baseCovered = snap.entryCount
        var lists: [String: [String: [Int32]]] = [:]
        for r in snap.allLive() {
            Self.forEachValue(of: r.index, snap) { field, v in lists[field, default: [:]][v, default: []].append(r.index) }
        }
        base = lists.mapValues { ValueLists($0) }
        folding = PostingDelta()
        older = PostingDelta()
        recent = PostingDelta()
        pendingFold = nil
    }

    /// Calls `body(field, value)` for each value the entry's record holds in ``fields``.
    private static func forEachValue(of entry: Int32, _ snap: PointSet.Snapshot, _ body: (String, String) -> Void) {
        let record = Engine.record(snap.entry(EntryRef(index: entry)))
        for field in fields {
            for v in FilterKey.values(of: record, field: field) { body(field, v) }
        }
    }

    /// `old`'s base (or `folded`'s, a fold of it) with these deltas, at `snap` (or at
    /// `old`'s snapshot); a recent delta past ``recentLimit`` is merged into the older one.
    private init(_ old: PostingLists, _ snap: PointSet.Snapshot?, folded: PostingLists? = nil, folding: PostingDelta = PostingDelta(),
                 older: PostingDelta, recent: PostingDelta, pendingFold: SpareCore.Job<PostingLists>?) {
        version = snap?.version ?? old.version
        generation = snap?.generation ?? old.generation
        removalPosition = snap?.removalPosition ?? old.removalPosition
        covered = snap?.entryCount ?? old.covered
        baseCovered = (folded ?? old).baseCovered
        base = (folded ?? old).base
        self.folding = folding
        (self.older, self.recent) = recent.entries > Self.recentLimit ? (older.merged(with: recent), PostingDelta()) : (older, recent)
        self.pendingFold = pendingFold
    }

    /// Most entries carried before they are folded into the base lists. A fold copies the
    /// shards of the values changed (see ``ValueLists``) and the fields' shard tables, so
    /// folding every few thousand writes costs O(1) list entries per write and keeps each
    /// fold short.
    static func carryLimit(_ covered: Int) -> Int { max(1_024, min(covered / 32, 8_192)) }

    /// Most entries the recent delta carries before it is merged into the older one: the
    /// recent one is copied at every snapshot, the older one at every merge.
    static let recentLimit = 512

    /// These lists carried forward to `snap`, a later snapshot of the same generation, and
    /// folded into new base lists once they have carried more than ``carryLimit(_:)``;
    /// `nil` when they cannot be carried (an older or renumbered snapshot).
    ///
    /// - Complexity: O(``recentLimit``) plus the records appended or removed since these
    ///   lists' snapshot; a merge adds O(entries carried), a fold O(values of the fields).
    func carried(to snap: PointSet.Snapshot) -> PostingLists? {
        guard carries(to: snap), snap.entryCount >= covered else { return nil }
        if snap.version == version { return self }
        // A fold done on the spare core: its base, with the changes since it was posted.
        if let fold = pendingFold, fold.isFinished { return adopting(fold.result(), older: older, recent: recent, at: nil).carried(to: snap) }
        var recent = self.recent
        for e in snap.entriesRemoved(since: removalPosition, below: covered) {
            Self.forEachValue(of: e, snap) { field, v in recent.removed[field, default: [:]][v, default: 0] += 1 }
            recent.entries += 1
        }
        for i in covered..<snap.entryCount where snap.isLiveEntry(Int32(i)) {
            Self.forEachValue(of: Int32(i), snap) { field, v in recent.added[field, default: [:]][v, default: []].append(Int32(i)) }
            recent.entries += 1
        }
        let carried = folding.entries + older.entries + recent.entries, limit = Self.carryLimit(baseCovered)
        if let fold = pendingFold {
            // The spare core's fold is taken once done. Its helper runs one job at a time, at
            // idle priority, so it may be late (behind a bitmap's build, or without a core
            // while both are busy): the changes are carried on to twice the limit, and only
            // then is the fold waited for, or run here.
            if carried > 2 * limit { return adopting(fold.result(), older: older, recent: recent, at: snap) }
        } else if carried > limit {
            return PostingLists(folding: base, folding.merged(with: older).merged(with: recent), at: snap)
        }
        if pendingFold == nil, 2 * carried > limit, SpareCore.hasHelper {
            // The changes so far go to the fold; those from here on to fresh deltas.
            let (base, changes) = (self.base, older.merged(with: recent))
            // Ahead of other jobs (a filter's bitmap build, ~100 ms at a million records, can
            // wait; a fold not done by twice the carry limit is run by a query).
            let fold = SpareCore.post(expectedNanoseconds: 20 * baseCovered, ahead: true) { PostingLists(folding: base, changes, at: snap) }
            return PostingLists(self, snap, folding: changes, older: PostingDelta(), recent: PostingDelta(), pendingFold: fold)
        }
        return PostingLists(self, snap, folding: folding, older: older, recent: recent, pendingFold: pendingFold)
    }

    /// The lists of `folded` (the fold of ``base`` and ``folding``, at the snapshot the fold
    /// was posted at) with `older` and `recent`, the changes since, at `snap` (or at this
    /// snapshot): no record is read again.
    private func adopting(_ folded: PostingLists, older: PostingDelta, recent: PostingDelta, at snap: PointSet.Snapshot?) -> PostingLists {
        PostingLists(self, snap, folded: folded, older: older, recent: recent, pendingFold: nil)
    }

    /// The lists at `snap` with nothing carried: each value's base entries then its added
    /// ones (which all come after them), without those removed since for a value that lost
    /// some. The same lists as built from every live record, without reading one.
    private init(folding base: [String: ValueLists], _ delta: PostingDelta, at snap: PointSet.Snapshot) {
        version = snap.version
        generation = snap.generation
        removalPosition = snap.removalPosition
        covered = snap.entryCount
        baseCovered = snap.entryCount
        var lists = base
        var touched: [String: Set<String>] = [:]
        for (field, byValue) in delta.added { touched[field, default: []].formUnion(byValue.keys) }
        for (field, byValue) in delta.removed { touched[field, default: []].formUnion(byValue.keys) }
        for (field, values) in touched {
            for value in values {
                var list = (lists[field]?[value] ?? []) + (delta.added[field]?[value] ?? [])
                if delta.removedSome(field, value) { list.removeAll { !snap.isLiveEntry($0) } }
                lists[field, default: ValueLists()][value] = list
            }
            lists[field]?.rebalance()
        }
        self.base = lists
        folding = PostingDelta()
        older = PostingDelta()
        recent = PostingDelta()
        pendingFold = nil
    }

    /// How many live entries at this snapshot a key allows.
    ///
    /// - Complexity: O(values) for a key of one value; O(matches) for several.
    func count(_ key: FilterKey, _ snap: PointSet.Snapshot) -> Int {
        guard key.values.count == 1 else { return candidates(key, snap).count }
        let v = key.values.first!, f = key.field
        return (base[f]?[v]?.count ?? 0) + folding.count(f, v) + older.count(f, v) + recent.count(f, v)
    }

    /// The live entries at `snap` (this lists' snapshot) a key allows, ascending, without
    /// repeats; only those numbered `start` or more when given.
    ///
    /// - Complexity: O(log m) plus the entries from `start` on in the key's lists.
    func candidates(_ key: FilterKey, _ snap: PointSet.Snapshot, from start: Int = 0) -> [Int32] {
        func from(_ list: [Int32]) -> ArraySlice<Int32> { list.suffix(fromEntry: start) }
        let f = key.field
        let parts = key.values.map { v -> [Int32] in
            var list = Array(from(base[f]?[v] ?? []))
            if let more = folding.added[f]?[v] { list += from(more) }
            if let more = older.added[f]?[v] { list += from(more) }
            if let more = recent.added[f]?[v] { list += from(more) }
            if folding.removedSome(f, v) || older.removedSome(f, v) || recent.removedSome(f, v) { list.removeAll { !snap.isLiveEntry($0) } }
            return list
        }
        if parts.count == 1 { return parts[0] }
        return Array(Set(parts.joined())).sorted()
    }
}

extension Array<Int32> {
    /// The part of an ascending list of entry numbers from `start` on (binary search).
    func suffix(fromEntry start: Int) -> ArraySlice<Int32> {
        var low = 0, high = count
        while low < high {
            let mid = (low + high) / 2
            if Int(self[mid]) < start { low = mid + 1 } else { high = mid }
        }
        return self[low...]
    }
}
