import ScoutCore
import ScoutGeodesy
import ScoutGeometry
import ScoutIndex
import ScoutJSON
import Synchronization

/// Scout's library facade: points of any number of kinds, loaded, updated and searched.
///
/// ```swift
/// let engine = Engine()
/// try engine.upsert([PointRecord(id: "rex", kind: "dog", point: GeoPoint(lat: 53.27, lon: -9.05))])
/// let near = try engine.search(SearchQuery(kind: "dog", area: .radius(center: GeoPoint(lat: 53.27, lon: -9.06), meters: 4000)))
/// ```
/// Threading: every method is safe to call from any thread. Searches run concurrently and
/// never wait for writers; writes (load, upsert, remove) are applied one at a time, each
/// atomically per kind.
public final class Engine: Sendable {
    private let sets = Mutex<[String: PointSet]>([:])
    private let writeLock = Mutex(())
    /// PROJ transformations to lon/lat, cached per CRS.
    public let transforms = CRSTransform.Pool()

    /// Creates an empty engine.
    public init() {}

    /// The point set of a kind, created on first use when `create` is true.
    public func pointSet(kind: String, create: Bool = false) -> PointSet? {
        sets.withLock { s in
            if let set = s[kind] { return set }
            guard create else { return nil }
            let set = PointSet()
            s[kind] = set
            return set
        }
    }

    /// Kinds with at least one point ever loaded, sorted.
    public var kinds: [String] { sets.withLock { Array($0.keys) }.sorted() }

    // MARK: Writing

    /// Inserts or replaces records (by kind and id). All are validated first; on any
    /// error nothing changes. Returns the number applied.
    @discardableResult
    public func upsert(_ records: [PointRecord]) throws(ScoutError) -> Int {
        var byKind: [String: [PointSet.Record]] = [:]
        for (i, r) in records.enumerated() {
            try PointRecord.validateKind(r.kind, path: "records[\(i)].kind")
            guard !r.id.isEmpty else { throw ScoutError(.invalidRequest, "id must not be empty", path: "records[\(i)].id") }
            _ = try r.point.validated(path: "records[\(i)]")
            byKind[r.kind, default: []].append(PointSet.Record(id: r.id, point: r.point,
                                                              payload: r.fields.isEmpty ? nil : RecordPayload(fields: r.fields)))
        }
        writeLock.withLock { _ in
            for (kind, batch) in byKind {
                // Validated above, so this cannot throw.
                _ = try? pointSet(kind: kind, create: true)!.upsert(batch)
            }
        }
        return records.count
    }

    /// Removes records of a kind by id; unknown ids are ignored. Returns how many went.
    @discardableResult
    public func remove(kind: String, ids: [String]) throws(ScoutError) -> Int {
        try PointRecord.validateKind(kind, path: "kind")
        guard let set = pointSet(kind: kind) else { return 0 }
        return writeLock.withLock { _ in set.remove(ids: ids) }
    }

    /// Loads a file of records (JSON Lines, GeoJSON FeatureCollection of Points, or CSV
    /// `id,lat,lon[,kind]`); see ``RecordFile``. A bad record fails the whole load with
    /// its line and field, and the engine stays as it was.
    @discardableResult
    public func load(path: String, kind: String? = nil) throws(ScoutError) -> Int {
        if let kind { try PointRecord.validateKind(kind, path: "kind") }
        let records = try RecordFile.read(path: path, defaultKind: kind)
        try upsert(records)
        for k in Set(records.map(\.kind)) { pointSet(kind: k)?.pack() }
        return records.count
    }

    // MARK: Reading

    /// Counts per kind and index memory in bytes.
    public func stats() -> [(kind: String, count: Int, indexBytes: Int)] {
        kinds.compactMap { k in
            guard let s = pointSet(kind: k) else { return nil }
            return (k, s.count, s.indexMemoryBytes)
        }
    }

    /// Runs a search. Errors name the offending field.
    public func search(_ q: SearchQuery) throws(ScoutError) -> SearchResult {
        try PointRecord.validateKind(q.kind, path: "kind")
        guard q.limit >= 1 else { throw ScoutError(.invalidRequest, "limit must be at least 1", path: "limit") }
        guard q.limit <= SearchQuery.maximumLimit else {
            throw ScoutError(.limitExceeded, "limit must be at most \(SearchQuery.maximumLimit)", path: "limit")
        }
        if let from = q.from { _ = try from.validated(path: "from") }
        var reference = q.from
        if case .radius(let c, _) = q.area { reference = c }
        let sort = q.sort ?? (reference == nil ? .id : .distance)
        if sort == .distance && reference == nil {
            throw ScoutError(.invalidRequest, "sort by distance needs a reference point: give \"from\"", path: "sort")
        }
        // Validate the area before looking up the kind, so bad input is an error even on an empty kind.
        var region: Region?
        var corridor: Corridor?
        switch q.area {
        case .radius(let c, let r):
            _ = try c.validated(path: "near")
            try Engine.validateDistance(r, path: "radius_m")
        case .box(let b):
            _ = try b.validated(path: "bbox")
        case .polygon(let shape, let crs):
            region = try makeRegion(shape, crs: crs)
        case .corridor(let route, let d):
            corridor = try Corridor(line: route, distance: d)
        }
        guard let set = pointSet(kind: q.kind) else { return SearchResult(total: 0, hits: []) }
        let snap = set.snapshot()

        if case .radius(let c, let r) = q.area, sort == .distance {
            let matches = snap.boundedEntries(within: r, of: c)
            let top = snap.nearestFirst(matches, from: c, limit: q.limit)
            return SearchResult(total: matches.count, hits: top.map { hit(snap, $0.ref, kind: q.kind, distance: $0.distance) })
        }
        let refs: [EntryRef]
        switch q.area {
        case .radius(let c, let r): refs = snap.entries(within: r, of: c)
        case .box(let b): refs = snap.entries(in: b)
        case .polygon: refs = snap.entries(coveredBy: region!)
        case .corridor: refs = snap.entries(along: corridor!)
        }
        if sort == .distance, let reference {
            let referenceECEF = WGS84.ecef(reference)
            let bounded = refs.map { r -> BoundedRef in
                let e = snap.entry(r)
                let range = DistanceBounds.interval(e.point, reference, ecefOfB: referenceECEF)
                return BoundedRef(ref: r, lower: range.lowerBound, upper: range.upperBound)
            }
            let top = snap.nearestFirst(bounded, from: reference, limit: q.limit)
            return SearchResult(total: refs.count, hits: top.map { hit(snap, $0.ref, kind: q.kind, distance: $0.distance) })
        }
        var ids = refs.map { (snap.id(of: $0), $0) }
        ids.sort { $0.0 < $1.0 }
        if ids.count > q.limit { ids.removeLast(ids.count - q.limit) }
        return SearchResult(total: refs.count, hits: ids.map { (_, r) in
            let d = reference.map { DistanceBounds.millimetres(snap.entry(r).point, $0) }
            return hit(snap, r, kind: q.kind, distance: d)
        })
    }

    /// The k nearest points of a kind, by geodesic distance then id.
    public func nearest(_ q: NearestQuery) throws(ScoutError) -> SearchResult {
        try PointRecord.validateKind(q.kind, path: "kind")
        _ = try q.from.validated(path: "from")
        guard q.k >= 1 else { throw ScoutError(.invalidRequest, "k must be at least 1", path: "k") }
        guard q.k <= SearchQuery.maximumLimit else {
            throw ScoutError(.limitExceeded, "k must be at most \(SearchQuery.maximumLimit)", path: "k")
        }
        if let m = q.maxDistance { try Engine.validateDistance(m, path: "max_distance_m") }
        guard let set = pointSet(kind: q.kind) else { return SearchResult(total: 0, hits: []) }
        let snap = set.snapshot()
        let found = snap.nearest(to: q.from, k: q.k, maxDistance: q.maxDistance ?? .infinity)
        return SearchResult(total: found.count, hits: found.map { hit(snap, $0.ref, kind: q.kind, distance: $0.distance) })
    }

    static func validateDistance(_ r: Double, path: String) throws(ScoutError) {
        guard r.isFinite, r >= 0 else { throw ScoutError(.invalidRequest, "\(path) must be a non-negative number of metres", path: path) }
        guard r <= SearchQuery.maximumRadius else {
            throw ScoutError(.limitExceeded, "\(path) must be at most 20,000 km", path: path)
        }
    }

    /// Largest polygon accepted, in vertices.
    public static let maximumPolygonVertices = 200_000

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

    private func hit(_ snap: PointSet.Snapshot, _ ref: EntryRef, kind: String, distance: Double?) -> SearchHit {
        let e = snap.entry(ref)
        let fields = (e.payload as? RecordPayload)?.fields ?? []
        return SearchHit(id: e.id, kind: kind, point: e.point, distance: distance, fields: fields)
    }
}
