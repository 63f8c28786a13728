import ScoutCatalog
import ScoutCore
import ScoutIndex

/// One numeric field's values by entry number (``FilterRange/value(of:field:)``; NaN for a
/// record without the field), for one generation of entry numbers: what the planner scans
/// to count a numeric filter's matches before a search, without reading a record.
///
/// An entry's record never changes, so a column covering the entries below ``covered``
/// stays true at every later snapshot of its generation: carrying it forward reads only the
/// records appended since. It is held in chunks of ``chunkSize`` values, so that carrying
/// copies the last chunk and the chunk table, not every value.
struct ValueColumn: Sendable {
    /// Values a chunk holds.
    static let chunkSize = 1 << 14

    let field: String
    let generation: Int
    /// Entries below this number have their value in the column.
    let covered: Int
    let chunks: [[Double]]

    /// Bytes the column holds.
    var bytes: Int { 8 * covered + 16 * chunks.count + field.utf8.count }

    /// The column of every entry of `snap`.
    init(field: String, _ snap: PointSet.Snapshot) {
        self.init(field: field, generation: snap.generation, covered: 0, chunks: [], extendedTo: snap)
    }

    private init(field: String, generation: Int, covered: Int, chunks: [[Double]], extendedTo snap: PointSet.Snapshot) {
        var chunks = chunks
        for i in covered..<snap.entryCount {
            if i % ValueColumn.chunkSize == 0 {
                chunks.append([])
                chunks[chunks.count - 1].reserveCapacity(min(ValueColumn.chunkSize, snap.entryCount - i))
            }
            chunks[chunks.count - 1].append(FilterRange.value(of: Engine.record(snap.entry(EntryRef(index: Int32(i)))), field: field))
        }
        self.field = field
        self.generation = generation
        self.covered = max(covered, snap.entryCount)
        self.chunks = chunks
    }

    /// The column carried to `snap`, a snapshot of its generation, reading the records
    /// appended since; `nil` for a snapshot of another generation (renumbered entries).
    ///
    /// - Complexity: O(entries appended since, plus ``chunkSize``).
    func carried(to snap: PointSet.Snapshot) -> ValueColumn? {
        guard snap.generation == generation else { return nil }
        if snap.entryCount <= covered { return self }
        return ValueColumn(field: field, generation: generation, covered: covered, chunks: chunks, extendedTo: snap)
    }

    /// The entries from `start` below `end` whose values in `columns` (one per range, in
    /// order, each covering `end`) lie in every range, ascending, live or not; `nil` once
    /// more than `limit` do.
    ///
    /// - Complexity: O(end − start) comparisons of the first range; the others are compared
    ///   only for the entries the ranges before them allow.
    static func matching(_ ranges: [FilterRange], _ columns: [ValueColumn], from start: Int, below end: Int,
                         limit: Int) -> [Int32]? {
        guard !ranges.isEmpty else { return end - start <= limit ? (start..<end).map { Int32(truncatingIfNeeded: $0) } : nil }
        // A long span first compares the range fewest entries lie in (a short one, such as the
        // entries appended since an earlier scan, is not worth the sampling).
        let (ranges, columns) = end - start > 8 * 256 ? bySelectivity(ranges, columns, from: start, below: end) : (ranges, columns)
        var out: [Int32] = []
        // A chunk's entries within the first range (their offsets in the chunk).
        var scratch = [Int32](repeating: 0, count: min(chunkSize, max(0, end - start) + 1))
        let lower = ranges.map(\.lower), upper = ranges.map(\.upper), count = ranges.count
        var i = start
        while i < end {
            let c = i / chunkSize, offset = c * chunkSize
            let first = i - offset, stop = min(end, offset + chunkSize) - offset
            let within: Bool = withChunk(c, of: columns) { values in
                // The first range over the chunk without a branch per entry (each entry's
                // number written, the count advanced only for those within: a branch taken
                // for a few percent of the entries mispredicts more than it saves)...
                let head = values[0], lo = lower[0], hi = upper[0]
                var hits = 0
                scratch.withUnsafeMutableBufferPointer { s in
                    for j in first..<stop {
                        let x = head[j]
                        s[hits] = Int32(truncatingIfNeeded: j)
                        hits &+= (x >= lo ? 1 : 0) & (x <= hi ? 1 : 0)
                    }
                }
                // ...then the other ranges for those only.
                for h in 0..<hits {
                    let j = Int(scratch[h])
                    var r = 1
                    while r < count {
                        let y = values[r][j]
                        if !(y >= lower[r] && y <= upper[r]) { break }
                        r += 1
                    }
                    if r == count {
                        if out.count >= limit { return false }
                        out.append(Int32(truncatingIfNeeded: offset + j))
                    }
                }
                return true
            }
            guard within else { return nil }
            i = offset + stop
        }
        return out
    }

    /// `ranges` and their `columns` reordered, the range fewest of 256 entries spread from
    /// `start` below `end` lie in first: ``matching(_:_:from:below:limit:)`` compares the
    /// first range for every entry and the others only where the ones before hold.
    static func bySelectivity(_ ranges: [FilterRange], _ columns: [ValueColumn], from start: Int,
                              below end: Int) -> ([FilterRange], [ValueColumn]) {
        guard ranges.count > 1, end > start else { return (ranges, columns) }
        let samples = min(256, end - start)
        let hits = zip(ranges, columns).map { r, column in
            (0..<samples).reduce(0) { n, s in
                let e = start + s * (end - start) / samples, c = e / chunkSize
                return n + (r.contains(column.chunks[c][e - c * chunkSize]) ? 1 : 0)
            }
        }
        let order = ranges.indices.sorted { (hits[$0], $0) < (hits[$1], $1) }
        return (order.map { ranges[$0] }, order.map { columns[$0] })
    }

    /// Whether more than `limit` of the entries below `end` are likely to lie in every range,
    /// judged from 1,024 entries spread evenly over them: when the sample's share is twice
    /// or more the limit's and at least 64 of the sample match. A plan chosen on a wrong
    /// guess is still exact (the index walk tests every candidate), only slower.
    static func likelyMoreThan(_ limit: Int, _ ranges: [FilterRange], _ columns: [ValueColumn], below end: Int) -> Bool {
        let samples = 1_024
        // (A forced plan's limit is `Int.max`: nothing is more than it.)
        guard end >= 8 * samples, limit < end else { return false }
        var hits = 0
        for s in 0..<samples {
            let e = s * end / samples, c = e / chunkSize, j = e - c * chunkSize
            if zip(ranges, columns).allSatisfy({ $0.contains($1.chunks[c][j]) }) { hits += 1 }
        }
        return hits >= 64 && hits * end >= 2 * limit * samples
    }

    /// Calls `body` with chunk `c` of each column (in order).
    private static func withChunk<R>(_ c: Int, of columns: [ValueColumn], _ body: ([UnsafeBufferPointer<Double>]) -> R) -> R {
        func nest(_ k: Int, _ held: [UnsafeBufferPointer<Double>]) -> R {
            k == columns.count ? body(held) : columns[k].chunks[c].withUnsafeBufferPointer { nest(k + 1, held + [$0]) }
        }
        return nest(0, [])
    }
}

/// The kinds' value columns, and what the planner last found for each set of ranges asked:
/// the entries whose values lie in them (carried to later snapshots by scanning only the
/// entries appended since), or that more than a plan's limit do. Bounded in bytes.
struct RangeMatches {
    /// What a scan found for a set of ranges, over the entries below ``covered`` of one
    /// generation: their matching entries, live or not, or `nil` when more than ``limit``.
    struct Found {
        let generation: Int
        let covered: Int
        let entries: [Int32]?
        let limit: Int
        var bytes: Int { 64 + 4 * (entries?.count ?? 0) }
    }

    /// kind → field → its newest column.
    var columns: [String: [String: ValueColumn]] = [:]
    /// Bytes of the columns.
    var columnBytes = 0
    /// kind → field → a column in the making on the spare core, with the snapshot it reads
    /// (held until the build takes it; the job sees it weakly).
    var building: [String: [String: (job: SpareCore.Job<ValueColumn?>, source: Engine.TakenOnce<PointSet.Snapshot>, due: ContinuousClock.Instant)]] = [:]
    /// kind → ranges (sorted by field) → what a scan found.
    var found: [String: [[FilterRange]: Found]] = [:]
    /// Bytes of ``found``.
    var foundBytes = 0

    /// When each kind's field's column was last asked for (a count of asks), to choose the
    /// columns to let go when a new one needs room.
    var lastAsked: [String: [String: UInt64]] = [:]
    /// Asks for columns so far.
    var asks: UInt64 = 0

    /// Most bytes of columns (8 bytes an entry a field: three dog fields at a million dogs
    /// take 24 MiB). A new column that would pass it lets go of the columns asked for least
    /// recently (never one the same query needs); one that would pass it alone is not built,
    /// and its ranges are not counted (the query walks the index, as for a filter without
    /// ranges).
    static let maximumColumnBytes = 64 << 20
    /// The bound in force: ``maximumColumnBytes`` (lowered by tests).
    var columnBudget = RangeMatches.maximumColumnBytes
    /// Most bytes of scan results; past it they start over.
    static let maximumFoundBytes = 8 << 20

    /// A "more than the limit" result stands until the entries grow by this share of those
    /// it covered (removals may make a range rarer: the plan then walks the index, which is
    /// exact, only slower).
    static func staleAfter(covered: Int) -> Int { max(1_024, covered / 32) }

    /// Ranges in the order they are cached under (by field, then bounds), so that a filter's
    /// conditions in another order find the same entry.
    static func ordered(_ ranges: [FilterRange]) -> [FilterRange] {
        ranges.sorted { ($0.field, $0.lower, $0.upper) < ($1.field, $1.lower, $1.upper) }
    }

    /// Keeps a field's column (a newer one replaces an older; a new generation of the kind
    /// drops the kind's columns and results), letting go of others asked for least recently
    /// (not `kind`'s `needed` fields) if it needs the room; not kept if it cannot fit.
    mutating func keep(_ column: ValueColumn, kind: String, needed: Set<String> = []) {
        if let other = columns[kind]?.values.first, other.generation != column.generation {
            guard column.generation > other.generation else { return }
            columnBytes -= columns[kind]!.values.reduce(0) { $0 + $1.bytes }
            columns[kind] = [:]
            foundBytes -= found[kind]?.reduce(0) { $0 + $1.value.bytes + RangeMatches.keyBytes($1.key) } ?? 0
            found[kind] = nil
        }
        if let old = columns[kind]?[column.field], column.covered <= old.covered { return }
        guard makeRoom(column.bytes, kind: kind, field: column.field, needed: needed.union([column.field])) else { return }
        if let old = columns[kind]?[column.field] { columnBytes -= old.bytes }
        columns[kind, default: [:]][column.field] = column
        columnBytes += column.bytes
    }

    /// A kind's field's column, if any, noted as asked for now.
    mutating func column(kind: String, field: String) -> ValueColumn? {
        asks += 1
        lastAsked[kind, default: [:]][field] = asks
        return columns[kind]?[field]
    }

    /// Lets go of the columns asked for least recently, other than `kind`'s `needed` fields,
    /// until `bytes` more fit under ``columnBudget`` (counting `kind`'s `field` column,
    /// which the new one replaces, as gone); whether they fit.
    mutating func makeRoom(_ bytes: Int, kind: String, field: String, needed: Set<String>) -> Bool {
        var held = columnBytes - (columns[kind]?[field]?.bytes ?? 0)
        if held + bytes <= columnBudget { return true }
        let candidates = columns.flatMap { k, byField in
            byField.keys.filter { k != kind || !needed.contains($0) }.map { (kind: k, field: $0, asked: lastAsked[k]?[$0] ?? 0) }
        }.sorted { $0.asked < $1.asked }
        for c in candidates where held + bytes > columnBudget {
            guard let gone = columns[c.kind]?.removeValue(forKey: c.field) else { continue }
            columnBytes -= gone.bytes
            held -= gone.bytes
        }
        return held + bytes <= columnBudget
    }

    /// Bytes a result is counted for besides its entries: its ranges, as the key.
    static func keyBytes(_ ranges: [FilterRange]) -> Int { ranges.reduce(32) { $0 + 40 + $1.field.utf8.count } }

    /// Keeps a scan's result for a kind's ranges.
    mutating func keep(_ result: Found, kind: String, _ ranges: [FilterRange]) {
        let key = RangeMatches.keyBytes(ranges)
        if let old = found[kind]?[ranges] {
            guard result.generation > old.generation || (result.generation == old.generation && result.covered >= old.covered) else { return }
            foundBytes -= old.bytes + key
        }
        if foundBytes + result.bytes + key > RangeMatches.maximumFoundBytes {
            found = [:]
            foundBytes = 0
            guard result.bytes + key <= RangeMatches.maximumFoundBytes else { return }
        }
        found[kind, default: [:]][ranges] = result
        foundBytes += result.bytes + key
    }
}

/// What a scan of the value columns found for a filter's ranges.
enum RangeScan: Equatable {
    /// The live entries whose values lie in every range, ascending.
    case found([Int32])
    /// More than the limit (or the columns would pass their bound in bytes): walk the index.
    case many
    /// A column is being built on the spare core: walk the index for now, and do not
    /// remember the plan (the next query may count).
    case pending

    /// The entries found, if any.
    var entries: [Int32]? { if case .found(let e) = self { e } else { nil } }
}

extension Engine {
    /// The live entries of `snap` whose values lie in every one of `ranges`, ascending, when
    /// the values of at most `limit` entries (live or not) do; ``RangeScan/many`` when more
    /// do, or when a column needed could not fit under ``RangeMatches/columnBudget``;
    /// ``RangeScan/pending`` while a column is built on the spare core.
    ///
    /// A set of ranges asked again at a later snapshot of the same generation scans only the
    /// entries appended since; one found common is not scanned again until the entries have
    /// grown by ``RangeMatches/staleAfter(covered:)``.
    ///
    /// - Complexity: O(n) comparisons the first time at a generation (and O(n) record reads
    ///   for each field's column the first time), O(entries appended since) after, plus
    ///   O(matches) liveness tests.
    func rangeCandidates(kind: String, _ snap: PointSet.Snapshot, _ ranges: [FilterRange], limit: Int) -> RangeScan {
        rangeCandidates(kind: kind, snap, ranges, limit: limit, firstAskLimit: nil).scan
    }

    /// ``rangeCandidates(kind:_:_:limit:)``, with a smaller limit, `firstAskLimit`, for
    /// ranges not asked before at this generation (no scan of theirs remembered);
    /// `firstAsk` tells whether they were. One lookup of the remembered scan serves both.
    func rangeCandidates(kind: String, _ snap: PointSet.Snapshot, _ ranges: [FilterRange], limit: Int,
                         firstAskLimit: Int?) -> (scan: RangeScan, firstAsk: Bool) {
        let ranges = RangeMatches.ordered(ranges)
        let remembered = rangeMatches.withLock { $0.found[kind]?[ranges] }
        var limit = limit, firstAsk = false
        if let cap = firstAskLimit, remembered?.generation != snap.generation { firstAsk = true; limit = min(limit, cap) }
        return (scan(kind: kind, snap, ranges, limit: limit, remembered: remembered), firstAsk)
    }

    /// The scan of ``rangeCandidates(kind:_:_:limit:firstAskLimit:)``: `ranges` ordered,
    /// `remembered` the last scan kept for them.
    private func scan(kind: String, _ snap: PointSet.Snapshot, _ ranges: [FilterRange], limit: Int,
                      remembered: RangeMatches.Found?) -> RangeScan {
        let end = snap.entryCount
        let earlier = remembered.flatMap { $0.generation == snap.generation && $0.covered <= end ? $0 : nil }
        if let earlier, earlier.entries == nil, earlier.limit >= limit, end - earlier.covered <= RangeMatches.staleAfter(covered: earlier.covered) {
            return .many
        }
        // (The entries whose values match only grow within a generation.)
        if let before = earlier?.entries, before.count > limit { return .many }
        // Each range's column, carried to this snapshot.
        var columns: [ValueColumn] = []
        let needed = Set(ranges.map(\.field))
        for r in ranges {
            let cached = rangeMatches.withLock { $0.column(kind: kind, field: r.field) }
            if let column = cached?.carried(to: snap) {
                if column.covered != cached?.covered { rangeMatches.withLock { $0.keep(column, kind: kind, needed: needed) } }
                columns.append(column)
                continue
            }
            guard rangeMatches.withLock({ $0.makeRoom(8 * end, kind: kind, field: r.field, needed: needed) }) else { return .many }
            guard let column = newColumn(kind: kind, field: r.field, snap) else { return .pending }
            rangeMatches.withLock { $0.keep(column, kind: kind, needed: needed) }
            columns.append(column)
        }
        var entries: [Int32]?
        if earlier?.entries == nil, ValueColumn.likelyMoreThan(limit, ranges, columns, below: end) {
            entries = nil
        } else if let earlier, let before = earlier.entries, before.count <= limit {
            entries = ValueColumn.matching(ranges, columns, from: earlier.covered, below: end, limit: limit - before.count).map { before + $0 }
        } else {
            entries = ValueColumn.matching(ranges, columns, from: 0, below: end, limit: limit)
        }
        let result = RangeMatches.Found(generation: snap.generation, covered: end, entries: entries, limit: limit)
        rangeMatches.withLock { $0.keep(result, kind: kind, ranges) }
        return entries.map { .found($0.filter { snap.isLiveEntry($0) }) } ?? .many
    }

    /// A field's column for `snap`'s generation: built here for a kind of fewer than
    /// ``preparedFiltersMinimum`` entries (or with no spare core); for a larger one, taken
    /// from the spare core once built there (carried to `snap`), and `nil` until then (the
    /// query walks the index, as for a filter without ranges): one record read a record (an
    /// estimate of 20–60 ns, not measured alone; 20–60 ms at a million), which no query
    /// waits for. The helper runs only on a core nothing else
    /// wants, so on a busy machine it may not get to the build: a query asking after twice
    /// the build's expected time (at least 10 ms) builds the column itself.
    func newColumn(kind: String, field: String, _ snap: PointSet.Snapshot) -> ValueColumn? {
        guard snap.entryCount >= Engine.preparedFiltersMinimum, SpareCore.hasHelper else { return ValueColumn(field: field, snap) }
        if let build = rangeMatches.withLock({ $0.building[kind]?[field] }) {
            let finished = build.job.isFinished
            guard finished || ContinuousClock.now >= build.due else { return nil }
            rangeMatches.withLock { m in if m.building[kind]?[field]?.job === build.job { m.building[kind]?[field] = nil } }
            // The helper is late: built here.
            guard finished else { return ValueColumn(field: field, snap) }
            if let column = build.job.result()?.carried(to: snap) { return column }
            // (Another generation's, or its snapshot let go: a new build below.)
        }
        let expected = 60 * snap.entryCount
        let build = Engine.postBuild(from: snap, expectedNanoseconds: expected) { ValueColumn(field: field, $0) }
        let due = ContinuousClock.now + .nanoseconds(max(2 * expected, 10_000_000))
        rangeMatches.withLock { $0.building[kind, default: [:]][field] = (build.job, build.source, due) }
        return nil
    }
}
