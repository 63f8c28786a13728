import ScoutCatalog
import ScoutCore
import ScoutGeodesy
import ScoutIndex
import Synchronization

/// How a filtered spatial query finds its matches.
public enum QueryPlan: String, Sendable {
    /// Walk the spatial index and test the filter on each candidate it reaches.
    case indexWalk = "index_walk"
    /// Take the records a categorical condition allows from its posting lists, test the
    /// rest of the filter on those only, and rank them exactly (very few matches).
    case filterFirst = "filter_first"
    /// Search a packed tree of its own over the records a categorical condition allows
    /// (built once per snapshot and condition), testing the rest of the filter on the
    /// candidates it reaches: a rare condition costs what a query over those records alone
    /// would.
    case filterIndex = "filter_index"
    /// The posting lists show that nothing can match: answer at once.
    case empty
}

/// Which plan a query may use: chosen per query from the posting lists' counts, or forced
/// (for tests and measurements; every plan gives the same answer).
public enum PlanChoice: Sendable {
    /// The planner decides.
    case automatic
    /// Always walk the index.
    case indexWalk
    /// Filter first whenever the filter has a categorical condition.
    case filterFirst
    /// Search the condition's own tree whenever the filter has a categorical condition.
    case filterIndex
}

/// What the planner did, for `explain: true`.
public struct PlanReport: Sendable {
    /// The plan taken.
    public let plan: QueryPlan
    /// Live records of the kind.
    public let records: Int
    /// The categorical condition used (`breed`, `shelter_id`, …), if any.
    public let key: String?
    /// Records the posting lists allow (before the rest of the filter), when a key was used.
    public let candidates: Int?
}

/// Posting lists of one kind at one snapshot: for each categorical field, the entries
/// holding each value.
final class PostingLists: Sendable {
    let version: UInt64
    let generation: Int
    /// field → value → entry numbers (ascending).
    let lists: [String: [String: [Int32]]]

    init(_ snap: PointSet.Snapshot) {
        version = snap.version
        generation = snap.generation
        var lists: [String: [String: [Int32]]] = [:]
        for r in snap.allLive() {
            let record = Engine.record(snap.entry(r))
            for field in ["breed", "owner_id", "shelter_id", "species"] {
                for v in FilterKey.values(of: record, field: field) { lists[field, default: [:]][v, default: []].append(r.index) }
            }
        }
        self.lists = lists
    }

    /// The entries a key allows, ascending, without repeats.
    func candidates(_ key: FilterKey) -> [Int32] {
        guard let byValue = lists[key.field] else { return [] }
        let parts = key.values.compactMap { byValue[$0] }
        if parts.count == 1 { return parts[0] }
        return Array(Set(parts.joined())).sorted()
    }
}

extension Engine {
    /// Rank every candidate exactly when a key allows at most this many records: cheaper
    /// than building or walking a tree for them.
    static let filterFirstLimit = 64

    /// Search the key's own tree when it allows at most this share of the records (more,
    /// and the index walk meets a match every few candidates anyway).
    static func filterIndexLimit(records n: Int) -> Int { max(filterFirstLimit, n / 16) }

    /// The posting lists of a kind at a snapshot, built on first need after a write.
    func postings(kind: String, _ snap: PointSet.Snapshot) -> PostingLists {
        if let cached = postingCache.withLock({ $0[kind] }), cached.version == snap.version, cached.generation == snap.generation {
            return cached
        }
        let built = PostingLists(snap)
        postingCache.withLock { $0[kind] = built }
        return built
    }

    /// A plan for a filtered query: the report, and the candidate entries (filter first)
    /// or the snapshot restricted to them (filter index).
    struct Planned {
        let report: PlanReport
        var candidates: [Int32]? = nil
        var tree: PointSet.Snapshot? = nil
    }

    /// Chooses a plan for a filtered query. Filtering first ranks candidates within a disc,
    /// so a query over another area (`withinDisc` false) gets the key's own tree instead.
    func plan(kind: String, _ snap: PointSet.Snapshot, _ filter: RecordFilter, choice: PlanChoice,
              withinDisc: Bool = true) -> Planned {
        let n = snap.liveCount
        guard choice != .indexWalk, !filter.keys.isEmpty else {
            return Planned(report: PlanReport(plan: .indexWalk, records: n, key: nil, candidates: nil))
        }
        let lists = postings(kind: kind, snap)
        var best: (key: FilterKey, entries: [Int32])?
        for key in filter.keys {
            let c = lists.candidates(key)
            if best == nil || c.count < best!.entries.count { best = (key, c) }
        }
        let (key, entries) = best!
        func report(_ plan: QueryPlan) -> PlanReport { PlanReport(plan: plan, records: n, key: key.field, candidates: entries.count) }
        func filterIndex() -> Planned { Planned(report: report(.filterIndex), tree: filterTree(kind: kind, snap, key, entries)) }
        func filterFirst() -> Planned { withinDisc ? Planned(report: report(.filterFirst), candidates: entries) : filterIndex() }
        if entries.isEmpty { return Planned(report: report(.empty), candidates: []) }
        switch choice {
        case .filterFirst: return filterFirst()
        case .filterIndex: return filterIndex()
        case .automatic, .indexWalk: break
        }
        if entries.count <= Engine.filterFirstLimit { return filterFirst() }
        if entries.count <= Engine.filterIndexLimit(records: n) { return filterIndex() }
        return Planned(report: report(.indexWalk))
    }

    /// The snapshot restricted to the entries a key allows, from the cache or built now
    /// (two readers may build the same tree once each).
    func filterTree(kind: String, _ snap: PointSet.Snapshot, _ key: FilterKey, _ entries: [Int32]) -> PointSet.Snapshot {
        let name = key.field + "\u{0}" + key.values.sorted().joined(separator: "\u{0}")
        if let tree = filterTrees.withLock({ $0.tree(kind: kind, snap, name) }) { return tree }
        let tree = snap.restricted(to: entries)
        filterTrees.withLock { $0.keep(tree, kind: kind, snap, name) }
        return tree
    }

    /// The candidates that pass `test` and lie within `radius` of `origin` — membership
    /// decided exactly as the index's radius search decides it (cheap bounds, then the
    /// geodesic) — with their distance bounds.
    static func bounded(_ candidates: [Int32], _ snap: PointSet.Snapshot, from origin: GeoPoint, within radius: Double,
                        where test: ((EntryRef) -> Bool)?) -> [BoundedRef] {
        let originECEF = WGS84.ecef(origin)
        let disc = radius.isFinite ? RadiusTest(center: origin, radius: radius) : nil
        var out: [BoundedRef] = []
        out.reserveCapacity(candidates.count)
        for c in candidates {
            let ref = EntryRef(index: c)
            let p = snap.entry(ref).point
            if let disc, !disc.contains(lat: p.lat, lon: p.lon) { continue }
            if let test, !test(ref) { continue }
            let range = DistanceBounds.interval(p, origin, ecefOfB: originECEF)
            out.append(BoundedRef(ref: ref, lower: range.lowerBound, upper: range.upperBound, point: p))
        }
        return out
    }
}

/// Packed trees of the entries that categorical conditions allow (``QueryPlan/filterIndex``),
/// per kind and snapshot: built on a condition's first query at a snapshot, dropped with
/// the snapshot; the whole cache is bounded in bytes.
struct FilterTrees {
    /// One kind's trees, valid for one snapshot.
    struct Kind {
        var version: UInt64
        var generation: Int
        /// The key's field and values → the snapshot restricted to its entries.
        var trees: [String: PointSet.Snapshot] = [:]
        /// Bytes of those trees.
        var bytes = 0
    }

    var kinds: [String: Kind] = [:]
    /// Bytes held by every tree.
    var bytes = 0
    /// Most bytes all trees together may hold; past it the cache starts over.
    let maximumBytes: Int

    /// The engine's bound: 32 MiB (20 bytes a point).
    static let defaultMaximumBytes = 32 << 20

    init(maximumBytes: Int = FilterTrees.defaultMaximumBytes) { self.maximumBytes = maximumBytes }

    /// The tree of a key at a snapshot, if kept.
    func tree(kind: String, _ snap: PointSet.Snapshot, _ name: String) -> PointSet.Snapshot? {
        guard let k = kinds[kind], k.version == snap.version, k.generation == snap.generation else { return nil }
        return k.trees[name]
    }

    /// Keeps a tree built at `snap` (dropping the kind's trees of older snapshots).
    mutating func keep(_ tree: PointSet.Snapshot, kind: String, _ snap: PointSet.Snapshot, _ name: String) {
        var k = kinds[kind] ?? Kind(version: snap.version, generation: snap.generation)
        if k.version != snap.version || k.generation != snap.generation {
            guard snap.version > k.version || snap.generation > k.generation else { return }
            bytes -= k.bytes
            k = Kind(version: snap.version, generation: snap.generation)
        }
        guard k.trees[name] == nil else { return }
        let size = tree.levelBytes + name.utf8.count
        if bytes + size > maximumBytes {
            self = FilterTrees(maximumBytes: maximumBytes)
            k = Kind(version: snap.version, generation: snap.generation)
            guard size <= maximumBytes else { return }
        }
        k.trees[name] = tree
        k.bytes += size
        bytes += size
        kinds[kind] = k
    }
}

/// Bitmaps of the entries that often-asked filters select, per kind and snapshot: once a
/// filter (by its ``RecordFilter/signature``) has been asked enough times at one snapshot,
/// the engine evaluates it once over every entry, and each candidate of later queries costs
/// one bit test instead of reading the record. A write makes a new snapshot, and its kind's
/// bitmaps start over; the whole cache is bounded in bytes.
struct FilterMaps {
    /// One kind's bitmaps, valid for one snapshot.
    struct Kind {
        var version: UInt64
        var generation: Int
        /// signature → times asked at this snapshot, and the bitmap once built.
        var maps: [String: (uses: Int, bits: [UInt64]?)] = [:]
    }

    var kinds: [String: Kind] = [:]
    /// Bytes held by every bitmap.
    var bytes = 0

    /// Most bytes all bitmaps together may hold; past it the cache starts over.
    static let maximumBytes = 32 << 20
    /// Most filters counted per kind and snapshot (each costs its signature's bytes); past
    /// it the counts without a bitmap start over, so a caller sending endless distinct
    /// filters holds no more than this many signatures.
    static let maximumCounted = 4096

    /// Times a filter is asked at one snapshot before its bitmap is built: a bitmap costs one
    /// filter test per entry, about what n / 256 queries spend testing their candidates.
    static func usesBeforeBuilding(entries n: Int) -> Int { max(8, n / 256) }
}

extension Engine {
    /// The bitmap of the entries `filter` selects at `snap` (bit `i` of word `i >> 6` for entry
    /// `i`), when the filter has been asked often enough at this snapshot; `nil` otherwise (and
    /// for filters without a signature).
    func filterBitmap(kind: String, _ snap: PointSet.Snapshot, _ filter: RecordFilter) -> [UInt64]? {
        guard let signature = filter.signature else { return nil }
        enum Found { case bits([UInt64]), build, neither }
        let found: Found = filterMaps.withLock { cache in
            var k = cache.kinds[kind] ?? FilterMaps.Kind(version: snap.version, generation: snap.generation)
            if k.version != snap.version || k.generation != snap.generation {
                // Older bitmaps of the kind no longer match its entries.
                cache.bytes -= k.maps.values.reduce(0) { $0 + 8 * ($1.bits?.count ?? 0) }
                k = FilterMaps.Kind(version: snap.version, generation: snap.generation)
            }
            var entry = k.maps[signature] ?? (0, nil)
            if let bits = entry.bits { return .bits(bits) }
            if entry.uses == 0 && k.maps.count >= FilterMaps.maximumCounted { k.maps = k.maps.filter { $0.value.bits != nil } }
            entry.uses += 1
            k.maps[signature] = entry
            cache.kinds[kind] = k
            return entry.uses == FilterMaps.usesBeforeBuilding(entries: snap.entryCount) ? .build : .neither
        }
        switch found {
        case .bits(let bits): return bits
        case .neither: return nil
        case .build: break
        }
        var bits = [UInt64](repeating: 0, count: (snap.entryCount + 63) >> 6)
        for r in snap.allLive() where filter.matches(Engine.record(snap.entry(r))) {
            bits[Int(r.index) >> 6] |= 1 << UInt64(r.index & 63)
        }
        filterMaps.withLock { cache in
            guard var k = cache.kinds[kind], k.version == snap.version, k.generation == snap.generation else { return }
            if cache.bytes + 8 * bits.count > FilterMaps.maximumBytes {
                cache = FilterMaps()
                k = FilterMaps.Kind(version: snap.version, generation: snap.generation)
            }
            k.maps[signature] = (FilterMaps.usesBeforeBuilding(entries: snap.entryCount), bits)
            cache.kinds[kind] = k
            cache.bytes += 8 * bits.count
        }
        return bits
    }
}
