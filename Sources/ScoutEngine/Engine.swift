import Foundation
import ScoutCatalog
import ScoutCatalogJSON
import ScoutCore
import ScoutGeodesy
import ScoutGeometry
import ScoutIndex
import ScoutJSON
import ScoutText
import Synchronization

/// Scout's library facade: points of any number of kinds, loaded, updated and searched.
///
/// ```swift
/// let engine = Engine(catalog: try Catalog.load(dataDirectory: "data"))
/// try engine.load(path: "data/sample/dogs.jsonl")
/// let friendly = try RecordFilter.dogs(.goodWithDogs(atLeast: 4), .available)
/// let near = try engine.nearest(NearestQuery(kind: "dog", from: GeoPoint(lat: 53.27, lon: -9.06), k: 5, filter: friendly))
/// ```
/// Records of the kinds `dog`, `gym`, `shelter`, `animal`, `article`, `program` and `lover` are typed (see `docs/data-model.md`):
/// they are validated on the way in and can be filtered, text-searched and rated. Dogs'
/// locations leave the engine approximately unless it was created with `privacy: .exact`.
///
/// Threading: every method is safe to call from any thread. Searches run concurrently and
/// never wait for writers; writes (load, upsert, remove) are applied one at a time, each
/// atomically per kind.
public final class Engine: Sendable {
    /// Each kind's records and what is derived from them (``KindStore``).
    private let stores = Mutex<[String: KindStore]>([:])
    let writeLock = Mutex(())
    /// A sequence lock over writes that touch a kind holding records without a place: odd
    /// while such a write is applied to the two stores (point set, placeless set), so a
    /// reader of both can tell that it saw them at one moment (``consistentRead(_:)``).
    let storeSequence = Atomic<UInt64>(0)
    /// Per kind: bitmaps of the entries that often-asked filters select (``FilterMaps``).
    let filterMaps = Mutex(FilterMaps())
    /// Packed trees of the records rare categorical conditions allow, per kind and snapshot.
    let filterTrees = Mutex(FilterTrees())
    /// The plans of the filters last asked, per filter and snapshot (``PlanMemo``).
    let planMemo = Mutex(PlanMemo())
    /// Value columns of the fields numeric filters name, and what their ranges matched.
    let rangeMatches = Mutex(RangeMatches())
    /// The reference files of the snapshot this engine was restored from (`nil` otherwise).
    private let snapshotReference = Mutex<SnapshotReferenceFiles?>(nil)
    /// The journal writes are recorded in before they are applied (``WriteJournal``).
    let journalSlot = Mutex<(any WriteJournal)?>(nil)
    /// PROJ transformations to lon/lat, cached per CRS.
    package let transforms = CRSTransform.Pool()
    /// Prepared polygons of recent searches, reused when the same area comes again.
    package let regions = RegionCache()
    /// Breeds, places and time zones records are read against.
    public let catalog: Catalog
    /// How dogs' locations leave the engine.
    public let privacy: LocationPrivacy

    /// Time-zone polygons for points given without a zone (`nil`: none loaded).
    public let timeZones: TimeZoneMap?

    /// What ``load(path:kind:maximumBytes:)`` may take: a file whose load would not fit is
    /// refused before it is read or parsed.
    public let memory: MemoryBudget

    /// Creates an empty engine over reference data; `memory` bounds what loading files may take.
    public init(catalog: Catalog = Catalog(), privacy: LocationPrivacy = .approximate, timeZones: TimeZoneMap? = nil,
                memory: MemoryBudget = MemoryBudget()) {
        self.catalog = catalog
        self.privacy = privacy
        self.timeZones = timeZones
        self.memory = memory
    }

    /// The store of a kind, created on first use when `create` is true.
    func store(kind: String, create: Bool = false) -> KindStore? {
        stores.withLock { s in
            if let store = s[kind] { return store }
            guard create else { return nil }
            let store = KindStore(points: PointSet())
            watchCompactions(of: store.points, kind: kind)
            s[kind] = store
            return store
        }
    }

    /// The point set of a kind, created on first use when `create` is true.
    package func pointSet(kind: String, create: Bool = false) -> PointSet? { store(kind: kind, create: create)?.points }

    /// The records without a place of a kind, created on first use when `create` is true
    /// (with the kind's point set, maybe empty).
    func placelessSet(kind: String, create: Bool = false) -> PlacelessSet? {
        store(kind: kind, create: create)?.state.withLock { s in
            if let set = s.placeless { return set }
            guard create else { return nil }
            let set = PlacelessSet()
            s.placeless = set
            return set
        }
    }

    /// Runs `read` over both stores of the engine so that it sees no write that touches both
    /// half done: optimistically (a sequence lock: the read is retried if such a write ran
    /// during it), and after a few tries under the write lock, so a reader always finishes.
    func consistentRead<T>(_ read: () throws(ScoutError) -> T) throws(ScoutError) -> T {
        for _ in 0..<4 {
            let before = storeSequence.load(ordering: .sequentiallyConsistent)
            if before & 1 == 1 { sched_yield(); continue }
            let value = try read()
            if storeSequence.load(ordering: .sequentiallyConsistent) == before { return value }
        }
        return try writeLock.withLock { (_: inout ()) throws(ScoutError) -> T in try read() }
    }

    /// The point set of a kind the engine has held, or `not_found` naming the closest kinds
    /// ("gyms" → "gym"). A kind emptied by removals is still known and answers with nothing.
    func loadedSet(kind: String, path: String = "kind") throws(ScoutError) -> PointSet {
        if let set = pointSet(kind: kind) { return set }
        let known = kinds
        let list = known.isEmpty ? "no records are loaded" : "loaded kinds: \(known.joined(separator: ", "))"
        throw ScoutError(.notFound, "no records of that kind have been loaded\(Suggestions.hint(for: kind, among: known)); \(list)",
                         path: path)
    }

    /// Every kind's point set, as it stands.
    func setsNow() -> [String: PointSet] { stores.withLock { $0 }.mapValues(\.points) }

    /// Every kind's records without a place, as they stand.
    func placelessSetsNow() -> [String: PlacelessSet] { stores.withLock { $0 }.compactMapValues { $0.state.withLock { $0.placeless } } }

    /// The reference files of the snapshot this engine was restored from (none otherwise):
    /// where a service finds the recommender's `activities.json` and `weights.json` after a
    /// restore (`Recommender.load(activities:weights:prior:priorSource:breeds:)`).
    public var referenceFiles: SnapshotReferenceFiles { snapshotReference.withLock { $0 } ?? SnapshotReferenceFiles() }

    /// Kinds with at least one point ever loaded, sorted.
    public var kinds: [String] { stores.withLock { Array($0.keys) }.sorted() }

    /// The IANA zone of a point from the time-zone map, or `nil` without one.
    public func timeZoneIdentifier(at point: GeoPoint) -> String? { timeZones?.zoneIdentifier(at: point) }

    // MARK: Writing

    /// Inserts or replaces records (by kind and id). All are validated first — typed kinds
    /// field by field, places required or refused by kind (``Catalog/placement(kind:)``) —
    /// and on any error nothing changes. Returns the number applied.
    @discardableResult
    public func upsert(_ records: [PointRecord]) throws(ScoutError) -> Int {
        let prepared = try prepare(records)
        try write { () throws(ScoutError) in
            // Under the write lock, so a pet or shelter removed meanwhile is not taken for present.
            try self.checkReferences(records, prepared)
            return ({ .upsert(prepared.stored) }, { self.apply(prepared) })
        }
        return records.count
    }

    /// Records checked and ready to apply, by kind.
    struct PreparedWrite {
        var located: [String: [PointSet.Record]] = [:]
        var placeless: [String: [(id: String, payload: RecordPayload?)]] = [:]

        /// The records as they will be stored (dogs at their published cells), kind by
        /// kind, those with a place first: upserted again, they are grouped and applied the
        /// same way, so a journal's replay reaches the same state.
        var stored: [PointRecord] {
            var out: [PointRecord] = []
            for kind in Set(located.keys).union(placeless.keys).sorted() {
                for r in located[kind] ?? [] {
                    out.append(PointRecord(id: r.id, kind: RecordKind(kind), point: r.point, fields: (r.payload as? RecordPayload)?.fields ?? []))
                }
                for r in placeless[kind] ?? [] {
                    out.append(PointRecord(id: r.id, kind: RecordKind(kind), point: nil, fields: r.payload?.fields ?? []))
                }
            }
            return out
        }
    }

    /// Validates records and builds what the index keeps of them (no lock needed). Errors
    /// in typed fields are reported under `fieldPath` when given (a patch's `set`).
    func prepare(_ records: [PointRecord], fieldPath: String? = nil) throws(ScoutError) -> PreparedWrite {
        var out = PreparedWrite()
        // What a kind's records share, worked out once for each run of records of one kind.
        var last: (name: String, placement: Placement, hidden: Bool)?
        for (i, r) in records.enumerated() {
            // Where the record is, for errors only: built when one is thrown.
            func at() -> String { r.source ?? "records[\(i)]" }
            let kind = r.kind.name
            if last?.name != kind {
                do throws(ScoutError) { try PointRecord.validateKind(kind, path: "kind") } catch {
                    throw ScoutError(error.code, error.message, path: "\(at()).kind")
                }
                last = (kind, r.kind.definition.placement, privacy.hides(kind: kind))
            }
            guard !r.id.isEmpty else { throw ScoutError(.invalidRequest, "id must not be empty", path: "\(at()).id") }
            let placement = last!.placement
            if r.point == nil && placement == .required {
                throw ScoutError(.invalidRequest, "records of kind \(kind) need lat and lon", path: "\(at()).lat")
            }
            if r.point != nil && placement == .none {
                throw ScoutError(.invalidRequest, "records of kind \(kind) have no place: drop lat and lon", path: "\(at()).lat")
            }
            if let p = r.point { _ = try p.validated(path: at()) }
            // An untyped kind has no fields to read: no path to build.
            let typed: CatalogRecord
            if case .own = r.kind { typed = .other } else {
                typed = try catalog.record(kind: r.kind, fields: r.fields, path: fieldPath ?? r.source.map { "\($0): " } ?? at())
            }
            let payload: RecordPayload?
            if case .other = typed, r.fields.isEmpty { payload = nil } else { payload = RecordPayload(fields: r.fields, record: typed) }
            guard let point = r.point else {
                out.placeless[kind, default: []].append((r.id, payload))
                continue
            }
            // Privacy by construction: a hidden kind's exact point never enters the index, so
            // every answer about it (membership, order, distance, score, cursor) is a function
            // of the published cell only.
            let shown = last!.hidden ? privacy.shown(point, kind: kind) : point
            out.located[kind, default: []].append(PointSet.Record(id: r.id, point: shown, payload: payload))
        }
        // A kind whose records may or may not have a place can get one id twice in a batch,
        // once with a place and once without: the last one wins, as within each store. Only
        // a kind with records of both sorts in this batch can, so only its records are read
        // again (a big load of located records builds no table of its ids here).
        for kind in out.located.keys where out.placeless[kind] != nil {
            var placedLast: [String: Bool] = [:]
            for r in records where r.kind.name == kind { placedLast[r.id] = r.point != nil }
            out.located[kind]!.removeAll { placedLast[$0.id] == false }
            out.placeless[kind]!.removeAll { placedLast[$0.id] == true }
        }
        return out
    }

    /// Applies prepared records; the caller holds ``writeLock``. A record that moves between
    /// having a place and not is taken out of the other store.
    func apply(_ w: PreparedWrite) {
        let w = derivingShelters(w)
        // Records may move between the two stores: readers of both must not see half of it.
        let twoStores = !w.placeless.isEmpty || w.located.keys.contains { placelessSet(kind: $0) != nil }
        if twoStores { storeSequence.add(1, ordering: .sequentiallyConsistent) }
        defer { if twoStores { storeSequence.add(1, ordering: .sequentiallyConsistent) } }
        for (kind, batch) in w.located {
            // Validated in `prepare`, so this cannot throw.
            _ = try? pointSet(kind: kind, create: true)!.upsert(batch)
            placelessSet(kind: kind)?.remove(ids: batch.map(\.id))
        }
        for (kind, batch) in w.placeless {
            // The kind is known to every query (spatial ones find nothing in it).
            let located = pointSet(kind: kind, create: true)!
            placelessSet(kind: kind, create: true)!.upsert(batch)
            located.remove(ids: batch.map(\.id))
        }
    }

    /// Removes records of a kind by id; unknown ids are ignored. Returns how many went.
    @discardableResult
    public func remove(kind typed: RecordKind, ids: [String]) throws(ScoutError) -> Int {
        let kind = typed.name
        try PointRecord.validateKind(kind, path: "kind")
        guard let set = pointSet(kind: kind) else { return 0 }
        return try write { () throws(ScoutError) in
            let placeless = self.placelessSet(kind: kind)
            // Only ids that are there are journalled; removing nothing is no change.
            let change = { () -> EngineChange? in
                let placelessNow = placeless?.snapshot()
                let present = ids.filter { set.entry(id: $0) != nil || placelessNow?.byID[$0] != nil }
                return present.isEmpty ? nil : .remove(kind: kind, ids: present)
            }
            return (change, { () -> Int in
                // A pet's care log goes with it (so a later pet of the same id, perhaps another
                // user's, never inherits it); a journal's replay of the removal does the same.
                if typed == .pet { self.removeCareEntries(ofPets: Set(ids)) }
                // A shelter's animals go with it, and an animal leaves its shelter's list.
                if typed == .shelter { _ = self.pointSet(kind: RecordKind.animal.name)?.remove(ids: self.animals(ofShelters: ids)) }
                if typed == .animal { self.unlistAnimals(ids) }
                guard let placeless else { return set.remove(ids: ids) }
                self.storeSequence.add(1, ordering: .sequentiallyConsistent)
                defer { self.storeSequence.add(1, ordering: .sequentiallyConsistent) }
                return set.remove(ids: ids) + placeless.remove(ids: ids)
            })
        }
    }

    /// Loads a file of records (JSON Lines, GeoJSON FeatureCollection of Points, or CSV
    /// `id,lat,lon[,kind]`); see ``RecordFile``. A bad record fails the whole load with
    /// its line and field, and the engine stays as it was. A file larger than `maximumBytes`
    /// is refused before it is read, and one whose load would not fit in ``memory``
    /// (`limit_exceeded`, saying how much it would need and how much is left) before it is
    /// read or parsed.
    @discardableResult
    public func load(path: String, kind typed: RecordKind? = nil, maximumBytes: Int = RecordFile.maximumFileBytes) throws(ScoutError) -> Int {
        let kind = typed?.name
        if let kind { try PointRecord.validateKind(kind, path: "kind") }
        let records = try RecordFile.read(path: path, defaultKind: kind, maximumBytes: maximumBytes, memory: memory)
        try upsert(records)
        // The kinds given places (a file's records are mostly of one kind: compared with
        // the previous record's, not hashed each).
        var placed = Set<String>(), previous: String?
        for r in records where r.point != nil && r.kind.name != previous {
            previous = r.kind.name
            placed.insert(r.kind.name)
        }
        for k in placed {
            pointSet(kind: k)?.pack()
            prepareFilters(kind: k)
        }
        return records.count
    }

    // MARK: Snapshots

    /// Writes every kind's live records (with a place and without), the reference files and
    /// the privacy mode to a snapshot file (`docs/snapshot.md`), atomically: a temporary file
    /// renamed over `path`.
    ///
    /// The reference files are read from `dataDirectory` (which must be the directory the
    /// engine's catalogue came from); without one, those of the snapshot the engine was
    /// restored from, if any. The records are taken at one moment (writes wait only for
    /// that, not for the export); searches never wait.
    ///
    /// ```swift
    /// try engine.writeSnapshot(to: "catalogue.snap", dataDirectory: "data")
    /// let again = try Engine(snapshot: "catalogue.snap")   // answers exactly as `engine`
    /// ```
    /// - Complexity: O(n log n) for n live records (each kind's tree is packed once).
    public func writeSnapshot(to path: String, dataDirectory: String? = nil) throws(ScoutError) {
        let reference: SnapshotReferenceFiles
        if let dataDirectory { reference = try SnapshotReferenceFiles.read(dataDirectory: dataDirectory) } else {
            reference = snapshotReference.withLock { $0 } ?? SnapshotReferenceFiles()
        }
        let state = writeLock.withLock { _ in capturedState() }
        try writeSnapshot(CapturedState(kinds: state.kinds, reference: reference), to: path)
    }

    /// An engine restored from a snapshot file: its reference data, records (with a place
    /// and without) and packed trees, checked entirely (checksums, bounds, ids, tree order;
    /// typed records re-validated) before the engine exists, so an error leaves nothing
    /// half-loaded.
    /// `privacy` must be the mode the file was written in (a file of approximate dog
    /// locations never serves exact ones). Time zones are not in snapshots: pass the map.
    ///
    /// - Throws: `not_found` when the file cannot be read; `invalid_request` naming what is
    ///   wrong and where (truncated, corrupt section, foreign file, newer format, privacy).
    /// - Complexity: O(n log n) comparisons and O(n) copies; no sorting.
    public convenience init(snapshot path: String, privacy: LocationPrivacy = .approximate,
                            timeZones: TimeZoneMap? = nil, memory: MemoryBudget = MemoryBudget()) throws(ScoutError) {
        let contents = try SnapshotFile.read(path: path, privacy: privacy)
        self.init(catalog: contents.catalog, privacy: privacy, timeZones: timeZones, memory: memory)
        let restored = contents.sets.mapValues(KindStore.init(points:))
        for (kind, set) in contents.placeless { restored[kind]?.state.withLock { $0.placeless = set } }
        stores.withLock { $0 = restored }
        snapshotReference.withLock { $0 = contents.reference }
        for kind in contents.sets.keys.sorted() {
            watchCompactions(of: contents.sets[kind]!, kind: kind)
            prepareFilters(kind: kind)
        }
    }

    // MARK: Reading

    /// Counts per kind (records with and without a place) and index memory in bytes.
    public func stats() -> [(kind: String, count: Int, indexBytes: Int)] {
        kinds.compactMap { k in
            guard let s = pointSet(kind: k) else { return nil }
            return (k, s.count + (placelessSet(kind: k)?.count ?? 0), s.indexMemoryBytes)
        }
    }

    /// Runs a search. Errors name the offending field.
    ///
    /// Filters and text are tested inside the traversal; `total` counts every match;
    /// with `after`, the page continues after that id in the same order.
    public func search(_ q: SearchQuery) throws(ScoutError) -> SearchResult {
        guard let area = q.area else { return try list(q) }
        try PointRecord.validateKind(q.kind.name, path: "kind")
        guard q.limit >= 1 else { throw ScoutError(.invalidRequest, "limit must be at least 1", path: "limit") }
        guard q.limit <= SearchQuery.maximumLimit else {
            throw ScoutError(.limitExceeded, "limit must be at most \(SearchQuery.maximumLimit)", path: "limit")
        }
        try Engine.validateText(q.text)
        if let from = q.from { _ = try from.validated(path: "from") }
        var reference = q.from
        if case .radius(let c, _) = area { reference = c }
        let sort = q.sort ?? (q.text != nil ? .relevance : reference == nil ? .id : .distance)
        switch sort {
        case .distance where reference == nil:
            throw ScoutError(.invalidRequest, "sort by distance needs a reference point: give \"from\"", path: "sort")
        default: try Engine.checkSort(sort, text: q.text, kind: q.kind)
        }
        // Validate the area before looking up the kind, so bad input is an error even on an empty kind.
        var region: Region?
        var corridor: Corridor?
        switch area {
        case .radius(let c, let r):
            _ = try c.validated(path: "near")
            try Engine.validateDistance(r, path: "radius_m")
        case .box(let b):
            _ = try b.validated(path: "bbox")
        case .polygon(let shape, let crs):
            region = try regions.checkOut(Engine.regionKey(shape, crs: crs)) { () throws(ScoutError) in try makeRegion(shape, crs: crs) }
        case .corridor(let route, let d):
            corridor = try Corridor(line: route, distance: d)
        }
        defer { if let region { regions.checkIn(region) } }
        let set = try loadedSet(kind: q.kind.name)
        let (snap, placeless) = try consistentRead { () throws(ScoutError) in (set.snapshot(), placelessSet(kind: q.kind.name)?.snapshot()) }
        return try withText(q.text, words: q.words, kind: q.kind.name, snap, placeless) { (scores) throws(ScoutError) -> SearchResult in
            var disc = false
            if case .radius = area { disc = true }
            let (planned, test) = planAndTest(kind: q.kind.name, snap, q.filter, scores, choice: q.plan, withinDisc: disc)
            if planned.report.plan == .empty { return SearchResult(total: 0, hits: [], nextAfter: nil, plan: planned.report) }
            let first = planned.candidates
            let report = planned.report
            // The snapshot the area is searched in: the key's own tree for a filter-index plan.
            let walked = planned.tree ?? snap

            if case .radius(let c, let r) = area, sort == .distance, q.after == nil {
                let matches = first.map { Engine.bounded($0, snap, from: c, within: r, where: test) } ?? walked.boundedEntries(within: r, of: c, where: test)
                var result = page(snap.nearestFirst(matches, from: c, limit: q.limit), total: matches.count, snap, q, scores)
                result.plan = report
                return result
            }
            let refs: [EntryRef]
            switch area {
            case .radius(let c, let r):
                refs = first.map { Engine.bounded($0, snap, from: c, within: r, where: test).map(\.ref) } ?? walked.entries(within: r, of: c, where: test)
            case .box(let b): refs = walked.entries(in: b, where: test)
            case .polygon: refs = walked.entries(coveredBy: region!, where: test)
            case .corridor: refs = walked.entries(along: corridor!, where: test)
            }
            if sort == .distance, q.after == nil, let reference {
                let referenceECEF = WGS84.ecef(reference)
                let bounded = refs.map { r -> BoundedRef in
                    let point = snap.entry(r).point
                    let range = DistanceBounds.interval(point, reference, ecefOfB: referenceECEF)
                    return BoundedRef(ref: r, lower: range.lowerBound, upper: range.upperBound, point: point)
                }
                var result = page(snap.nearestFirst(bounded, from: reference, limit: q.limit), total: refs.count, snap, q, scores)
                result.plan = report
                return result
            }
            var result = try ordered(refs, snap, placeless, q, sort: sort, reference: reference, scores: scores)
            result.plan = report
            return result
        }
    }

    /// A first page in distance order: `top` holds the nearest `limit` of `total` matches.
    private func page(_ top: [DistancedRef], total: Int, _ snap: PointSet.Snapshot, _ q: SearchQuery, _ scores: TextMatches?) -> SearchResult {
        SearchResult(total: total, hits: top.map { hit(snap, $0.ref, kind: q.kind, distance: $0.distance, scores) },
                     nextAfter: total > q.limit ? top.last.map { snap.id(of: $0.ref) } : nil)
    }

    /// The general ordering: a sort key per match, the cursor, then the first `limit`.
    ///
    /// The keys sit in flat arrays and the sort moves `Int32` positions, so ordering costs no
    /// reference counting; ids compare by their first eight bytes (``idPrefix(_:)``) and only
    /// on a tie in full.
    private func ordered(_ refs: [EntryRef], _ snap: PointSet.Snapshot, _ placeless: PlacelessSet.Snapshot?, _ q: SearchQuery,
                         sort: SortOrder, reference: GeoPoint?, scores: TextMatches?) throws(ScoutError) -> SearchResult {
        let origin = reference.map { ($0, WGS84.ecef($0)) }
        let names = sort == .name ? folded(kind: q.kind.name, snap, placeless) : nil
        let n = refs.count
        var primary = [Double](repeating: 0, count: n), secondary = primary, distance = primary
        var prefix = [UInt64](repeating: 0, count: n)
        var ids: [String] = [], nameKeys: [String] = []
        ids.reserveCapacity(n)
        if names != nil { nameKeys.reserveCapacity(n) }
        for (k, r) in refs.enumerated() {
            let e = snap.entry(r)
            let d = origin.map { DistanceBounds.millimetres(e.point, $0.0, ecefOfB: $0.1) } ?? 0
            switch sort {
            case .distance: primary[k] = d
            case .id, .name: break
            case .rating: primary[k] = -(Rating.of(Engine.record(e)) ?? 0)
            case .relevance: primary[k] = -(scores?.scores[r.index]?.rank ?? 0)
            case .newest: primary[k] = -Double(Engine.record(e).time?.seconds ?? 0)
            }
            if sort != .id && sort != .name && sort != .newest { secondary[k] = d }
            distance[k] = d
            prefix[k] = Engine.idPrefix(e.id)
            ids.append(e.id)
            if let names { nameKeys.append(names.name(r.index)) }
        }
        // Constants from here on: the comparator captures them without exclusivity checks.
        let first = primary, second = secondary, idKey = prefix, byName = nameKeys, idOf = ids, hasNames = names != nil
        func before(_ a: Int32, _ b: Int32) -> Bool {
            let a = Int(a), b = Int(b)
            if first[a] != first[b] { return first[a] < first[b] }
            if hasNames, byName[a] != byName[b] { return byName[a].utf8.lexicographicallyPrecedes(byName[b].utf8) }
            if second[a] != second[b] { return second[a] < second[b] }
            if idKey[a] != idKey[b] { return idKey[a] < idKey[b] }
            return idOf[a].utf8.lexicographicallyPrecedes(idOf[b].utf8)
        }
        var order = (0..<Int32(n)).map { $0 }
        // By id (every answer without a reference point): a radix sort, O(1) a match.
        let byIDs: ((inout [Int32]) -> Void)? = sort == .id && n >= Engine.radixOrderThreshold
            ? { Engine.sortByIDs(&$0, prefix: idKey, ids: idOf) } : nil
        let more = try Engine.page(&order, after: q.after, limit: q.limit, id: { idOf[Int($0)] }, by: before, sortingAll: byIDs)
        let hits = order.map { k in
            hit(snap, refs[Int(k)], kind: q.kind, distance: reference == nil ? nil : distance[Int(k)], scores)
        }
        return SearchResult(total: n, hits: hits, nextAfter: more ? order.last.map { idOf[Int($0)] } : nil)
    }

    /// Matches from which an answer by id is radix-sorted (``sortByIDs(_:prefix:ids:)``)
    /// rather than by comparisons: 64.
    static let radixOrderThreshold = 64

    /// Sorts match positions by their ids' bytes: a radix sort by the ids' first eight bytes
    /// (`prefix`, ``idPrefix(_:)``), then each run of equal prefixes by the whole ids. The
    /// order `sort: id` gives, at a cost per match that does not grow with the matches
    /// (unless most ids share their first eight bytes, when the runs are compared).
    static func sortByIDs(_ order: inout [Int32], prefix: [UInt64], ids: [String]) {
        struct Keyed: BitwiseCopyable {
            var prefix: UInt64
            var position: Int32
        }
        var keyed = order.map { Keyed(prefix: prefix[Int($0)], position: $0) }
        RadixSort.sort(&keyed, byBits: 0..<64, key: { $0.prefix },
                       ties: { ids[Int($0.position)].utf8.lexicographicallyPrecedes(ids[Int($1.position)].utf8) })
        for (i, k) in keyed.enumerated() { order[i] = k.position }
    }

    /// An id's first eight UTF-8 bytes, big-endian, zero-padded: ids whose prefixes differ
    /// are in the same order as the prefixes; equal prefixes need the whole ids compared.
    @inline(__always)
    static func idPrefix(_ id: String) -> UInt64 {
        var key: UInt64 = 0, shift: UInt64 = 56
        for byte in id.utf8.prefix(8) {
            key |= UInt64(byte) << shift
            shift &-= 8
        }
        return key
    }

    /// The k nearest points of a kind, by geodesic distance then id; the filter and text
    /// run inside the search, so k matching points come back whenever k exist.
    public func nearest(_ q: NearestQuery) throws(ScoutError) -> SearchResult {
        try PointRecord.validateKind(q.kind.name, path: "kind")
        _ = try q.from.validated(path: "from")
        guard q.k >= 1 else { throw ScoutError(.invalidRequest, "k must be at least 1", path: "k") }
        guard q.k <= SearchQuery.maximumLimit else {
            throw ScoutError(.limitExceeded, "k must be at most \(SearchQuery.maximumLimit)", path: "k")
        }
        if let m = q.maxDistance { try Engine.validateDistance(m, path: "max_distance_m") }
        try Engine.validateText(q.text)
        let set = try loadedSet(kind: q.kind.name)
        let (snap, placeless) = try consistentRead { () throws(ScoutError) in (set.snapshot(), placelessSet(kind: q.kind.name)?.snapshot()) }
        return try withText(q.text, words: q.words, kind: q.kind.name, snap, placeless) { (scores) throws(ScoutError) -> SearchResult in
            let maxDistance = q.maxDistance ?? .infinity
            let (planned, test) = planAndTest(kind: q.kind.name, snap, q.filter, scores, choice: q.plan)
            let found: [DistancedRef]
            switch planned.report.plan {
            case .empty: found = []
            case .filterFirst:
                found = snap.nearestFirst(Engine.bounded(planned.candidates!, snap, from: q.from, within: maxDistance, where: test),
                                          from: q.from, limit: q.k)
            case .filterIndex: found = planned.tree!.nearest(to: q.from, k: q.k, maxDistance: maxDistance, where: test)
            case .indexWalk: found = snap.nearest(to: q.from, k: q.k, maxDistance: maxDistance, where: test)
            }
            return SearchResult(total: found.count, hits: found.map { hit(snap, $0.ref, kind: q.kind, distance: $0.distance, scores) },
                                nextAfter: nil, plan: planned.report)
        }
    }

    /// The test a traversal runs per candidate, or `nil` when there is none: a bit of the
    /// filter's bitmap when there is one, else the filter on the entry's record.
    static func test(_ filter: RecordFilter, bits: [UInt64]?, _ snap: PointSet.Snapshot, _ scores: TextMatches?) -> ((EntryRef) -> Bool)? {
        switch (filter.isEmpty, scores) {
        case (true, nil): return nil
        case (false, nil):
            if let bits {
                return { bits[Int($0.index) >> 6] & (1 << UInt64($0.index & 63)) != 0 }
            }
            return { filter.matches(Engine.record(snap.entry($0))) }
        case (true, let s?): return { s.scores[$0.index] != nil }
        case (false, let s?): return { s.scores[$0.index] != nil && filter.matches(Engine.record(snap.entry($0))) }
        }
    }

    /// The text index of a kind at a snapshot of its points and of its records without a
    /// place, rebuilt after writes (see `docs/data-model.md`). Document ids are entry
    /// numbers for points and `-1 - i` for the i-th record without a place.
    func textIndex(kind: String, _ snap: PointSet.Snapshot, _ placeless: PlacelessSet.Snapshot?) -> TextIndex {
        let placelessVersion = placeless?.version ?? 0
        let store = self.store(kind: kind)
        if let cached = store?.state.withLock({ $0.textIndex }), cached.version == snap.version, cached.placeless == placelessVersion {
            return cached.index
        }
        let weights = Catalog.textFieldWeights(kind: kind)
        /// At most one text per weighted field (TextIndex requires it).
        func texts(_ p: RecordPayload?) -> [String] {
            Array(catalog.searchableText(p?.record ?? .other, fields: p?.fields ?? []).prefix(weights.count))
        }
        func keep(_ index: TextIndex) -> TextIndex {
            store?.state.withLock { $0.textIndex = (snap.version, placelessVersion, index) }
            return index
        }
        // Untyped kinds have no searchable fields: an empty index matches nothing.
        if weights.isEmpty { return keep(TextIndex(fieldWeights: [], documents: [], language: catalog.language)) }
        // The words of entries up to this snapshot's, worked out once per entry.
        let fresh = TextCorpus(fieldCount: weights.count, language: catalog.language)
        let (corpus, known) = store?.state.withLock { s -> (TextCorpus, [TextTokens?]) in
            guard let kept = s.textTokens, kept.generation == snap.generation else { return (fresh, []) }
            return (kept.corpus, kept.tokens)
        } ?? (fresh, [])
        var tokens = known
        if tokens.count < snap.entryCount {
            tokens.reserveCapacity(snap.entryCount)
            for i in tokens.count..<snap.entryCount {
                let e = Int32(i)
                // A removed entry may be live for an older snapshot: left to work out then.
                tokens.append(snap.isLiveEntry(e) ? corpus.tokens(texts(Engine.payload(snap.entry(EntryRef(index: e))))) : nil)
            }
            store?.state.withLock { s in
                if let now = s.textTokens {
                    if now.generation > snap.generation { return }
                    // Tokens of one corpus only: another thread's corpus for this generation stays.
                    if now.generation == snap.generation && (now.corpus !== corpus || now.tokens.count >= tokens.count) { return }
                }
                s.textTokens = (snap.generation, corpus, tokens)
            }
        }
        var docs: [(id: Int32, tokens: TextTokens)] = snap.allLive().map { r in
            (r.index, tokens[Int(r.index)] ?? corpus.tokens(texts(Engine.payload(snap.entry(r)))))
        }
        // Records not everyone may read count in no statistic (``AccessCheck/isPublic(_:)``).
        var uncounted = Set<Int32>()
        let rule = RecordKind(kind).definition.access
        if rule != .everyone {
            for r in snap.allLive() where !AccessCheck.isPublic(Engine.record(snap.entry(r)), rule) { uncounted.insert(r.index) }
        }
        if let placeless {
            for (i, id) in placeless.ids.enumerated() {
                let payload = placeless.byID[id]!
                docs.append((-1 - Int32(i), corpus.tokens(texts(payload))))
                if rule != .everyone && !AccessCheck.isPublic(payload?.record ?? .other, rule) { uncounted.insert(-1 - Int32(i)) }
            }
        }
        return keep(TextIndex(fieldWeights: weights, corpus: corpus, documents: docs, uncounted: uncounted))
    }

    /// The answer of a query with `text` from `answer`, which computes it for the text's
    /// scores (`nil` without text): for ``WordMatching/all``, the records with every word;
    /// for ``WordMatching/most``, the records with any word that counts, ranked by relevance
    /// times weighted coverage (``TextMatches/ranked()``). The result says which words no hit
    /// matched, and why there is none when the text has only stop words.
    func withText(_ text: String?, words rule: WordMatching, kind: String, _ snap: PointSet.Snapshot, _ placeless: PlacelessSet.Snapshot?,
                  _ answer: (TextMatches?) throws(ScoutError) -> SearchResult) throws(ScoutError) -> SearchResult {
        guard let text else { return try answer(nil) }
        let matches = textMatches(text, words: rule, kind: kind, snap, placeless)
        var result = try answer(matches)
        matches.annotate(&result)
        return result
    }

    /// The matches of `text` in a kind's index at a snapshot under `rule`.
    func textMatches(_ text: String, words rule: WordMatching, kind: String, _ snap: PointSet.Snapshot,
                     _ placeless: PlacelessSet.Snapshot?) -> TextMatches {
        let index = textIndex(kind: kind, snap, placeless)
        return index.matches(TextQuery(text, synonyms: catalog.synonyms, language: catalog.language), words: rule)
    }

    /// The engine's payload of an entry, read with a metadata comparison instead of a
    /// dynamic cast (sets reached through `pointSet(kind:)` may hold other payloads).
    static func payload(_ e: Entry) -> RecordPayload? {
        guard let p = e.payload, type(of: p) == RecordPayload.self else { return nil }
        return unsafeDowncast(p, to: RecordPayload.self)
    }

    static func record(_ e: Entry) -> CatalogRecord { payload(e)?.record ?? .other }

    static func validateText(_ text: String?) throws(ScoutError) {
        guard let text else { return }
        guard text.utf8.count <= SearchQuery.maximumTextBytes else {
            throw ScoutError(.limitExceeded, "text may be at most \(SearchQuery.maximumTextBytes) bytes", path: "text")
        }
    }

    static func validateDistance(_ r: Double, path: String) throws(ScoutError) {
        guard r.isFinite, r >= 0 else { throw ScoutError(.invalidRequest, "\(path) must be a non-negative number of metres", path: path) }
        guard r <= SearchQuery.maximumRadius else {
            throw ScoutError(.limitExceeded, "\(path) must be at most 20,000 km", path: path)
        }
    }

    /// Largest polygon accepted, in vertices.
    public static let maximumPolygonVertices = 200_000

    /// The key a polygon is cached under: its exact input.
    private static func regionKey(_ shape: PolygonShape, crs: String?) -> RegionKey {
        switch shape {
        case .polygon(let rings): RegionKey(polygons: [rings], crs: crs)
        case .multiPolygon(let polys): RegionKey(polygons: polys, crs: crs)
        case .wkt(let text): RegionKey(wkt: text, crs: crs)
        }
    }

    private func makeRegion(_ shape: PolygonShape, crs: String?) throws(ScoutError) -> Region {
        switch shape {
        case .polygon(let rings):
            try Engine.checkVertexCount(rings.reduce(0) { $0 + $1.count })
            return try Region.polygon(rings, crs: crs, transforms: transforms, path: "within")
        case .multiPolygon(let polys):
            try Engine.checkVertexCount(polys.reduce(0) { $0 + $1.reduce(0) { $0 + $1.count } })
            return try Region.multiPolygon(polys, crs: crs, transforms: transforms, path: "within")
        case .wkt(let text):
            guard text.utf8.count <= Engine.maximumPolygonVertices * 48 else {
                throw ScoutError(.limitExceeded, "the WKT text is too long", path: "within")
            }
            return try Region.wkt(text, crs: crs, transforms: transforms, path: "within")
        }
    }

    private static func checkVertexCount(_ n: Int) throws(ScoutError) {
        guard n <= maximumPolygonVertices else {
            throw ScoutError(.limitExceeded, "a polygon may have at most \(maximumPolygonVertices) positions", path: "within")
        }
    }

    private func hit(_ snap: PointSet.Snapshot, _ ref: EntryRef, kind: RecordKind, distance: Double?, _ scores: TextMatches?) -> SearchHit {
        let e = snap.entry(ref)
        return hit(id: e.id, kind: kind, point: e.point, payload: Engine.payload(e), distance: distance,
                   text: scores.flatMap { s in s.scores[ref.index].map { (s, $0) } })
    }

    /// A result for a record, its place (if any) as shown under the privacy mode; with `text`,
    /// its relevance and the words it matched.
    func hit(id: String, kind typed: RecordKind, point: GeoPoint?, payload: RecordPayload?, distance: Double?,
             text: (matches: TextMatches, score: TextScore)? = nil) -> SearchHit {
        let record = payload?.record ?? .other
        let kind = typed.name
        // Asked once: most kinds show their places as they are.
        let hides = privacy.hides(kind: kind)
        return SearchHit(id: id, kind: typed, point: hides ? point.map { privacy.shown($0, kind: kind) } : point,
                         distance: hides ? distance.map { privacy.shown(distance: $0, kind: kind) } : distance,
                         isApproximate: point != nil && hides, fields: payload?.shownFields ?? [], record: record,
                         rating: Rating.of(record), relevance: text?.score.relevance,
                         matchedWords: text.map { $0.matches.words(matchedBy: $0.score) } ?? [])
    }

    /// The checks every search makes of its order, with or without an area: relevance needs
    /// text, rating a kind whose records are rated (``KindDefinition/isRated``).
    static func checkSort(_ sort: SortOrder, text: String?, kind: RecordKind) throws(ScoutError) {
        switch sort {
        case .relevance where text == nil:
            throw ScoutError(.invalidRequest, "sort by relevance needs text", path: "sort")
        case .rating where !kind.definition.isRated:
            throw ScoutError(.invalidRequest, "sort by rating applies to \(Engine.ratedKinds.joined(separator: ", "))", path: "sort")
        case .newest where kind.definition.timeField == nil:
            throw ScoutError(.invalidRequest, "sort by newest applies to \(RecordKind.typed.filter { $0.definition.timeField != nil }.map(\.name).joined(separator: ", "))",
                             path: "sort")
        default: break
        }
    }

    /// Kinds whose records have a rating to sort by (``Rating/of(_:)``).
    public static let ratedKinds = RecordKind.typed.filter(\.definition.isRated).map(\.name)
}
