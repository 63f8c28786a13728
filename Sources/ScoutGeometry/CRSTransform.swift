import CPROJ
import Foundation
import ScoutCore
import Synchronization

/// A coordinate transformation through PROJ, with axis order normalised to x = easting or
/// longitude, y = northing or latitude (`proj_normalize_for_visualization`).
///
/// Threading: a transform owns its `PJ_CONTEXT` and is used by one thread at a time;
/// ``CRSTransform/Pool`` hands them out. PROJ does not reject points outside a CRS's area
/// of use; callers check the result's range.
public final class CRSTransform: @unchecked Sendable {
    // @unchecked: the PROJ context and object are touched only by the thread that checked
    // this transform out of a pool (or created it), never by two threads at once.
    let context: OpaquePointer
    let pj: OpaquePointer
    /// The source CRS as given.
    public let source: String

    private final class LogBox { var messages: [String] = [] }

    /// The keywords a WKT CRS may open with (WKT2 and WKT1). A text like `x[1]` is no WKT:
    /// PROJ would search `proj.db` for it by name (0.3–0.7 s) before failing.
    static let wktKeywords: Set<String> = [
        "PROJCRS", "PROJECTEDCRS", "GEOGCRS", "GEOGRAPHICCRS", "GEODCRS", "GEODETICCRS", "BASEGEOGCRS", "BOUNDCRS",
        "COMPOUNDCRS", "VERTCRS", "VERTICALCRS", "ENGCRS", "ENGINEERINGCRS", "PARAMETRICCRS", "TIMECRS", "DERIVEDPROJCRS",
        "PROJCS", "GEOGCS", "GEOCCS", "COMPD_CS", "VERT_CS", "LOCAL_CS", "FITTED_CS",
    ]

    /// True when `text` names a CRS unambiguously: `AUTHORITY:CODE` (`EPSG:2180`,
    /// `OGC:CRS84`), an OGC URN, a PROJ string (`+proj=…`), WKT opening with a CRS keyword
    /// (`PROJCRS[…`, `GEOGCS[…`) or PROJJSON. A bare name is refused: PROJ would look it up
    /// by similarity ("foo" finds Amersfoort).
    public static func isExplicitDefinition(_ text: String) -> Bool {
        let t = text.trimmingCharacters(in: .whitespaces)
        if t.hasPrefix("+proj=") || t.hasPrefix("proj=") || t.hasPrefix("{") || t.lowercased().hasPrefix("urn:ogc:def:crs:") { return true }
        if let bracket = t.firstIndex(of: "["), wktKeywords.contains(t[..<bracket].uppercased()) { return true }
        let parts = t.split(separator: ":", omittingEmptySubsequences: false)
        return parts.count == 2 && !parts[0].isEmpty && !parts[1].isEmpty
            && parts[0].allSatisfy({ $0.isASCII && $0.isLetter }) && parts[1].allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) })
    }

    /// Creates a transformation from `source` (e.g. `"EPSG:2157"`) to `target`
    /// (default: EPSG:4326 as longitude/latitude). Unknown CRSs, and names that are not an
    /// explicit definition (see ``isExplicitDefinition(_:)``), throw `unknown_crs` with PROJ's
    /// own message where it has one.
    public init(from source: String, to target: String = "EPSG:4326", path: String = "crs") throws(ScoutError) {
        guard CRSTransform.isExplicitDefinition(source) else {
            throw ScoutError(.unknownCRS, "a CRS is given as AUTHORITY:CODE (EPSG:2180), a PROJ string (+proj=…), WKT or PROJJSON; "
                             + "names are not looked up", path: path)
        }
        guard let ctx = proj_context_create() else { throw ScoutError(.internal, "PROJ could not create a context") }
        let log = LogBox()
        let logPtr = Unmanaged.passRetained(log)
        defer { proj_log_func(ctx, nil, nil); logPtr.release() }
        proj_log_func(ctx, logPtr.toOpaque(), { data, _, message in
            guard let data, let message else { return }
            Unmanaged<LogBox>.fromOpaque(data).takeUnretainedValue().messages.append(String(cString: message))
        })
        guard let raw = proj_create_crs_to_crs(ctx, source, target, nil) else {
            let why = log.messages.last ?? String(cString: proj_context_errno_string(ctx, proj_context_errno(ctx)))
            proj_context_destroy(ctx)
            throw ScoutError(.unknownCRS, "PROJ does not know the CRS \"\(source.prefix(64))\": \(why)", path: path)
        }
        guard let norm = proj_normalize_for_visualization(ctx, raw) else {
            proj_destroy(raw)
            proj_context_destroy(ctx)
            throw ScoutError(.unknownCRS, "PROJ could not normalise the axis order of \"\(source.prefix(64))\"", path: path)
        }
        proj_destroy(raw)
        self.context = ctx
        self.pj = norm
        self.source = source
    }

    /// Creates a transformation from a PROJ pipeline or definition string that needs no
    /// database (used for local azimuthal equidistant projections).
    init(definition: String) throws(ScoutError) {
        guard let ctx = proj_context_create() else { throw ScoutError(.internal, "PROJ could not create a context") }
        guard let p = proj_create(ctx, definition) else {
            proj_context_destroy(ctx)
            throw ScoutError(.internal, "PROJ rejected a projection definition")
        }
        self.context = ctx
        self.pj = p
        self.source = definition
    }

    deinit {
        proj_destroy(pj)
        proj_context_destroy(context)
    }

    /// Transforms one coordinate pair forward; `nil` when PROJ cannot.
    public func forward(_ x: Double, _ y: Double) -> SIMD2<Double>? {
        var c = PJ_COORD()
        c.xy = PJ_XY(x: x, y: y)
        let r = proj_trans(pj, PJ_FWD, c)
        guard r.xy.x.isFinite, r.xy.y.isFinite, r.xy.x != .infinity else { return nil }
        return SIMD2(r.xy.x, r.xy.y)
    }

    /// Transforms one coordinate pair backward; `nil` when PROJ cannot.
    public func inverse(_ x: Double, _ y: Double) -> SIMD2<Double>? {
        var c = PJ_COORD()
        c.xy = PJ_XY(x: x, y: y)
        let r = proj_trans(pj, PJ_INV, c)
        guard r.xy.x.isFinite, r.xy.y.isFinite else { return nil }
        return SIMD2(r.xy.x, r.xy.y)
    }

    /// A thread-safe pool of transformations to EPSG:4326, keyed by source CRS, so that a
    /// CRS is looked up in `proj.db` once, not per request.
    ///
    /// Bounded: at most ``maximumKinds`` distinct CRS strings keep transformations (a new
    /// one evicts another's), and at most ``maximumIdlePerCRS`` idle ones each, so callers
    /// sending endless distinct CRS strings cannot grow memory.
    public final class Pool: Sendable {
        private let idle = Mutex<[String: [CRSTransform]]>([:])
        /// Most distinct CRS strings kept.
        public let maximumKinds: Int
        /// Most idle transformations kept per CRS (one per thread that used it at once).
        public let maximumIdlePerCRS: Int

        /// Creates an empty pool.
        public init(maximumKinds: Int = 32, maximumIdlePerCRS: Int = 8) {
            self.maximumKinds = max(1, maximumKinds)
            self.maximumIdlePerCRS = max(1, maximumIdlePerCRS)
        }

        /// Number of CRS strings with idle transformations (for tests).
        public var keptCRSCount: Int { idle.withLock { $0.count } }

        /// Runs `body` with a transformation from `crs` to longitude/latitude.
        public func withTransform<T>(from crs: String, path: String = "crs",
                                     _ body: (CRSTransform) throws(ScoutError) -> T) throws(ScoutError) -> T {
            let key = crs.uppercased()
            let cached = idle.withLock { $0[key]?.popLast() }
            let t: CRSTransform
            if let cached { t = cached } else { t = try CRSTransform(from: crs, path: path) }
            defer {
                let evicted: [CRSTransform]? = idle.withLock { pool in
                    var out: [CRSTransform]?
                    if pool[key] == nil, pool.count >= maximumKinds, let victim = pool.keys.first(where: { $0 != key }) {
                        out = pool.removeValue(forKey: victim)
                    }
                    if pool[key, default: []].count < maximumIdlePerCRS { pool[key, default: []].append(t) }
                    return out
                }
                _ = evicted   // destroyed here, outside the lock
            }
            return try body(t)
        }
    }
}
