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
    /// rest of the filter on those only, and rank them exactly (few matches).
    case filterFirst = "filter_first"
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
    /// Filter first when a key allows at most this many records or this share of them,
    /// whichever is larger (the walk's cost grows as k / selectivity, filtering first as the
    /// number of candidates: they cross near √(k·n)).
    static func filterFirstLimit(records n: Int, k: Int) -> Int {
        max(256, Int(4 * (Double(max(k, 1)) * Double(n)).squareRoot()))
    }

    /// The posting lists of a kind at a snapshot, built on first need after a write.
    func postings(kind: String, _ snap: PointSet.Snapshot) -> PostingLists {
        if let cached = postingCache.withLock({ $0[kind] }), cached.version == snap.version, cached.generation == snap.generation {
            return cached
        }
        let built = PostingLists(snap)
        postingCache.withLock { $0[kind] = built }
        return built
    }

    /// Chooses a plan for a filtered query; for `filterFirst`, the candidate entries.
    func plan(kind: String, _ snap: PointSet.Snapshot, _ filter: RecordFilter, k: Int, choice: PlanChoice)
        -> (report: PlanReport, candidates: [Int32]?) {
        let n = snap.liveCount
        guard choice != .indexWalk, !filter.keys.isEmpty else {
            return (PlanReport(plan: .indexWalk, records: n, key: nil, candidates: nil), nil)
        }
        let lists = postings(kind: kind, snap)
        var best: (key: FilterKey, entries: [Int32])?
        for key in filter.keys {
            let c = lists.candidates(key)
            if best == nil || c.count < best!.entries.count { best = (key, c) }
        }
        let (key, entries) = best!
        if entries.isEmpty { return (PlanReport(plan: .empty, records: n, key: key.field, candidates: 0), []) }
        if choice == .filterFirst || entries.count <= Engine.filterFirstLimit(records: n, k: k) {
            return (PlanReport(plan: .filterFirst, records: n, key: key.field, candidates: entries.count), entries)
        }
        return (PlanReport(plan: .indexWalk, records: n, key: key.field, candidates: entries.count), nil)
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
