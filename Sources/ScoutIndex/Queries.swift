import Foundation
import ScoutCore
import ScoutGeodesy

/// A query result with its geodesic distance from the query's reference point, in metres
/// rounded to the millimetre (see ``DistanceBounds/millimetres(_:_:)``).
public struct DistancedRef: Hashable, Sendable {
    /// The entry.
    public let ref: EntryRef
    /// Geodesic distance in metres, rounded to the millimetre.
    public let distance: Double
    /// Creates a result.
    public init(ref: EntryRef, distance: Double) {
        self.ref = ref
        self.distance = distance
    }
}

/// A radius match with cheap bounds of its distance, for ranking without exact work.
public struct BoundedRef: Sendable {
    /// The entry.
    public let ref: EntryRef
    /// Lower bound of the geodesic distance in metres.
    public let lower: Double
    /// Upper bound of the geodesic distance in metres.
    public let upper: Double
    /// The entry's position (so that ranking reads no entry).
    public let point: GeoPoint
    /// Creates a bounded match.
    public init(ref: EntryRef, lower: Double, upper: Double, point: GeoPoint) {
        self.ref = ref
        self.lower = lower
        self.upper = upper
        self.point = point
    }
}

extension PointSet.Snapshot {
    /// Every live point in the box, edges inclusive (`west > east` crosses 180°).
    ///
    /// - Complexity: O(√n + k) per level; no allocation besides the result.
    public func entries(in box: GeoBox, where filter: ((EntryRef) -> Bool)? = nil) -> [EntryRef] {
        var out: [EntryRef] = []
        for b in box.unwrapped {
            forEachLive(west: b.west, south: b.south, east: b.east, north: b.north) { e, _, _ in
                let ref = EntryRef(index: e)
                if filter?(ref) != false { out.append(ref) }
            }
        }
        return out
    }

    /// Every live point whose geodesic distance from `center` is at most `radius` metres,
    /// exactly (WGS84), in no particular order.
    ///
    /// Cheap bounds decide almost every point, and whole tree nodes the disc certainly
    /// holds are taken without testing their points; `geod_inverse` decides the rest.
    public func entries(within radius: Double, of center: GeoPoint, where filter: ((EntryRef) -> Bool)? = nil) -> [EntryRef] {
        disc(radius, center, filter)
    }

    /// Like ``entries(within:of:where:)``, with cheap distance bounds for ranking.
    public func boundedEntries(within radius: Double, of center: GeoPoint, where filter: ((EntryRef) -> Bool)? = nil) -> [BoundedRef] {
        disc(radius, center, filter)
    }

    private func disc<Member: DiscMember>(_ radius: Double, _ center: GeoPoint, _ filter: ((EntryRef) -> Bool)?) -> [Member] {
        let test = RadiusTest(center: center, radius: radius)
        return withUnsafeTemporaryAllocation(of: Member.self, capacity: DiscMembers<Member>.held) { held in
            var members = DiscMembers<Member>(test: test, filter: filter, held: held.baseAddress!)
            let (b, second) = test.boxPair
            visitLive(west: b.west, south: b.south, east: b.east, north: b.north, &members)
            if let c = second { visitLive(west: c.west, south: c.south, east: c.east, north: c.north, &members) }
            return members.finish()
        }
    }

    /// The `limit` matches nearest to `origin`, with exact millimetre distances, sorted by
    /// distance then id. Only matches whose lower bound can reach the top are measured.
    public func nearestFirst(_ matches: [BoundedRef], from origin: GeoPoint, limit: Int) -> [DistancedRef] {
        nearestFirst(matches, from: origin, limit: limit, capped: false)
    }

    /// ``nearestFirst(_:from:limit:)``; `capped` when every match's lower bound is already
    /// within the cap it would compute (``nearestCandidates(origin:k:within:filter:)``'s).
    func nearestFirst(_ matches: [BoundedRef], from origin: GeoPoint, limit: Int, capped: Bool) -> [DistancedRef] {
        if matches.isEmpty || limit <= 0 { return [] }
        // Every match when there are no more than `limit`; else those whose lower bound is
        // within 1 mm (points that could tie a member once rounded) of the limit-th smallest
        // upper bound, which caps every member of the top.
        var cap = Double.infinity
        if matches.count > limit && !capped {
            cap = withUnsafeTemporaryAllocation(of: Double.self, capacity: matches.count) { uppers in
                for (i, m) in matches.enumerated() { (uppers.baseAddress! + i).initialize(to: m.upper) }
                return quickselect(uppers, limit - 1)
            } + 0.001
        }
        let near = WGS84.NearbyECEF(origin: origin)
        var measured: [DistancedRef] = []
        measured.reserveCapacity(min(matches.count, 2 * limit + 8))
        for m in matches where m.lower <= cap {
            let d = DistanceBounds.millimetres(m.point, origin, ecefOfA: near.ecef(m.point), ecefOfB: near.origin)
            measured.append(DistancedRef(ref: m.ref, distance: d))
        }
        sortByDistance(&measured)
        if measured.count > limit { measured.removeLast(measured.count - limit) }
        return measured
    }

    /// Orders `measured` by distance, then id. From 64 matches, by a radix sort of the whole
    /// millimetres (each distance is a whole number of millimetres, so their order is the
    /// distances'), each run of equal distances then sorted by id; below that, by comparisons.
    func sortByDistance(_ measured: inout [DistancedRef]) {
        guard measured.count >= 64 else {
            measured.sort { a, b in
                a.distance != b.distance ? a.distance < b.distance : table.idPrecedes(a.ref.index, b.ref.index)
            }
            return
        }
        struct Keyed: BitwiseCopyable {
            var millimetres: UInt64
            var position: Int32
        }
        var keyed: [Keyed] = []
        keyed.reserveCapacity(measured.count)
        var largest: UInt64 = 0
        for (i, m) in measured.enumerated() {
            let millimetres = UInt64(m.distance * 1000 + 0.5)
            largest = max(largest, millimetres)
            keyed.append(Keyed(millimetres: millimetres, position: Int32(i)))
        }
        RadixSort.sort(&keyed, byBits: 0..<(64 - largest.leadingZeroBitCount), key: { $0.millimetres },
                       ties: { table.idPrecedes(measured[Int($0.position)].ref.index, measured[Int($1.position)].ref.index) })
        measured = keyed.map { measured[Int($0.position)] }
    }

    /// Exact millimetre distances from `origin` for the given entries.
    public func distances(of refs: [EntryRef], from origin: GeoPoint) -> [DistancedRef] {
        refs.map { r in
            let e = table.entry(r.index)
            return DistancedRef(ref: r, distance: DistanceBounds.millimetres(GeoPoint(lat: e.lat, lon: e.lon), origin))
        }
    }

    /// The id of an entry (for ordering by id).
    public func id(of ref: EntryRef) -> String { table.entry(ref.index).id }

    /// Every live point of an area (see ``IndexArea``): candidates from its reach, each
    /// judged by the area's cheap verdict and, where that is unsure, its exact one; the
    /// filter runs before the exact verdict.
    public func entries(in area: some IndexArea, where filter: ((EntryRef) -> Bool)? = nil) -> [EntryRef] {
        var out: [EntryRef] = []
        func judge(_ ref: EntryRef, _ lon: Double, _ lat: Double) {
            switch area.verdict(lon: lon, lat: lat) {
            case .outside: return
            case .inside: if filter?(ref) == false { return }
            case .boundary: if filter?(ref) == false || !area.contains(lon: lon, lat: lat) { return }
            }
            out.append(ref)
        }
        switch area.extent {
        case nil: break
        case .box(let b):
            forEachLive(west: b.west, south: b.south, east: b.east, north: b.north) { e, x, y in judge(EntryRef(index: e), x, y) }
        case .disc(let center, let radius):
            // The disc's members already passed the filter; only the area's verdict is left.
            for r in entries(within: radius, of: center, where: filter) {
                let e = table.entry(r.index)
                switch area.verdict(lon: e.lon, lat: e.lat) {
                case .outside: continue
                case .inside: out.append(r)
                case .boundary: if area.contains(lon: e.lon, lat: e.lat) { out.append(r) }
                }
            }
        }
        return out
    }
}

/// An area whose points the index collects without knowing how the area is drawn: where
/// to take candidates from, a cheap three-way verdict per point, and the exact verdict where
/// the cheap one is unsure. Polygons and route corridors conform (in `ScoutGeometry`, which
/// judges them with GEOS), so the index itself needs no geometry library.
public protocol IndexArea {
    /// Where every point of the area lies; `nil` for an empty area.
    var extent: AreaReach? { get }
    /// A cheap verdict for one point: certainly in, certainly out, or unsure.
    func verdict(lon: Double, lat: Double) -> AreaVerdict
    /// The exact verdict for a point the cheap one was unsure of.
    func contains(lon: Double, lat: Double) -> Bool
}

/// Where an area's candidates come from.
public enum AreaReach: Sendable {
    /// A longitude/latitude box (west ≤ east; no antimeridian wrap).
    case box(GeoBox)
    /// Every point within a geodesic distance (metres) of a centre.
    case disc(center: GeoPoint, radius: Double)
}

/// A cheap verdict on a point or a box against an area.
public enum AreaVerdict: Sendable {
    /// Certainly in the area (its boundary included).
    case inside
    /// Certainly not in it.
    case outside
    /// To be judged exactly.
    case boundary
}

/// What a disc query returns per member: the entry alone, or with its distance bounds.
private protocol DiscMember {
    init(_ ref: EntryRef, lon: Double, lat: Double, test: RadiusTest)
    /// Whether the member keeps anything of its coordinates.
    static var readsCoordinates: Bool { get }
}

extension EntryRef: DiscMember {
    fileprivate init(_ ref: EntryRef, lon: Double, lat: Double, test: RadiusTest) { self = ref }
    fileprivate static var readsCoordinates: Bool { false }
}

extension BoundedRef: DiscMember {
    fileprivate static var readsCoordinates: Bool { true }
    fileprivate init(_ ref: EntryRef, lon: Double, lat: Double, test: RadiusTest) {
        let (lo, hi) = test.bounds(lat: lat, lon: lon)
        self.init(ref: ref, lower: min(lo, test.radius), upper: hi, point: GeoPoint(lat: lat, lon: lon))
    }
}

/// Collects the members of a disc: whole nodes the disc certainly holds, and the
/// candidates ``RadiusTest/contains(lat:lon:)`` accepts. Members are held in a fixed buffer
/// (on the caller's stack), so that adding one is a store, not an array append (with its
/// uniqueness and capacity checks), and the answer is allocated once, at its size, when
/// it fits the buffer; larger answers move to ``out`` a buffer at a time.
private struct DiscMembers<Member: DiscMember>: PointVisitor {
    /// Members the buffer holds: 1 KiB of them, what Swift puts on the stack unasked.
    static var held: Int { max(8, 1024 / MemoryLayout<Member>.stride) }
    let test: RadiusTest
    let filter: ((EntryRef) -> Bool)?
    /// The buffer, of ``held`` members, the first `count` initialized.
    let buffer: UnsafeMutablePointer<Member>
    var count = 0
    /// Members moved out of a full buffer.
    var out: [Member] = []

    init(test: RadiusTest, filter: ((EntryRef) -> Bool)?, held buffer: UnsafeMutablePointer<Member>) {
        self.test = test
        self.filter = filter
        self.buffer = buffer
    }

    /// Moves the buffer's members to ``out``.
    mutating func release() {
        if count == 0 { return }
        out.append(contentsOf: UnsafeBufferPointer(start: buffer, count: count))
        buffer.deinitialize(count: count)
        count = 0
    }

    /// Every member: the buffer's alone in one allocation of their number, when none
    /// was moved out before.
    mutating func finish() -> [Member] {
        if !out.isEmpty {
            release()
            return out
        }
        let n = count
        if n == 0 { return [] }
        count = 0
        return [Member](unsafeUninitializedCapacity: n) { all, initialized in
            all.baseAddress!.moveInitialize(from: buffer, count: n)
            initialized = n
        }
    }

    @inline(__always) func accepts(west: Double, south: Double, east: Double, north: Double) -> Bool {
        test.covers(west: west, south: south, east: east, north: north)
    }
    static var readsMemberCoordinates: Bool { Member.readsCoordinates }
    @inline(__always) mutating func candidate(_ entry: Int32, lon: Double, lat: Double) {
        if test.contains(lat: lat, lon: lon) { member(entry, lon: lon, lat: lat) }
    }
    @inline(__always) mutating func member(_ entry: Int32, lon: Double, lat: Double) {
        let ref = EntryRef(index: entry)
        if let filter, !filter(ref) { return }
        if count == Self.held { release() }
        (buffer + count).initialize(to: Member(ref, lon: lon, lat: lat, test: test))
        count += 1
    }
    /// Bare entries, unfiltered, are copied at once (`EntryRef` is its `Int32`).
    mutating func members(_ entries: UnsafeBufferPointer<Int32>, coordinates: UnsafeBufferPointer<Double>) {
        if filter == nil, Member.self == EntryRef.self {
            if count + entries.count > Self.held { release() }
            entries.withMemoryRebound(to: Member.self) { refs in
                if refs.count > Self.held {
                    out.append(contentsOf: refs)
                } else {
                    (buffer + count).initialize(from: refs.baseAddress!, count: refs.count)
                    count += refs.count
                }
            }
            return
        }
        eachMember(entries, coordinates: coordinates)
    }
}

/// The k-th smallest value (0-based), reordering the buffer.
func quickselect(_ a: UnsafeMutableBufferPointer<Double>, _ k: Int) -> Double {
    var lo = 0, hi = a.count - 1
    while lo < hi {
        let pivot = a[(lo + hi) >> 1]
        var i = lo, j = hi
        while i <= j {
            while a[i] < pivot { i += 1 }
            while a[j] > pivot { j -= 1 }
            if i <= j { a.swapAt(i, j); i += 1; j -= 1 }
        }
        if k <= j { hi = j } else if k >= i { lo = i } else { return a[k] }
    }
    return a[k]
}
