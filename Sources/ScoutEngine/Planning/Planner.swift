import ScoutCatalog
import ScoutCore
import ScoutGeodesy
import ScoutIndex
import ScoutText
import Synchronization

/// How a filtered spatial query finds its matches.
public enum QueryPlan: String, Sendable {
    /// Walk the spatial index and test the filter on each candidate it reaches.
    case indexWalk = "index_walk"
    /// Take the records a categorical condition allows from its posting lists (or those
    /// whose values lie in the filter's numeric ranges), test the rest of the filter on those
    /// only, and rank them exactly (very few matches).
    case filterFirst = "filter_first"
    /// Search a packed tree of its own over the records a categorical condition allows
    /// (built once per snapshot and condition), testing the rest of the filter on the
    /// candidates it reaches: a rare condition costs what a query over those records alone
    /// would.
    case filterIndex = "filter_index"
    /// The posting lists or the value columns show that nothing can match: answer at once.
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
    /// The condition counted, if any: a categorical one (`breed`, `shelter_id`, …), or the
    /// numeric fields whose ranges were counted from the value columns, comma-separated
    /// (`available,weight_kg`).
    public let key: String?
    /// Records the condition allows (before the rest of the filter), when one was counted.
    public let candidates: Int?
}

extension Engine {
    /// Rank every candidate exactly when a key allows at most this many records: cheaper
    /// than building or walking a tree for them.
    static let filterFirstLimit = 64

    /// Search the key's own tree when it allows at most this share of the records (more,
    /// and the index walk meets a match every few candidates anyway).
    static func filterIndexLimit(records n: Int) -> Int { max(filterFirstLimit, n / 16) }

    /// Numeric ranges asked for the first time build their candidates' tree only when they
    /// allow at most this many records (more, and the query walks the index, their scan
    /// stopped there; asked again, they are scanned on and get their tree if they allow at
    /// most ``filterIndexLimit(records:)``). Range bounds come from each caller's
    /// input, so many are asked once, and a tree is worth building only when it costs less
    /// than the walk it replaces: ~0.15 µs a candidate to build against ~0.3 µs a record
    /// the walk tests, of which a nearest k ≈ 4 tests k·n/m, so m² ≤ 8n (632 records of
    /// 50,000). The costs are estimates from one-off queries through the worker, measured
    /// while a tree's keep still copied its table: 302 candidates took ~240 µs built or
    /// walked, 3,089 took 504 µs built and 83 µs walked.
    static func firstAskLimit(records n: Int) -> Int { max(filterFirstLimit, Int((8 * Double(n)).squareRoot())) }

    /// Live records from which a load or a restore builds a kind's posting lists on the
    /// spare core (~1.2–2.4 µs a record); a smaller kind's first filtered query builds them.
    static let preparedFiltersMinimum = 8_192

    /// Starts building a kind's posting lists on the spare core, so that its first filtered
    /// query does not build them on its own thread (1.2–2.4 s at a million dogs): called after
    /// a load and a restore, and after a compaction of a kind whose lists were in use (with
    /// `published`, the snapshot that started the new numbering; else the kind's current
    /// one). Nothing for a kind of fewer than ``preparedFiltersMinimum`` records, nor when
    /// the kind's lists are cached for this generation of entry numbers.
    ///
    /// The build holds its snapshot only until it runs (the snapshot's levels may be
    /// replaced by later writes; a job keeps what it captured), and only while the engine
    /// holds the build: the job sees the snapshot through a weak reference, so an engine
    /// dropped before the helper reaches it costs the helper nothing. Its lists are kept
    /// until the kind's next filtered query takes them.
    func prepareFilters(kind: String, at published: PointSet.Snapshot? = nil) {
        guard let snap = published ?? pointSet(kind: kind)?.snapshot(), snap.liveCount >= Engine.preparedFiltersMinimum else { return }
        guard let store = self.store(kind: kind) else { return }
        if let cached = store.state.withLock({ $0.postings }), cached.generation == snap.generation { return }
        // ~1.2 µs a record measured on a quiet machine, 2.4 on a busy one; a query waiting
        // for the build sleeps (``SpareCore/waitSpinning``), so the margin costs no core.
        let build = Engine.postBuild(from: snap, expectedNanoseconds: 4_000 * snap.liveCount) { PostingLists($0) }
        store.state.withLock { $0.postingBuild = build }
    }

    /// The build of a kind's posting lists on the spare core that no query has taken yet, if any.
    func pendingPostingBuild(kind: String) -> SpareCore.Job<PostingLists?>? { store(kind: kind)?.state.withLock { $0.postingBuild?.job } }

    /// Has a kind's point set report its compactions: a compaction renumbers the entries, so
    /// the kind's posting lists start over, and the next filtered query built them on its own
    /// thread (~2.5 s at a million dogs, in the middle of live traffic). Now, for a kind whose
    /// lists were in use, the new numbering's lists are built on the spare core as after a
    /// load (``prepareFilters(kind:at:)``), for that query to take.
    func watchCompactions(of set: PointSet, kind: String) {
        set.observeCompactions { [weak self] snap in
            guard let self, let lists = self.store(kind: kind)?.state.withLock({ $0.postings }), lists.generation < snap.generation else { return }
            self.prepareFilters(kind: kind, at: snap)
        }
    }

    /// The posting lists of a kind at a snapshot: the cached ones, carried forward to it
    /// after writes (see ``PostingLists``), or those ``prepareFilters(kind:)`` started
    /// (waited for if the spare core is still building them, carried forward likewise), or
    /// built now.
    func postings(kind: String, _ snap: PointSet.Snapshot) -> PostingLists {
        let store = self.store(kind: kind)
        var cached = store?.state.withLock { $0.postings }
        if let cached, cached.isAt(snap) { return cached }
        var built: PostingLists?
        if cached?.carries(to: snap) != true, let build = store?.state.withLock({ $0.postingBuild?.job }) {
            // (`nil` from a second run of the build, after its first let its snapshot go.)
            let lists = build.result()
            built = lists?.carried(to: snap)
            if built != nil || (lists?.generation ?? -1) < snap.generation {
                store?.state.withLock { if $0.postingBuild?.job === build { $0.postingBuild = nil } }
            }
        }
        let lists = cached?.carried(to: snap) ?? built ?? PostingLists(snap)
        store?.state.withLock { $0.postings.keepNewest(lists) }
        // Lists whose base a fold replaced may hold the last references to the old base's
        // shards: freeing them takes ~4 ms at a million records, so the spare core does it.
        // (Moved straight from the optional: a binding would be one more reference, perhaps
        // the last.)
        if let base = cached?.baseCovered, base != lists.baseCovered { SpareCore.release(cached.take()!) }
        return lists
    }

    /// A value handed out once (to a job that may run twice, so that it holds what it
    /// captured only until its first run).
    final class TakenOnce<Value: Sendable>: Sendable {
        private let value: Mutex<Value?>
        init(_ value: Value) { self.value = Mutex(value) }
        /// The value the first time; `nil` after.
        func take() -> Value? { value.withLock { $0.take() } }
    }

    /// Posts a build from `snap` to the spare core, holding the snapshot only until the
    /// build runs and only while the caller keeps the returned source: the job sees it
    /// through a weak reference, so a build whose caller let go (an engine dropped) builds
    /// nothing, and a second run of the job gives `nil`.
    static func postBuild<T: Sendable>(from snap: PointSet.Snapshot, expectedNanoseconds: Int,
                                       _ build: @escaping @Sendable (PointSet.Snapshot) -> T)
        -> (job: SpareCore.Job<T?>, source: TakenOnce<PointSet.Snapshot>) {
        let source = TakenOnce(snap)
        let job = SpareCore.post(expectedNanoseconds: expectedNanoseconds) { [weak source] in source?.take().map(build) }
        return (job, source)
    }

    /// A plan for a filtered query: the report, and the candidate entries (filter first)
    /// or the snapshot restricted to them (filter index).
    struct Planned {
        let report: PlanReport
        var candidates: [Int32]? = nil
        var tree: PointSet.Snapshot? = nil
        /// Chosen while a value column was in the making, or a walk chosen for ranges asked
        /// for the first time: not remembered (``PlanMemo``), so that a later query at the
        /// same snapshot counts the ranges once the column is built, or builds their tree.
        var provisional = false
    }

    /// Chooses a plan for a filtered query from the counts of its categorical keys (posting
    /// lists) and, when none allows few enough records, of its numeric ranges (value
    /// columns). Filtering first ranks candidates within a disc, so a query over another
    /// area (`withinDisc` false) gets the candidates' own tree instead.
    func plan(kind: String, _ snap: PointSet.Snapshot, _ filter: RecordFilter, choice: PlanChoice,
              withinDisc: Bool = true) -> Planned {
        let n = snap.liveCount
        let walk = Planned(report: PlanReport(plan: .indexWalk, records: n, key: nil, candidates: nil))
        guard choice != .indexWalk, !filter.keys.isEmpty || !filter.ranges.isEmpty else { return walk }
        // A forced plan takes its candidates however many there are.
        let limit = choice == .automatic ? Engine.filterIndexLimit(records: n) : Int.max
        var best: (key: FilterKey, count: Int, lists: PostingLists)?
        if !filter.keys.isEmpty {
            let lists = postings(kind: kind, snap)
            for key in filter.keys {
                let c = lists.count(key, snap)
                if best == nil || c < best!.count { best = (key, c, lists) }
            }
        }
        let source: CandidateSource
        var pending = false
        if let best, best.count <= limit || filter.ranges.isEmpty {
            source = .key(best.key, best.lists, count: best.count)
        } else {
            // Ranges not asked before at this generation (no scan of theirs remembered) are
            // scanned only until more than ``firstAskLimit(records:)`` records are found; then
            // the query walks the index, and the plan is not remembered, so that the same
            // filter asked again scans on and builds their tree if they allow few enough.
            let (scan, firstAsk) = rangeCandidates(kind: kind, snap, filter.ranges, limit: min(limit, best?.count ?? Int.max),
                                                   firstAskLimit: choice == .automatic ? Engine.firstAskLimit(records: n) : nil)
            pending = scan == .pending || (firstAsk && scan == .many)
            if case .found(let found) = scan { source = .ranges(filter.ranges, found) }
            else if let best { source = .key(best.key, best.lists, count: best.count) }
            else { return Planned(report: walk.report, provisional: pending) }
        }
        let count = source.count
        func report(_ plan: QueryPlan) -> PlanReport { PlanReport(plan: plan, records: n, key: source.field, candidates: count) }
        if count > Engine.filterIndexLimit(records: n) && choice == .automatic {
            return Planned(report: report(.indexWalk), provisional: pending)
        }
        func filterIndex() -> Planned { Planned(report: report(.filterIndex), tree: filterTree(kind: kind, snap, source, count: count)) }
        func filterFirst() -> Planned {
            withinDisc ? Planned(report: report(.filterFirst), candidates: source.candidates(snap)) : filterIndex()
        }
        if count == 0 { return Planned(report: report(.empty), candidates: []) }
        switch choice {
        case .filterFirst: return filterFirst()
        case .filterIndex: return filterIndex()
        case .automatic, .indexWalk: break
        }
        if count <= Engine.filterFirstLimit { return filterFirst() }
        if count <= Engine.filterIndexLimit(records: n) { return filterIndex() }
        return Planned(report: report(.indexWalk))
    }

    /// Where a plan's candidates come from: a categorical key's posting lists, or the
    /// entries a scan of the value columns found for numeric ranges.
    enum CandidateSource {
        /// The key, its lists, and how many live records it allows.
        case key(FilterKey, PostingLists, count: Int)
        /// The ranges, and the live entries of the snapshot whose values lie in them.
        case ranges([FilterRange], [Int32])

        /// The field named in `explain` (ranges: their fields, joined by commas).
        var field: String {
            switch self {
            case .key(let key, _, _): key.field
            case .ranges(let ranges, _): Array(Set(ranges.map(\.field))).sorted().joined(separator: ",")
            }
        }

        /// The candidates' number.
        var count: Int {
            switch self {
            case .key(_, _, let count): count
            case .ranges(_, let found): found.count
            }
        }

        /// The live candidates at `snap`, ascending; only those numbered `start` or more when given.
        func candidates(_ snap: PointSet.Snapshot, from start: Int = 0) -> [Int32] {
            switch self {
            case .key(let key, let lists, _): lists.candidates(key, snap, from: start)
            case .ranges(_, let found): start > 0 ? Array(found.suffix(fromEntry: start)) : found
            }
        }

        /// The key the candidates' tree is cached under.
        var treeKey: FilterTrees.Key {
            switch self {
            case .key(let key, _, _): .key(key)
            case .ranges(let ranges, _): .ranges(RangeMatches.ordered(ranges))
            }
        }
    }

    /// The plan of a filtered query and the test its traversal runs per candidate (`nil`:
    /// none, and none for an empty plan), remembered with the filter's bitmap per filter and
    /// snapshot (``PlanMemo``).
    func planAndTest(kind: String, _ snap: PointSet.Snapshot, _ filter: RecordFilter, _ scores: TextMatches?,
                     choice: PlanChoice, withinDisc: Bool = true) -> (planned: Planned, test: ((EntryRef) -> Bool)?) {
        guard !filter.isEmpty else {
            return (plan(kind: kind, snap, filter, choice: choice, withinDisc: withinDisc), Engine.test(filter, bits: nil, snap, scores))
        }
        let remembered = planMemo.withLock { $0.find(snap, filter: filter, choice: choice, withinDisc: withinDisc) }
        let planned = remembered?.planned ?? plan(kind: kind, snap, filter, choice: choice, withinDisc: withinDisc)
        let empty = planned.report.plan == .empty
        var bits = remembered?.bits
        // (With text scores the filter is tested on the records, as it always was; an empty
        // plan tests nothing.)
        if bits == nil && scores == nil && !empty { bits = filterBitmap(kind: kind, snap, filter) }
        if !planned.provisional && (remembered == nil || (remembered?.bits == nil && bits != nil)) {
            planMemo.withLock { $0.keep(snap, filter: filter, choice: choice, withinDisc: withinDisc, planned, bits: bits) }
        }
        return (planned, empty ? nil : Engine.test(filter, bits: bits, snap, scores))
    }

    /// The snapshot restricted to the `count` entries a key or ranges allow: from the cache,
    /// carried from an earlier snapshot's tree (reading only the entries appended since),
    /// or built now (two readers may build the same tree once each).
    func filterTree(kind: String, _ snap: PointSet.Snapshot, _ source: CandidateSource, count: Int) -> PointSet.Snapshot {
        let key = source.treeKey
        var earlier: FilterTrees.Tree?
        switch filterTrees.withLock({ $0.find(kind: kind, snap, key) }) {
        case .exact(let view): return view
        case .earlier(let tree): earlier = tree
        case .none: earlier = nil
        }
        let tree = earlier.flatMap { $0.carried(to: snap, added: source.candidates(snap, from: $0.baseCovered), count: count) }
            ?? FilterTrees.Tree(snap, entries: source.candidates(snap))
        filterTrees.withLock { $0.keep(tree, kind: kind, key) }
        return tree.view
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
/// per kind: built on a condition's first query, then carried to later snapshots of the same
/// generation by packing only the entries appended since into a second level (see
/// ``Tree/carried(to:added:count:)``) until those pass a 32nd of the tree or the entries
/// removed since a quarter; a compaction renumbers the entries and starts the kind over.
/// The whole cache is bounded in bytes.
struct FilterTrees {
    /// What a tree holds the entries of: those a categorical key allows, or those whose
    /// values lie in numeric ranges (sorted by field).
    enum Key: Hashable {
        case key(FilterKey)
        case ranges([FilterRange])
    }

    /// A key's tree at one snapshot.
    struct Tree {
        /// The snapshot restricted to the key's entries.
        let view: PointSet.Snapshot
        /// The view ``PointSet/Snapshot/restricted(to:)`` built, whose level later views reuse.
        let base: PointSet.Snapshot
        /// Entry slots the store held when `base` was built.
        let baseCovered: Int
        /// The entries of `view`'s second level (appended since `base`), ascending.
        let added: [Int32]

        /// The tree of `entries` (the key's, live at `snap`), built from scratch.
        init(_ snap: PointSet.Snapshot, entries: [Int32]) {
            base = snap.restricted(to: entries)
            view = base
            baseCovered = snap.entryCount
            added = []
        }

        private init(view: PointSet.Snapshot, base: PointSet.Snapshot, baseCovered: Int, added: [Int32]) {
            self.view = view
            self.base = base
            self.baseCovered = baseCovered
            self.added = added
        }

        /// This tree carried to `snap`, a later snapshot of its generation, where the key
        /// allows `count` entries, `added` of them (ascending) at or past ``baseCovered``;
        /// `nil` when building afresh is due: the entries appended since the base passed a
        /// 32nd of it (each snapshot packs them again, unless they are the same as this
        /// tree's), or those removed since a quarter.
        ///
        /// - Complexity: O(a) when the appended entries are this tree's, else O(a log a), for
        ///   the a entries appended since the base.
        func carried(to snap: PointSet.Snapshot, added: [Int32], count: Int) -> Tree? {
            guard base.generation == snap.generation, base.version <= snap.version else { return nil }
            let baseCount = base.liveCount
            let removed = baseCount - (count - added.count)
            guard 32 * added.count <= baseCount + 2_048, 4 * removed <= baseCount + 64 else { return nil }
            let view = added == self.added
                ? snap.restricted(sameLevelsAs: self.view, count: count, firstLevelClean: removed == 0)
                : snap.restricted(adding: added, count: count, reusing: base)
            return Tree(view: view, base: base, baseCovered: baseCovered, added: added)
        }
    }

    /// One kind's trees, for one generation of entry numbers.
    struct Kind {
        var generation: Int
        /// A key → its newest tree.
        var trees: [Key: Tree] = [:]
        /// Bytes of those trees.
        var bytes = 0
    }

    var kinds: [String: Kind] = [:]
    /// Bytes held by every tree.
    var bytes = 0
    /// Most bytes all trees together may hold; past it the cache starts over.
    let maximumBytes: Int

    /// The engine's bound: 32 MiB (a tree holds 20 bytes a point and 2.5–5 bytes a point of
    /// node arrays; see `PackedTree`).
    static let defaultMaximumBytes = 32 << 20

    init(maximumBytes: Int = FilterTrees.defaultMaximumBytes) { self.maximumBytes = maximumBytes }

    /// What the cache holds for a key at a snapshot: its tree at exactly that snapshot, or
    /// one kept at an earlier snapshot of its generation (to carry to it), or neither.
    enum Found {
        case exact(PointSet.Snapshot)
        case earlier(Tree)
        case none
    }

    /// The key's tree at `snap` or before it (one lookup).
    func find(kind: String, _ snap: PointSet.Snapshot, _ key: Key) -> Found {
        guard let t = kinds[kind]?.trees[key], t.view.generation == snap.generation else { return .none }
        if t.view.version == snap.version { return .exact(t.view) }
        return t.view.version < snap.version ? .earlier(t) : .none
    }

    /// Bytes a key's entry in the cache is counted for besides its tree: its values.
    static func keyBytes(_ key: Key) -> Int {
        switch key {
        case .key(let k): k.values.reduce(8) { $0 + $1.utf8.count }
        case .ranges(let r): r.reduce(8) { $0 + 16 + $1.field.utf8.count }
        }
    }

    /// Keeps a key's tree: it replaces the key's tree of an older snapshot, and a later
    /// generation drops the kind's trees.
    mutating func keep(_ tree: Tree, kind: String, _ key: Key) {
        // The kind's entry is changed in place: a copy taken out and written back would copy
        // its table of trees (thousands, for one-off numeric ranges) at every query.
        let view = tree.view
        if let generation = kinds[kind]?.generation, generation != view.generation {
            guard view.generation > generation else { return }
            bytes -= kinds[kind]!.bytes
            kinds[kind] = nil
        }
        if let old = kinds[kind]?.trees[key] {
            guard view.version > old.view.version else { return }
            let oldSize = old.view.levelBytes + FilterTrees.keyBytes(key)
            kinds[kind]!.bytes -= oldSize
            bytes -= oldSize
            kinds[kind]!.trees[key] = nil
        }
        let size = view.levelBytes + FilterTrees.keyBytes(key)
        if bytes + size > maximumBytes {
            self = FilterTrees(maximumBytes: maximumBytes)
            guard size <= maximumBytes else { return }
        }
        kinds[kind, default: Kind(generation: view.generation)].trees[key] = tree
        kinds[kind]!.bytes += size
        bytes += size
    }
}

/// Bitmaps of the entries that often-asked filters select, per kind: once a filter (by its
/// value, built in Swift or read from JSON alike) has been asked enough times, the engine evaluates it once over
/// every entry, and each candidate of later queries costs one bit test instead of reading the
/// record. An entry's record never changes, so a bitmap stays true across writes: a later
/// snapshot's first query with the filter extends it over the entries appended since. A
/// compaction renumbers the entries and starts the kind's bitmaps over; the whole cache is
/// bounded in bytes.
struct FilterMaps {
    /// One kind's bitmaps, for one generation of entry numbers.
    struct Kind {
        /// The newest snapshot a query has asked at.
        var version: UInt64
        var generation: Int
        /// filter → times asked, and the bitmap once built with the entries it covers; or,
        /// while the spare core builds it, its job and the entries it will cover.
        var maps: [RecordFilter: (uses: Int, bits: [UInt64]?, covered: Int, building: SpareCore.Job<[UInt64]>?)] = [:]
        /// How many of ``maps`` are in the making on the spare core.
        var building = 0
    }

    var kinds: [String: Kind] = [:]
    /// Bytes held by every bitmap.
    var bytes = 0

    /// Most bytes all bitmaps together may hold; past it the cache starts over.
    static let maximumBytes = 32 << 20
    /// Most filters counted per kind (each of at most ``RecordFilter/maximumCachedBytes``);
    /// past it the counts without a bitmap start over, so a caller sending endless distinct
    /// filters holds no more than this many.
    static let maximumCounted = 4096

    /// Most bitmaps per kind in the making on the spare core at once. A bitmap in the making
    /// holds its snapshot, and once built its bits until a query takes them, outside
    /// ``maximumBytes``; a filter past its threshold waits its turn, testing records.
    static let maximumBuilding = 2

    /// Times a filter is asked before its bitmap is built: a bitmap costs one filter test per
    /// entry, about what n / 256 queries spend testing their candidates.
    static func usesBeforeBuilding(entries n: Int) -> Int { max(8, n / 256) }

    /// What a query asking for a filter's bitmap is to do.
    enum Found {
        /// Use these bits.
        case bits([UInt64])
        /// Extend these bits from this entry on, then keep them.
        case extend([UInt64], from: Int)
        /// Take the spare core's bits (covering entries up to this one), extend and keep them.
        case built(SpareCore.Job<[UInt64]>, covering: Int)
        /// Build the bitmap here and keep it.
        case build
        /// Test records: no bitmap yet.
        case neither
    }
}

extension FilterMaps.Kind {
    /// Counts a query asking for `filter` at `snap` and says what it is to
    /// do; starts the bitmap's build on the spare core once the filter has been
    /// asked `threshold` times. Also returns the bytes of bitmaps dropped because a
    /// compaction renumbered the entries.
    mutating func ask(_ filter: RecordFilter, at snap: PointSet.Snapshot,
                      threshold: Int) -> (FilterMaps.Found, released: Int) {
        var released = 0
        if generation != snap.generation {
            // A compaction renumbered the entries: the kind's bitmaps describe other entries.
            guard snap.generation > generation else { return (.neither, 0) }
            released = maps.values.reduce(0) { $0 + 8 * ($1.bits?.count ?? 0) }
            self = FilterMaps.Kind(version: snap.version, generation: snap.generation)
        }
        if version < snap.version { version = snap.version }
        if let entry = maps[filter], let bits = entry.bits {
            return (entry.covered >= snap.entryCount ? .bits(bits) : .extend(bits, from: entry.covered), released)
        }
        if maps[filter] == nil && maps.count >= FilterMaps.maximumCounted {
            maps = maps.filter { $0.value.bits != nil || $0.value.building != nil }
        }
        let building = self.building
        let (found, started) = FilterMaps.Kind.count(&maps[filter, default: (0, nil, 0, nil)], of: filter, at: snap,
                                                      threshold: threshold, building: building)
        if started { self.building += 1 }
        return (found, released)
    }

    /// One more use of a filter without a bitmap (`entry`, changed in place); whether its
    /// build was started on the spare core.
    private static func count(_ entry: inout (uses: Int, bits: [UInt64]?, covered: Int, building: SpareCore.Job<[UInt64]>?),
                              of filter: RecordFilter, at snap: PointSet.Snapshot, threshold: Int,
                              building: Int) -> (FilterMaps.Found, started: Bool) {
        entry.uses += 1
        if let job = entry.building {
            // Taken once the spare core has built it; waited for (or built here) if it
            // has not by twice the uses that started it.
            if job.isFinished || entry.uses >= 2 * threshold { return (.built(job, covering: entry.covered), false) }
            return (.neither, false)
        }
        guard entry.uses >= threshold else { return (.neither, false) }
        guard SpareCore.hasHelper else { return (.build, false) }
        // A million entries take ~100 ms: built on the spare core while queries go on
        // testing records.
        guard building < FilterMaps.maximumBuilding else { return (.neither, false) }
        let n = snap.entryCount
        entry.building = SpareCore.post(expectedNanoseconds: 200 * n) { Engine.bitmap(of: filter, snap, from: 0, extending: []) }
        entry.covered = n
        return (.neither, true)
    }
}

extension Engine {
    /// The bitmap of the entries `filter` selects at `snap` (bit `i` of word `i >> 6` for entry
    /// `i`), when the filter has been asked often enough; `nil` otherwise (and for filters
    /// filters above ``RecordFilter/maximumCachedBytes``).
    func filterBitmap(kind: String, _ snap: PointSet.Snapshot, _ filter: RecordFilter) -> [UInt64]? {
        guard filter.bytes <= RecordFilter.maximumCachedBytes else { return nil }
        let threshold = FilterMaps.usesBeforeBuilding(entries: snap.entryCount)
        let found: FilterMaps.Found = filterMaps.withLock { cache in
            // The kind's entry is changed in place (a copy taken out and written back would
            // copy its table of every filter counted, up to 4,096, at each query).
            let (found, released) = cache.kinds[kind, default: FilterMaps.Kind(version: snap.version, generation: snap.generation)]
                .ask(filter, at: snap, threshold: threshold)
            cache.bytes -= released
            return found
        }
        var bits: [UInt64], from: Int
        switch found {
        case .bits(let b): return b
        case .neither: return nil
        case .build: (bits, from) = ([], 0)
        case .extend(let b, let f): (bits, from) = (b, f)
        case .built(let job, let covered): (bits, from) = (job.result(), covered)
        }
        bits = Engine.bitmap(of: filter, snap, from: from, extending: bits)
        filterMaps.withLock { cache in
            // In place, as above.
            // (No copy of the kind is held across the changes: it would make them copy its table.)
            guard let kept = cache.kinds[kind].flatMap({ $0.generation == snap.generation ? ($0.version, $0.maps[filter]) : nil })
            else { return }
            let (version, old) = kept
            let held = 8 * (old?.bits?.count ?? 0)
            if old?.covered ?? 0 >= snap.entryCount && held > 0 { return }
            if cache.bytes - held + 8 * bits.count > FilterMaps.maximumBytes {
                cache = FilterMaps()
                cache.kinds[kind] = FilterMaps.Kind(version: snap.version, generation: snap.generation)
            } else {
                cache.bytes -= held
                if old?.building != nil { cache.kinds[kind]!.building -= 1 }
            }
            cache.kinds[kind]!.version = max(version, snap.version)
            cache.kinds[kind]!.maps[filter] = (threshold, bits, snap.entryCount, nil)
            cache.bytes += 8 * bits.count
        }
        return bits
    }

    /// `bits` (a filter's bitmap of the entries before `from`) with the bits of every entry
    /// from `from` to `snap`'s last, live or not: a bit records what the entry's record is,
    /// which no write changes, so readers of older snapshots may use it too.
    static func bitmap(of filter: RecordFilter, _ snap: PointSet.Snapshot, from: Int, extending bits: [UInt64]) -> [UInt64] {
        var bits = bits
        bits += [UInt64](repeating: 0, count: max(0, (snap.entryCount + 63) >> 6 - bits.count))
        for i in from..<snap.entryCount where filter.matches(Engine.record(snap.entry(EntryRef(index: Int32(i))))) {
            bits[i >> 6] |= 1 << UInt64(i & 63)
        }
        return bits
    }
}

/// The plans of the filters last asked, by filter (its value: built in Swift or read from JSON alike) and snapshot.
/// A service's requests repeat a few filters between writes, and a filter asked again at
/// the same snapshot skips the posting counts and the lookups in ``FilterTrees`` and
/// ``FilterMaps``: hashing a key's values there cost more than a rare filter's whole search
/// (a filter's own hash is computed once, when it is made). A plan is a function of the snapshot and the filter alone, so
/// a remembered one is the plan the planner would choose again. At most ``capacity`` plans,
/// holding at most ``maximumBytes`` of candidates, trees and bitmaps (which the other
/// caches may have let go); the oldest goes first, and a plan whose snapshot is gone is
/// never found (its entry holds the snapshot weakly) and goes at the next plan kept.
struct PlanMemo {
    /// One remembered plan.
    struct Entry {
        weak var snap: PointSet.Snapshot?
        let filter: RecordFilter
        let choice: PlanChoice
        let withinDisc: Bool
        let planned: Engine.Planned
        /// The filter's bitmap at the snapshot, once ``FilterMaps`` has one.
        let bits: [UInt64]?
        let bytes: Int
    }

    /// Most plans remembered.
    static let capacity = 16
    /// Most bytes of candidates, trees and bitmaps held.
    static let maximumBytes = 8 << 20

    /// Oldest first.
    private var entries: [Entry] = []
    /// Bytes held by the entries.
    private(set) var bytes = 0

    /// Plans found (for tests and measurements).
    private(set) var hits = 0

    /// The plan of `filter` at `snap` for this choice and area, with its bitmap if known.
    mutating func find(_ snap: PointSet.Snapshot, filter: RecordFilter, choice: PlanChoice, withinDisc: Bool) -> (planned: Engine.Planned, bits: [UInt64]?)? {
        for e in entries where e.filter == filter && e.choice == choice && e.withinDisc == withinDisc && e.snap === snap {
            hits += 1
            return (e.planned, e.bits)
        }
        return nil
    }

    /// Remembers a plan (replacing the same filter's at the same snapshot, if any).
    mutating func keep(_ snap: PointSet.Snapshot, filter: RecordFilter, choice: PlanChoice, withinDisc: Bool,
                       _ planned: Engine.Planned, bits: [UInt64]?) {
        let size = 64 + filter.bytes + 4 * (planned.candidates?.count ?? 0) + (planned.tree?.levelBytes ?? 0) + 8 * (bits?.count ?? 0)
        guard size <= PlanMemo.maximumBytes else { return }
        // Plans of snapshots gone (a write published a newer one) and this plan's old entry
        // go: a filter tree holds its snapshot's entry chunks, which a compaction replaces.
        entries.removeAll { e in
            let drop = e.snap == nil || (e.filter == filter && e.choice == choice && e.withinDisc == withinDisc && e.snap === snap)
            if drop { bytes -= e.bytes }
            return drop
        }
        entries.append(Entry(snap: snap, filter: filter, choice: choice, withinDisc: withinDisc, planned: planned, bits: bits, bytes: size))
        bytes += size
        while entries.count > PlanMemo.capacity || bytes > PlanMemo.maximumBytes {
            bytes -= entries[0].bytes
            entries.removeFirst()
        }
    }

    /// Plans remembered.
    var count: Int { entries.count }
}
