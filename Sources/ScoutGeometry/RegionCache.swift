import ScoutCore
import Synchronization

/// The exact input a region is built from: its positions (GeoJSON rings) or WKT text, and
/// its CRS. Two inputs with equal keys build regions that cover the same points.
///
/// Hashing reads the counts and a sample of at most 16 positions per ring, so it costs
/// the same for a 20-vertex park and a 20,000-vertex county; equality compares everything.
public struct RegionKey: Hashable, Sendable {
    let crs: String?
    let wkt: String?
    let polygons: [[[SIMD2<Double>]]]

    /// The key of a polygon or multipolygon given as GeoJSON-style rings (a one-part
    /// multipolygon has the key of its polygon).
    public init(polygons: [[[SIMD2<Double>]]], crs: String? = nil) {
        self.crs = crs
        self.wkt = nil
        self.polygons = polygons
    }

    /// The key of a WKT polygon or multipolygon.
    public init(wkt: String, crs: String? = nil) {
        self.crs = crs
        self.wkt = wkt
        self.polygons = []
    }

    /// About how many bytes the key holds (its text or positions): what remembering it costs.
    public var byteSize: Int {
        (wkt?.utf8.count ?? 0) + (crs?.utf8.count ?? 0) + 64
            + polygons.reduce(0) { $0 + $1.reduce(0) { $0 + 24 + $1.count * MemoryLayout<SIMD2<Double>>.stride } }
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(crs)
        hasher.combine(wkt)
        hasher.combine(polygons.count)
        for rings in polygons {
            hasher.combine(rings.count)
            for ring in rings {
                hasher.combine(ring.count)
                let stride = max(ring.count / 16, 1)
                for i in Swift.stride(from: 0, to: ring.count, by: stride) { hasher.combine(ring[i]) }
            }
        }
    }
}

/// What GEOS said of the validity of polygons seen recently, keyed by their exact input.
/// GEOS's validity test costs ~0.4–0.6 ms for a 1,000-vertex polygon, more than the rest of
/// a query; apps send the same areas again and again. Only the verdict is shared, never a
/// GEOS object, so threads stay independent.
enum ValidityCache {
    /// Most verdicts kept; the cache is emptied when it is full.
    static let capacity = 256
    /// Most bytes of keys kept (the keys are the inputs themselves); emptied when it would pass.
    static let byteCapacity = 32 << 20
    /// Inputs larger than this are judged every time rather than remembered.
    static let largestKeyBytes = 4 << 20
    /// `nil` reason: valid.
    private static let verdicts = Mutex<(map: [RegionKey: String?], bytes: Int)>(([:], 0))

    static func verdict(_ key: RegionKey) -> String?? { verdicts.withLock { $0.map[key] } }

    static func record(_ key: RegionKey, reason: String?) {
        let size = key.byteSize
        guard size <= largestKeyBytes else { return }
        verdicts.withLock { v in
            if v.map[key] != nil { return }
            if v.map.count >= capacity || v.bytes + size > byteCapacity { v.map.removeAll(keepingCapacity: true); v.bytes = 0 }
            v.map[key] = .some(reason)
            v.bytes += size
        }
    }

    /// Bytes of keys held now.
    static var bytesHeld: Int { verdicts.withLock { $0.bytes } }
}

/// Prepared regions kept for reuse, so that an area asked about again skips building its
/// GEOS geometry, GEOS's lazily built point index and the boundary grid.
///
/// A region is lent to one caller at a time: ``checkOut(_:orMake:)`` takes an idle region
/// for the key out of the cache (or makes one), and ``checkIn(_:)`` puts it back. Threads
/// asking for the same area at once get a region each. Safe to use from any thread.
///
/// ```swift
/// let regions = RegionCache()
/// let key = RegionKey(polygons: [rings])
/// let park = try regions.checkOut(key) { () throws(ScoutError) in try Region.polygon(rings) }
/// defer { regions.checkIn(park) }
/// ```
public final class RegionCache: Sendable {
    /// Bytes of polygon inputs the process-wide validity memory holds now (at most
    /// 32 MiB; an input over 4 MiB is never held).
    public static var validityBytesHeld: Int { ValidityCache.bytesHeld }

    /// True when GEOS's validity verdict on this exact input is remembered now.
    public static func remembersValidity(of key: RegionKey) -> Bool { ValidityCache.verdict(key) != nil }

    /// A region handed between threads; the cache never touches one that is lent out.
    private struct Idle: @unchecked Sendable {
        let region: Region
        var lastUse: UInt64 = 0
    }
    private struct State {
        var idle: [RegionKey: [Idle]] = [:]
        var count = 0
        var vertices = 0
        var clock: UInt64 = 0
    }
    private let state = Mutex(State())
    /// Most idle regions kept.
    public let capacity: Int
    /// Most vertices kept over all idle regions (each costs about 100 bytes in GEOS).
    public let vertexCapacity: Int

    /// A cache keeping at most `capacity` idle regions holding at most `vertexCapacity`
    /// vertices in all; the least recently returned region goes first.
    public init(capacity: Int = 64, vertexCapacity: Int = 2_000_000) {
        self.capacity = max(capacity, 0)
        self.vertexCapacity = max(vertexCapacity, 0)
    }

    /// An idle region for `key`, now the caller's alone, or a new one from `make`.
    public func checkOut(_ key: RegionKey, orMake make: () throws(ScoutError) -> Region) throws(ScoutError) -> Region {
        let lent: Idle? = state.withLock { s in
            guard let found = s.idle[key]?.popLast() else { return nil }
            if s.idle[key]?.isEmpty == true { s.idle[key] = nil }
            s.count -= 1
            s.vertices -= found.region.vertexCount
            return found
        }
        if let lent { return lent.region }
        return try make()
    }

    /// Returns a region to the cache (the caller must not use it afterwards). Regions too
    /// big to keep are dropped, and the least recently returned ones make room. A region
    /// checked in twice is kept once.
    public func checkIn(_ region: Region) {
        guard capacity > 0, region.vertexCount <= vertexCapacity else { return }
        var returned = Idle(region: region)
        // Evicted regions are freed after the lock is released.
        let evicted: [Idle] = state.withLock { s in
            let key = returned.region.key
            if s.idle[key]?.contains(where: { $0.region === returned.region }) == true { return [] }
            s.clock += 1
            returned.lastUse = s.clock
            s.idle[key, default: []].append(returned)
            s.count += 1
            s.vertices += returned.region.vertexCount
            var out: [Idle] = []
            while s.count > capacity || s.vertices > vertexCapacity, let (key, i) = Self.oldest(s.idle) {
                let gone = s.idle[key]!.remove(at: i)
                if s.idle[key]!.isEmpty { s.idle[key] = nil }
                s.count -= 1
                s.vertices -= gone.region.vertexCount
                out.append(gone)
            }
            return out
        }
        withExtendedLifetime(evicted) {}
    }

    /// Idle regions held now.
    public var idleCount: Int { state.withLock { $0.count } }

    private static func oldest(_ idle: [RegionKey: [Idle]]) -> (RegionKey, Int)? {
        var best: (RegionKey, Int, UInt64)?
        for (key, list) in idle {
            for (i, e) in list.enumerated() where best == nil || e.lastUse < best!.2 { best = (key, i, e.lastUse) }
        }
        return best.map { ($0.0, $0.1) }
    }
}
