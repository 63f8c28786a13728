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
        try PointRecord.validateKind(q.kind, path: "kind")
        guard q.limit >= 1 else { throw ScoutError(.invalidRequest, "limit must be at least 1", path: "limit") }
        guard q.limit <= SearchQuery.maximumLimit else {
            throw ScoutError(.limitExceeded, "limit must be at most \(SearchQuery.maximumLimit)", path: "limit")
        }
        try Engine.validateText(q.text)
        let typed = Catalog.typedKinds.contains(q.kind)
        let sort = q.sort ?? (q.text != nil ? .relevance : typed ? .name : .id)
        switch sort {
        case .distance:
            throw ScoutError(.invalidRequest, "sort by distance needs an area (near and radius_m, bbox, within or along)", path: "sort")
        case .relevance where q.text == nil:
            throw ScoutError(.invalidRequest, "sort by relevance needs text", path: "sort")
        case .rating where !Engine.ratedKinds.contains(q.kind):
            throw ScoutError(.invalidRequest, "sort by rating applies to \(Engine.ratedKinds.joined(separator: ", "))", path: "sort")
        default: break
        }
        if q.from != nil {
            throw ScoutError(.invalidRequest, "from needs an area; a listing has no distances", path: "from")
        }
        let set = try loadedSet(kind: q.kind)
        let (snap, placeless) = try consistentRead { () throws(ScoutError) in (set.snapshot(), placelessSet(kind: q.kind)?.snapshot()) }
        guard let text = q.text else { return try page(of: listingOrder(kind: q.kind, snap, placeless, sort: sort), q, snap, placeless) }
        let index = textIndex(kind: q.kind, snap, placeless)

        // Only the text's matches are read (not every record), and each is kept as its
        // sort key and text id alone; names and ids are read when a comparison needs them.
        func record(_ t: Int32) -> (id: String, point: GeoPoint?, payload: RecordPayload?) {
            if t >= 0 {
                let e = snap.entry(EntryRef(index: t))
                return (e.id, e.point, Engine.payload(e))
            }
            let id = placeless!.ids[Int(-1 - t)]
            return (id, nil, placeless!.byID[id]!)
        }
        /// A match with its first sort key.
        struct Keyed { let primary: Double, score: Double, textID: Int32 }
        var keyed: [Keyed] = []
        index.forEachMatch(catalog.synonyms.canonical(text)) { m in
            let needsRecord = !q.filter.isEmpty || sort == .rating
            let payload = needsRecord ? record(m.id).payload : nil
            if !q.filter.isEmpty && !q.filter.matches(payload?.record ?? .other) { return }
            let primary: Double
            switch sort {
            case .rating: primary = -(Rating.of(payload?.record ?? .other) ?? 0)
            case .relevance: primary = -m.score
            case .id, .name, .distance: primary = 0
            }
            keyed.append(Keyed(primary: primary, score: m.score, textID: m.id))
        }
        // Names: the kind's folded names (relevance ties are common: records with the same
        // words score the same).
        let names = sort == .id ? nil : folded(kind: q.kind, snap, placeless)
        func name(_ t: Int32) -> String { names?.name(t) ?? "" }
        func before(_ a: Keyed, _ b: Keyed) -> Bool {
            if a.primary != b.primary { return a.primary < b.primary }
            let an = name(a.textID), bn = name(b.textID)
            if an != bn { return an.utf8.lexicographicallyPrecedes(bn.utf8) }
            return record(a.textID).id.utf8.lexicographicallyPrecedes(record(b.textID).id.utf8)
        }
        let total = keyed.count
        let more = try Engine.page(&keyed, after: q.after, limit: q.limit, id: { record($0.textID).id }, by: before)
        let hits = keyed.map { k in
            let r = record(k.textID)
            return hit(id: r.id, kind: q.kind, point: r.point, payload: r.payload, distance: nil, relevance: k.score)
        }
        return SearchResult(total: total, hits: hits, nextAfter: more ? hits.last?.id : nil)
    }

    /// A page of a listing without text from the kind's records in listing order: the
    /// records after `q.after` that pass the filter, the first `q.limit` of them. Without a
    /// filter this reads only the page's records (and, with `after`, the ids before it);
    /// with one, it tests every record once, for the total.
    private func page(of order: [Int32], _ q: SearchQuery, _ snap: PointSet.Snapshot,
                      _ placeless: PlacelessSet.Snapshot?) throws(ScoutError) -> SearchResult {
        func record(_ t: Int32) -> (id: String, point: GeoPoint?, payload: RecordPayload?) {
            if t >= 0 {
                let e = snap.entry(EntryRef(index: t))
                return (e.id, e.point, Engine.payload(e))
            }
            let id = placeless!.ids[Int(-1 - t)]
            return (id, nil, placeless!.byID[id]!)
        }
        func matches(_ t: Int32) -> Bool { q.filter.isEmpty || q.filter.matches(record(t).payload?.record ?? .other) }
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
        let total = q.filter.isEmpty ? order.count : order.reduce(0) { $0 + (matches($1) ? 1 : 0) }
        let hits = page.map { t in
            let r = record(t)
            return hit(id: r.id, kind: q.kind, point: r.point, payload: r.payload, distance: nil, relevance: nil)
        }
        return SearchResult(total: total, hits: hits, nextAfter: more ? hits.last?.id : nil)
    }

    /// Every record of a kind (with a place and without) in the order a listing without text
    /// returns them by `sort` (rating, name or id, ties by id): text ids (entry numbers, and
    /// `-1 - i` for the i-th record without a place). Sorted once per snapshot of the kind
    /// and sort, and kept until a write makes a new snapshot.
    func listingOrder(kind: String, _ snap: PointSet.Snapshot, _ placeless: PlacelessSet.Snapshot?, sort: SortOrder) -> [Int32] {
        let placelessVersion = placeless?.version ?? 0
        let key = "\(sort.rawValue) \(kind)"
        if let cached = listingOrders.withLock({ $0[key] }), cached.version == snap.version, cached.placeless == placelessVersion {
            return cached.order
        }
        let names = sort == .id ? nil : folded(kind: kind, snap, placeless)
        struct Keyed { let primary: Double, name: String, id: String, textID: Int32 }
        var keyed: [Keyed] = []
        func add(_ id: String, _ textID: Int32, _ payload: RecordPayload?) {
            let primary = sort == .rating ? -(Rating.of(payload?.record ?? .other) ?? 0) : 0
            keyed.append(Keyed(primary: primary, name: names?.name(textID) ?? "", id: id, textID: textID))
        }
        for r in snap.allLive() {
            let e = snap.entry(r)
            add(e.id, r.index, Engine.payload(e))
        }
        if let placeless {
            for (i, id) in placeless.ids.enumerated() { add(id, -1 - Int32(i), placeless.byID[id]!) }
        }
        keyed.sort { a, b in
            if a.primary != b.primary { return a.primary < b.primary }
            if a.name != b.name { return a.name.utf8.lexicographicallyPrecedes(b.name.utf8) }
            return a.id.utf8.lexicographicallyPrecedes(b.id.utf8)
        }
        let order = keyed.map(\.textID)
        listingOrders.withLock { $0[key] = ListingOrder(version: snap.version, placeless: placelessVersion, order: order) }
        return order
    }

    /// The names of a kind's records folded for sorting by name (``TextFolding/fold(_:)``
    /// of ``Rating/name(_:)``), folded once per snapshot of its points and of its records
    /// without a place, and kept until a write makes a new one: a listing by name then costs
    /// no folding per record per request.
    func folded(kind: String, _ snap: PointSet.Snapshot, _ placeless: PlacelessSet.Snapshot?) -> FoldedNames {
        let placelessVersion = placeless?.version ?? 0
        if let cached = foldedNames.withLock({ $0[kind] }), cached.version == snap.version, cached.placeless == placelessVersion {
            return cached
        }
        func name(_ p: RecordPayload?) -> String { TextFolding.fold(Rating.name(p?.record ?? .other)) }
        let live = snap.allLive()
        var points = [String](repeating: "", count: Int(live.last?.index ?? -1) + 1)
        for r in live { points[Int(r.index)] = name(Engine.payload(snap.entry(r))) }
        let others = placeless.map { p in p.ids.map { name(p.byID[$0]!) } } ?? []
        let names = FoldedNames(version: snap.version, placeless: placelessVersion, points: points, placelessNames: others)
        foldedNames.withLock { $0[kind] = names }
        return names
    }

    /// Cuts matches to one page in `before` order: those strictly after the record `after`
    /// (when given), the first `limit` of them. Returns true when more follow.
    ///
    /// Only the page is sorted: when more than `limit` match, the first `limit` are picked
    /// with ``Swift/Sequence/smallest(_:by:)`` (m log limit comparisons for m matches, not m log m), since a
    /// listing pages through thousands of records 20 at a time.
    ///
    /// - Throws: `not_found` at `after` when that record is not among the matches.
    static func page<T>(_ items: inout [T], after: String?, limit: Int, id: (T) -> String,
                        by before: (T, T) -> Bool) throws(ScoutError) -> Bool {
        if let after {
            guard let cursor = items.first(where: { id($0) == after }) else {
                throw ScoutError(.notFound, "the after id is not among this query's matches (removed, or the query changed)", path: "after")
            }
            items = items.filter { before(cursor, $0) }
        }
        let more = items.count > limit
        if more { items = items.smallest(limit, by: before) } else { items.sort(by: before) }
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
    public func get(kind: String, ids: [String]) throws(ScoutError) -> [SearchHit?] {
        try PointRecord.validateKind(kind, path: "kind")
        guard ids.count <= Engine.maximumGetIds else {
            throw ScoutError(.limitExceeded, "ids may hold at most \(Engine.maximumGetIds) ids", path: "ids")
        }
        let set = try loadedSet(kind: kind)
        return try consistentRead { () throws(ScoutError) in
            let placeless = placelessSet(kind: kind)?.snapshot()
            return ids.map { id in
                if let e = set.entry(id: id) {
                    return hit(id: id, kind: kind, point: e.point, payload: Engine.payload(e), distance: nil, relevance: nil)
                }
                if let p = placeless?.byID[id] {
                    return hit(id: id, kind: kind, point: nil, payload: p, distance: nil, relevance: nil)
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
struct FoldedNames: Sendable {
    let version: UInt64
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
struct ListingOrder: Sendable {
    let version: UInt64
    let placeless: UInt64
    let order: [Int32]
}
