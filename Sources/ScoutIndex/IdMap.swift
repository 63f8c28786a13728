import CIntrinsics
import ScoutCore

/// The writer's map from an id to the entry number of its live version.
///
/// Open addressing with linear probing, one 8-byte word a slot: the high 32 bits of the id's
/// hash and the entry number + 1 (0 is an empty slot). The ids themselves are not copied:
/// a probe compares hashes, and reads an id from the entry store only when they agree. At
/// most three quarters full, so 11–21 bytes a live point, against about 33 for a
/// `[String: Int32]` (a 16-byte key and a 4-byte value a bucket).
///
/// The hash is Swift's own `String` hash: seeded per process (a caller cannot choose ids that
/// collide) and equal for ids that compare equal, so ids mean what `String ==` says, as they
/// did in a dictionary. A slot's home is its hash's low bits, so growing never rehashes an id.
/// Removal shifts later slots back (no tombstones), so a probe never runs past a gap.
struct IdMap {
    /// Live ids in the map.
    private(set) var count = 0
    /// `(hash >> 32) << 32 | (entry + 1)`, or 0.
    private var slots: [UInt64] = []

    /// An empty map.
    init() {}

    /// The map of the entries of `table`, all live and with distinct ids (a compaction's
    /// copy), entry `i` at number `i`.
    ///
    /// - Complexity: O(n) hash computations and slot writes, no id compared.
    init(distinctIdsOf table: EntryTable) {
        var untagged: [UInt64] = []
        _ = insertAll(count: table.count, id: { table.id(Int32($0)) }, same: nil, tagged: &untagged)
    }

    /// Why ``init(checking:)`` refused its ids: the position of the first empty id, or of
    /// the first that equals an earlier one.
    enum BadId: Error, Equatable {
        case empty(at: Int)
        case repeated(at: Int)
    }

    /// The map of `ids` (a restored set's entries, entry `i` holding `ids[i]`), checked as it
    /// is built: every id non-empty and none equal to another, as the map compares ids (the
    /// same `String` hash, then `==`).
    ///
    /// - Complexity: O(n) expected hash computations and slot writes; ids compared only
    ///   when their hashes' high halves agree.
    init(checking ids: [String]) throws(BadId) {
        var untagged: [UInt64] = []
        try self.init(checking: ids, tagged: &untagged)
    }

    /// ``init(checking:)`` with `tagged` empty, or holding ``tagEntries(_:_:into:)`` of every
    /// entry (worked out beforehand, possibly on several threads), which the sorted build
    /// from ``sortedBuildThreshold`` entries on sorts in place and leaves empty. (Passed
    /// `inout`, so that no other reference makes the sort copy it.)
    init(checking ids: [String], tagged: inout [UInt64]) throws(BadId) {
        if let i = ids.firstIndex(where: \.isEmpty) { throw .empty(at: i) }
        precondition(tagged.isEmpty || tagged.count == ids.count, "one tagged entry an id")
        let bad = ids.withUnsafeBufferPointer { ids in
            insertAll(count: ids.count, id: { ids[$0] }, same: { ids[$0] == ids[$1] }, tagged: &tagged)
        }
        if let bad { throw .repeated(at: bad) }
    }

    /// Writes `tag << 32 | entry` for entries `range` of `ids` to `out[range]`: what the
    /// sorted build sorts (``init(checking:tagged:)``).
    static func tagEntries(_ ids: UnsafeBufferPointer<String>, _ range: Range<Int>, into out: UnsafeMutablePointer<UInt64>) {
        for i in range { out[i] = tag(ids[i]) << 32 | UInt64(i) }
    }

    /// Inserts entries `0..<n`, entry `i` holding `id(i)`, into an empty map. With `same`,
    /// an id whose tag matches an earlier entry's is compared with it, and the first that
    /// repeats one (the lowest such entry number) is returned, the map left empty; without,
    /// the ids are known distinct.
    ///
    /// Past the caches every slot is a miss. Up to ``sortedBuildThreshold`` entries, the
    /// tags are worked out ``lookahead`` entries ahead and their slots prefetched, so the
    /// misses overlap; from it on, the entries are radix-sorted by home slot first
    /// (``RadixSort``) and inserted in that order, so the table fills from front to back
    /// instead of at random slots. Either way the map is a valid linear-probing table (the layout
    /// of a cluster depends on the order of insertion, what it answers does not).
    @inline(__always)
    private mutating func insertAll(count n: Int, id: (Int) -> String, same: ((Int, Int) -> Bool)?, tagged: inout [UInt64]) -> Int? {
        reserve(n)
        let repeated = n >= Self.sortedBuildThreshold
            ? insertSorted(count: n, id: id, same: same, items: &tagged) : insertAhead(count: n, id: id, same: same)
        if let repeated { slots = []; count = 0; return repeated }
        count = n
        return nil
    }

    /// Entries from which ``insertAll(count:id:same:tagged:)`` sorts them by home slot: 65,536.
    static let sortedBuildThreshold = 65_536

    /// ``insertAll(count:id:same:tagged:)`` in entry order, prefetching ahead; stops at the first repeat.
    @inline(__always)
    private mutating func insertAhead(count n: Int, id: (Int) -> String, same: ((Int, Int) -> Bool)?) -> Int? {
        let mask = slots.count - 1, ahead = Self.lookahead
        var tags = [UInt64](repeating: 0, count: ahead)
        return slots.withUnsafeMutableBufferPointer { s in
            tags.withUnsafeMutableBufferPointer { tags in
                @inline(__always) func hashAhead(_ i: Int) {
                    let t = Self.tag(id(i))
                    tags[i & (ahead - 1)] = t
                    scout_prefetch(s.baseAddress! + (Int(truncatingIfNeeded: t) & mask))
                }
                for i in 0..<min(n, ahead) { hashAhead(i) }
                for i in 0..<n {
                    let t = tags[i & (ahead - 1)]
                    if i + ahead < n { hashAhead(i + ahead) }
                    var j = Int(truncatingIfNeeded: t) & mask
                    while s[j] != 0 {
                        if let same, s[j] >> 32 == t, same(Int(truncatingIfNeeded: s[j] & 0xFFFF_FFFF) - 1, i) { return i }
                        j = (j + 1) & mask
                    }
                    s[j] = t << 32 | UInt64(UInt32(i) + 1)
                }
                return nil
            }
        }
    }

    /// ``insertAll(count:id:same:tagged:)`` in the order of home slots. Equal ids share a tag and
    /// a home, and the sort is stable, so a repeat meets its earlier twin as in entry
    /// order; every repeat is found and the lowest returned.
    @inline(__always)
    /// `items` are the tagged entries (``tagEntries(_:_:into:)``), worked out here when
    /// empty; they are left empty.
    private mutating func insertSorted(count n: Int, id: (Int) -> String, same: ((Int, Int) -> Bool)?, items: inout [UInt64]) -> Int? {
        let mask = slots.count - 1
        // `tag << 32 | entry`; the home slot is the tag's low bits.
        if items.isEmpty {
            items = [UInt64](unsafeUninitializedCapacity: n) { buffer, initialized in
                for i in 0..<n { buffer[i] = Self.tag(id(i)) << 32 | UInt64(i) }
                initialized = n
            }
        }
        defer { items = [] }
        RadixSort.sort(&items, byBits: 32..<(32 + mask.nonzeroBitCount))
        var repeated: Int?
        slots.withUnsafeMutableBufferPointer { s in
            items.withUnsafeBufferPointer { items in
                next: for item in items {
                    let t = item >> 32, i = Int(truncatingIfNeeded: item & 0xFFFF_FFFF)
                    var j = Int(truncatingIfNeeded: t) & mask
                    while s[j] != 0 {
                        if let same, s[j] >> 32 == t, same(Int(truncatingIfNeeded: s[j] & 0xFFFF_FFFF) - 1, i) {
                            repeated = min(repeated ?? i, i)
                            continue next
                        }
                        j = (j + 1) & mask
                    }
                    s[j] = t << 32 | UInt64(UInt32(i) + 1)
                }
            }
        }
        return repeated
    }

    /// How many entries ahead ``insertAhead(count:id:same:)`` hashes and prefetches (a power of two).
    static let lookahead = 32

    /// Bytes the slots take.
    var bytes: Int { slots.count * MemoryLayout<UInt64>.stride }

    /// The ids the map holds before it grows.
    var capacity: Int { slots.count / 4 * 3 }

    /// The tag of `id`: the high 32 bits of its hash (the home slot is the tag's low bits).
    @inline(__always)
    static func tag(_ id: String) -> UInt64 { UInt64(UInt(bitPattern: id.hashValue)) >> 32 }

    /// Grows so that `n` ids fit without another growth.
    mutating func reserve(_ n: Int) {
        guard n > capacity else { return }
        var size = 16
        while size / 4 * 3 < n { size <<= 1 }
        let old = slots
        slots = [UInt64](repeating: 0, count: size)
        let mask = size - 1
        slots.withUnsafeMutableBufferPointer { s in
            for word in old where word != 0 {
                var i = Int(truncatingIfNeeded: word >> 32) & mask
                while s[i] != 0 { i = (i + 1) & mask }
                s[i] = word
            }
        }
    }

    /// The entry number of `id`'s live version, if any (`table` holds the entries the map names).
    func entry(of id: String, in table: EntryTable) -> Int32? {
        guard count > 0 else { return nil }
        let (slot, found) = probe(id, tag: Self.tag(id), in: table)
        return found ? Int32(truncatingIfNeeded: slots[slot] & 0xFFFF_FFFF) - 1 : nil
    }

    /// Starts loading the slot where `tag`'s probe begins into the caches, so that a
    /// ``set(_:tag:to:in:)`` a few dozen ids later finds it there. The map must not grow in
    /// between (``reserve(_:)`` first) for the hint to be of use; it is never wrong.
    @inline(__always)
    func prefetch(tag: UInt64) {
        slots.withUnsafeBufferPointer { s in
            if let base = s.baseAddress { scout_prefetch(base + (Int(truncatingIfNeeded: tag) & (s.count - 1))) }
        }
    }

    /// Maps `id` to `entry`; returns the entry it mapped to before, if any. `table` must hold
    /// the entries the map names (`entry` itself need not be in it); `tag`, when given, is
    /// ``tag(_:)`` of `id`, worked out ahead.
    @discardableResult
    mutating func set(_ id: String, tag known: UInt64? = nil, to entry: Int32, in table: EntryTable) -> Int32? {
        reserve(count + 1)
        let tag = known ?? Self.tag(id)
        let (slot, found) = probe(id, tag: tag, in: table)
        let old = found ? Int32(truncatingIfNeeded: slots[slot] & 0xFFFF_FFFF) - 1 : nil
        if !found { count += 1 }
        slots[slot] = tag << 32 | UInt64(UInt32(entry) + 1)
        return old
    }

    /// Removes `id`; returns the entry it mapped to, if any.
    @discardableResult
    mutating func remove(_ id: String, in table: EntryTable) -> Int32? {
        guard count > 0 else { return nil }
        let (slot, found) = probe(id, tag: Self.tag(id), in: table)
        guard found else { return nil }
        let old = Int32(truncatingIfNeeded: slots[slot] & 0xFFFF_FFFF) - 1
        // Backward shift: each later slot of the run moves into the gap unless its home lies
        // (cyclically) after the gap and at or before the slot itself.
        let mask = slots.count - 1
        var gap = slot, j = slot
        while true {
            j = (j + 1) & mask
            let word = slots[j]
            if word == 0 { break }
            let home = Int(truncatingIfNeeded: word >> 32) & mask
            let stays = gap <= j ? (home > gap && home <= j) : (home > gap || home <= j)
            if !stays {
                slots[gap] = word
                gap = j
            }
        }
        slots[gap] = 0
        count -= 1
        return old
    }

    /// Every (tag, entry) pair, in slot order (for invariant checks).
    var pairs: [(tag: UInt64, entry: Int32)] {
        slots.compactMap { $0 == 0 ? nil : ($0 >> 32, Int32(truncatingIfNeeded: $0 & 0xFFFF_FFFF) - 1) }
    }

    /// The slot holding `id` (`found`), or the empty slot where it would go.
    @inline(__always)
    private func probe(_ id: String, tag: UInt64, in table: EntryTable) -> (slot: Int, found: Bool) {
        let mask = slots.count - 1
        var i = Int(truncatingIfNeeded: tag) & mask
        while true {
            let word = slots[i]
            if word == 0 { return (i, false) }
            if word >> 32 == tag && table.idEquals(Int32(truncatingIfNeeded: word & 0xFFFF_FFFF) - 1, id) { return (i, true) }
            i = (i + 1) & mask
        }
    }
}
