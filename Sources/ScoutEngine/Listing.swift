import ScoutCatalog
import ScoutCore
import ScoutIndex
import ScoutText

extension Engine {
    /// A search with no area: every record of the kind — with a place or without — that
    /// passes the filter and the text, sorted by name, id, rating or relevance and paged
    /// with `after`. (``search(_:)`` comes here when its area is `nil`.)
    ///
    /// ```swift
    /// // All shelters, A to Z, 20 a page.
    /// let page = try engine.search(SearchQuery(kind: "shelter", area: nil, limit: 20, sort: .name))
    /// ```
    /// - Complexity: O(n) tests for n records of the kind, then O(m log m) for m matches.
    func list(_ q: SearchQuery) throws(ScoutError) -> SearchResult {
        try PointRecord.validateKind(q.kind.name, path: "kind")
        guard q.limit >= 1 else { throw ScoutError(.invalidRequest, "limit must be at least 1", path: "limit") }
        guard q.limit <= SearchQuery.maximumLimit else {
            throw ScoutError(.limitExceeded, "limit must be at most \(SearchQuery.maximumLimit)", path: "limit")
        }
        try Engine.validateText(q.text)
        let typed = Catalog.typedKinds.contains(q.kind.name)
        let sort = q.sort ?? (q.text != nil ? .relevance : q.kind.definition.timeField != nil ? .newest : typed ? .name : .id)
        switch sort {
        case .distance:
            throw ScoutError(.invalidRequest, "sort by distance needs an area (near and radius_m, bbox, within or along)", path: "sort")
        default: try Engine.checkSort(sort, text: q.text, kind: q.kind)
        }
        if q.from != nil {
            throw ScoutError(.invalidRequest, "from needs an area; a listing has no distances", path: "from")
        }
        let set = try loadedSet(kind: q.kind.name)
        let (snap, placeless) = try consistentRead { () throws(ScoutError) in (set.snapshot(), placelessSet(kind: q.kind.name)?.snapshot()) }
        let access = self.access(kind: q.kind, user: q.user)
        var q = q
        q.filter = q.filter.resolvingOwners(petsOwned(by:))
        // A pet's log (care entries of named pets, newest first): only those pets' entries are read.
        if q.text == nil, sort == .newest, snap.entryCount == 0, let placeless, let pets = Engine.petsNamed(by: q.filter), pets.count <= 64 {
            let groups = entriesByPet(placeless)
            var order = pets.flatMap { groups[$0] ?? [] }
            if pets.count > 1 {
                // The groups' own order: latest start, then the larger text id (the earlier id in byte order).
                func start(_ t: Int32) -> Int64 { Engine.record(text: t, snap, placeless).payload?.record.time?.seconds ?? 0 }
                order.sort { a, b in
                    let sa = start(a), sb = start(b)
                    return sa != sb ? sa > sb : a > b
                }
            }
            return try page(of: order, q, snap, placeless, access)
        }
        guard let text = q.text else {
            return try page(of: listingOrder(kind: q.kind.name, snap, placeless, sort: sort), q, snap, placeless, access)
        }
        let matches = textMatches(text, words: q.words, kind: q.kind.name, snap, placeless)

        // Only the text's matches are read (not every record), and each is kept as its
        // sort key and text id alone; names and ids are read when a comparison needs them.
        func record(_ t: Int32) -> (id: String, point: GeoPoint?, payload: RecordPayload?) { Engine.record(text: t, snap, placeless) }
        /// A match with its first sort key.
        struct Keyed { let primary: Double, score: TextScore, textID: Int32 }
        var keyed: [Keyed] = []
        let filtered = !q.filter.isEmpty
        let needsRecord = filtered || sort == .rating || sort == .newest || !access.allowsEveryone
        // A first page by relevance of every match (no filter, nobody's record held back):
        // only the matches ranked at least the `limit`-th best rank can be on it, so only
        // they become keys; the total is every match.
        let everyMatch = !needsRecord && sort == .relevance && q.after == nil
        let candidates = everyMatch ? matches.scores.topRanked(q.limit) : Array(0..<matches.scores.count)
        var total = everyMatch ? matches.scores.count : 0
        keyed.reserveCapacity(candidates.count)
        for i in candidates {
            let t = matches.scores.ids[i]
            let payload = needsRecord ? record(t).payload : nil
            if filtered && !q.filter.matches(payload?.record ?? .other) { continue }
            if !access.allows(payload) { continue }
            if !everyMatch { total += 1 }
            let score = matches.scores.score(at: i)
            let primary: Double
            switch sort {
            case .rating: primary = -(Rating.of(payload?.record ?? .other) ?? 0)
            case .newest: primary = -Double(payload?.record.time?.seconds ?? 0)
            case .relevance: primary = -score.rank
            case .id, .name, .distance: primary = 0
            }
            keyed.append(Keyed(primary: primary, score: score, textID: t))
        }
        // Names: the kind's folded names (relevance ties are common: records with the same
        // words score the same).
        let names = sort == .id || sort == .newest ? nil : folded(kind: q.kind.name, snap, placeless)
        func name(_ t: Int32) -> String { names?.name(t) ?? "" }
        func before(_ a: Keyed, _ b: Keyed) -> Bool {
            Engine.listedBefore(a.primary, b.primary, names: { (name(a.textID), name(b.textID)) },
                                ids: { (record(a.textID).id, record(b.textID).id) })
        }
        // A first page by relevance: only the matches whose key is among the first `limit`
        // keys (ties included) can be on it, so the rest are dropped before the ordering
        // that reads names and ids.
        if sort == .relevance && q.after == nil && keyed.count > 4 * q.limit {
            let cut = keyed.lazy.map(\.primary).smallest(q.limit, by: <).last!
            keyed.removeAll { $0.primary > cut }
        }
        // (After the cut, more follow when the whole answer is longer than a page.)
        let more = try Engine.page(&keyed, after: q.after, limit: q.limit, id: { record($0.textID).id }, by: before)
            || (q.after == nil && total > q.limit)
        let hits = keyed.map { k in
            let r = record(k.textID)
            return hit(id: r.id, kind: q.kind, point: r.point, payload: r.payload, distance: nil, text: (matches, k.score))
        }
        var result = SearchResult(total: total, hits: hits, nextAfter: more ? hits.last?.id : nil)
        matches.annotate(&result)
        return result
    }

    /// A page of a listing without text from the kind's records in listing order: the
    /// records after `q.after` that pass the filter, the first `q.limit` of them. Without a
    /// filter this reads only the page's records (and, with `after`, the ids before it);
    /// with one, it tests every record once, for the total.
    private func page(of order: [Int32], _ q: SearchQuery, _ snap: PointSet.Snapshot,
                      _ placeless: PlacelessSet.Snapshot?, _ access: AccessCheck) throws(ScoutError) -> SearchResult {
        func record(_ t: Int32) -> (id: String, point: GeoPoint?, payload: RecordPayload?) { Engine.record(text: t, snap, placeless) }
        let everything = q.filter.isEmpty && access.allowsEveryone
        func matches(_ t: Int32) -> Bool {
            if everything { return true }
            let payload = record(t).payload
            return q.filter.matches(payload?.record ?? .other) && access.allows(payload)
        }
        var start = 0
        if let after = q.after {
            guard let at = order.firstIndex(where: { record($0).id == after }), matches(order[at]) else {
                throw ScoutError(.notFound, "the after id is not among this query's matches (removed, or the query changed)", path: "after")
            }
            start = at + 1
        }
        var page: [Int32] = []
        var i = start
        while i < order.count && page.count <= q.limit {
            if matches(order[i]) { page.append(order[i]) }
            i += 1
        }
        let more = page.count > q.limit
        if more { page.removeLast() }
        let total = everything ? order.count : order.reduce(0) { $0 + (matches($1) ? 1 : 0) }
        let hits = page.map { t in
            let r = record(t)
            return hit(id: r.id, kind: q.kind, point: r.point, payload: r.payload, distance: nil)
        }
        return SearchResult(total: total, hits: hits, nextAfter: more ? hits.last?.id : nil)
    }

    /// The ids of the stored pets any of these users owns (a care filter's `owner`).
    func petsOwned(by users: Set<String>) -> Set<String> {
        guard let pets = placelessSet(kind: RecordKind.pet.name)?.snapshot() else { return [] }
        var out = Set<String>()
        for (id, payload) in pets.byID {
            if case .pet(let p)? = payload?.record, p.access.owners.contains(where: users.contains) { out.insert(id) }
        }
        return out
    }

    /// The pets a filter of care entries names (its `pet_id` condition), when it has one.
    static func petsNamed(by filter: RecordFilter) -> [String]? {
        for c in filter.conditions { if case .care(.pet(let ids)) = c { return ids.sorted() } }
        return nil
    }

    /// The care entries of each pet, newest first (latest start, then id), as text ids of
    /// `placeless` (`-1 - i`): worked out once per version of the kind's records and kept,
    /// so a pet's log reads its own entries only.
    /// - Complexity: O(n log n) for n entries, once per version; then O(1) per pet.
    func entriesByPet(_ placeless: PlacelessSet.Snapshot) -> [String: [Int32]] {
        let store = self.store(kind: RecordKind.care.name)
        if let kept = store?.state.withLock({ $0.entriesByPet }), kept.placeless == placeless.version { return kept.groups }
        var keyed: [String: [(start: Int64, t: Int32)]] = [:]
        for (i, id) in placeless.ids.enumerated() {
            guard case .care(let e)? = placeless.byID[id]??.record else { continue }
            keyed[e.petID, default: []].append((e.start.seconds, -1 - Int32(i)))
        }
        // Ids are in byte order, so within one start the smaller text id (the earlier id) comes first.
        let groups = keyed.mapValues { entries in entries.sorted { $0.start != $1.start ? $0.start > $1.start : $0.t > $1.t }.map(\.t) }
        store?.state.withLock { s in
            if (s.entriesByPet?.placeless ?? 0) <= placeless.version { s.entriesByPet = (placeless.version, groups) }
        }
        return groups
    }

    /// Every record of a kind (with a place and without) in the order a listing without text
    /// returns them by `sort` (rating, name or id, ties by id): text ids (entry numbers, and
    /// `-1 - i` for the i-th record without a place).
    ///
    /// Sorted once per kind and sort, then carried across writes: a record never changes in
    /// place (a write adds a new entry and stamps the old one removed), so the next
    /// snapshot's order is this one without the entries removed since, with the entries
    /// added since put in place by binary search. A write to records without a place, or
    /// a compaction, sorts again.
    func listingOrder(kind: String, _ snap: PointSet.Snapshot, _ placeless: PlacelessSet.Snapshot?, sort: SortOrder) -> [Int32] {
        let placelessVersion = placeless?.version ?? 0
        let store = self.store(kind: kind)
        let cached = store?.state.withLock { $0.listingOrders[sort] }
        if let cached, cached.isAt(snap), cached.placeless == placelessVersion { return cached.order }
        let names = sort == .id || sort == .newest ? nil : folded(kind: kind, snap, placeless)
        struct Keyed { let primary: Double, name: String, id: String, textID: Int32 }
        func keyed(_ t: Int32) -> Keyed {
            let (id, _, p) = Engine.record(text: t, snap, placeless)
            let primary = sort == .rating ? -(Rating.of(p?.record ?? .other) ?? 0)
                : sort == .newest ? -Double(p?.record.time?.seconds ?? 0) : 0
            return Keyed(primary: primary, name: names?.name(t) ?? "", id: id, textID: t)
        }
        func before(_ a: Keyed, _ b: Keyed) -> Bool {
            Engine.listedBefore(a.primary, b.primary, names: { (a.name, b.name) }, ids: { (a.id, b.id) })
        }
        let order: [Int32]
        if let cached, cached.carries(to: snap), cached.placeless == placelessVersion, cached.covered <= snap.entryCount {
            // Carried: the old order without removed entries, and the new ones placed.
            var added = (cached.covered..<snap.entryCount).compactMap { i in
                snap.isLiveEntry(Int32(i)) ? keyed(Int32(i)) : nil
            }
            added.sort(by: before)
            let kept = cached.order.filter { $0 < 0 || snap.isLiveEntry($0) }
            var merged: [Int32] = []
            merged.reserveCapacity(kept.count + added.count)
            var from = 0
            for a in added {
                // First kept record that sorts after `a`.
                var lo = from, hi = kept.count
                while lo < hi {
                    let mid = (lo + hi) >> 1
                    if before(keyed(kept[mid]), a) { lo = mid + 1 } else { hi = mid }
                }
                merged += kept[from..<lo]
                merged.append(a.textID)
                from = lo
            }
            merged += kept[from...]
            order = merged
        } else {
            var all: [Keyed] = snap.allLive().map { keyed($0.index) }
            if let placeless { all += placeless.ids.indices.map { keyed(-1 - Int32($0)) } }
            all.sort(by: before)
            order = all.map(\.textID)
        }
        let kept = ListingOrder(version: snap.version, generation: snap.generation, placeless: placelessVersion,
                                covered: snap.entryCount, order: order)
        store?.state.withLock { $0.listingOrders.keepNewest(kept, for: sort) }
        return order
    }

    /// The names of a kind's records folded for sorting by name (``TextFolding/fold(_:)``
    /// of ``Rating/name(_:)``): a listing by name then costs no folding per record per
    /// request. Names are kept by entry number and carried across writes, which fold only
    /// the entries added since (a record never changes in place); names of records without
    /// a place are folded again when those change.
    func folded(kind: String, _ snap: PointSet.Snapshot, _ placeless: PlacelessSet.Snapshot?) -> FoldedNames {
        let placelessVersion = placeless?.version ?? 0
        let store = self.store(kind: kind)
        let cached = store?.state.withLock { $0.foldedNames }
        if let cached, cached.isAt(snap), cached.placeless == placelessVersion { return cached }
        func name(_ p: RecordPayload?) -> String { TextFolding.fold(Rating.name(p?.record ?? .other)) }
        // Names carry to a later snapshot of the same generation: an entry removed by then
        // stays removed, and the entries added since are folded now.
        let carried = cached.flatMap { $0.carries(to: snap) ? $0 : nil }
        var points = carried?.points ?? []
        let from = min(points.count, snap.entryCount)
        if points.count < snap.entryCount { points += [String](repeating: "", count: snap.entryCount - points.count) }
        for i in from..<snap.entryCount where snap.isLiveEntry(Int32(i)) {
            points[i] = name(Engine.payload(snap.entry(EntryRef(index: Int32(i)))))
        }
        let others: [String]
        if let carried, carried.placeless == placelessVersion {
            others = carried.placelessNames
        } else {
            others = placeless.map { p in p.ids.map { name(p.byID[$0]!) } } ?? []
        }
        let names = FoldedNames(version: snap.version, generation: snap.generation, placeless: placelessVersion,
                                points: points, placelessNames: others)
        store?.state.withLock { $0.foldedNames.keepNewest(names) }
        return names
    }

    /// The listing order: the primary key (rating or relevance, negated; 0 otherwise)
    /// ascending, then the folded name, then the id, both by UTF-8 bytes. Names and ids are
    /// read only when the keys before them tie.
    static func listedBefore(_ a: Double, _ b: Double, names: () -> (String, String), ids: () -> (String, String)) -> Bool {
        if a != b { return a < b }
        let (an, bn) = names()
        if an != bn { return an.utf8.lexicographicallyPrecedes(bn.utf8) }
        let (ai, bi) = ids()
        return ai.utf8.lexicographicallyPrecedes(bi.utf8)
    }

    /// The record with text id `t`: an entry number of `snap`, or `-1 - i` for the i-th
    /// record of `placeless`.
    static func record(text t: Int32, _ snap: PointSet.Snapshot,
                       _ placeless: PlacelessSet.Snapshot?) -> (id: String, point: GeoPoint?, payload: RecordPayload?) {
        if t >= 0 {
            let e = snap.entry(EntryRef(index: t))
            return (e.id, e.point, Engine.payload(e))
        }
        let id = placeless!.ids[Int(-1 - t)]
        return (id, nil, placeless!.byID[id]!)
    }

    /// Cuts matches to one page in `before` order: those strictly after the record `after`
    /// (when given), the first `limit` of them. Returns true when more follow.
    ///
    /// Only the page is sorted: when more than `limit` match, the first `limit` are picked
    /// with ``Swift/Sequence/smallest(_:by:)`` (m log limit comparisons for m matches, not m log m), since a
    /// listing pages through thousands of records 20 at a time. `sortingAll`, when given,
    /// sorts a whole array into `before` order by a faster route (a radix sort) and is used
    /// instead, the page then cut from its front.
    ///
    /// - Throws: `not_found` at `after` when that record is not among the matches.
    static func page<T>(_ items: inout [T], after: String?, limit: Int, id: (T) -> String,
                        by before: (T, T) -> Bool, sortingAll: ((inout [T]) -> Void)? = nil) throws(ScoutError) -> Bool {
        if let after {
            guard let cursor = items.first(where: { id($0) == after }) else {
                throw ScoutError(.notFound, "the after id is not among this query's matches (removed, or the query changed)", path: "after")
            }
            items = items.filter { before(cursor, $0) }
        }
        let more = items.count > limit
        if let sortingAll {
            sortingAll(&items)
            if more { items.removeLast(items.count - limit) }
        } else if more { items = items.smallest(limit, by: before) } else { items.sort(by: before) }
        return more
    }

    /// Records of a kind by id, in the order asked; `nil` where a record does not exist.
    /// Privacy applies as in every answer (a dog's place is its published cell).
    ///
    /// ```swift
    /// let found = try engine.get(kind: "shelter", ids: ["shelter-0001", "nope"])   // [hit, nil]
    /// ```
    /// - Throws: `not_found` for a kind never loaded; `limit_exceeded` past
    ///   ``maximumGetIds`` ids.
    public func get(kind typed: RecordKind, ids: [String], user: String? = nil) throws(ScoutError) -> [SearchHit?] {
        let kind = typed.name
        try PointRecord.validateKind(kind, path: "kind")
        guard ids.count <= Engine.maximumGetIds else {
            throw ScoutError(.limitExceeded, "ids may hold at most \(Engine.maximumGetIds) ids", path: "ids")
        }
        let set = try loadedSet(kind: kind)
        let access = self.access(kind: typed, user: user)
        return try consistentRead { () throws(ScoutError) in
            let placeless = placelessSet(kind: kind)?.snapshot()
            return ids.map { id in
                if let e = set.entry(id: id) {
                    let payload = Engine.payload(e)
                    return access.allows(payload) ? hit(id: id, kind: typed, point: e.point, payload: payload, distance: nil) : nil
                }
                if let p = placeless?.byID[id] {
                    return access.allows(p) ? hit(id: id, kind: typed, point: nil, payload: p, distance: nil) : nil
                }
                return nil
            }
        }
    }

    /// Most ids one ``get(kind:ids:)`` takes.
    public static let maximumGetIds = 1000
}

/// The folded names of a kind's records at one snapshot (``Engine/folded(kind:_:_:)``):
/// by entry number for records with a place, by position in the placeless snapshot's
/// ids for those without.
struct FoldedNames: Sendable, SnapshotStamped {
    let version: UInt64
    let generation: Int
    let placeless: UInt64
    let points: [String]
    let placelessNames: [String]

    /// The folded name of the record with text id `textID` (an entry number, or `-1 - i`
    /// for the i-th record without a place).
    func name(_ textID: Int32) -> String {
        textID >= 0 ? points[Int(textID)] : placelessNames[Int(-1 - textID)]
    }
}

/// A kind's records in the order of one listing sort at one snapshot (``Engine/listingOrder(kind:_:_:sort:)``).
struct ListingOrder: Sendable, SnapshotStamped {
    let version: UInt64
    let generation: Int
    let placeless: UInt64
    /// Entries below this number were placed (or found removed).
    let covered: Int
    let order: [Int32]
}
