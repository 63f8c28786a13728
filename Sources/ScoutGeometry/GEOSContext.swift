import CGEOS
import ScoutCore

/// One GEOS reentrant-API context: a `GEOSContextHandle_t` and the last message its error
/// handler received.
///
/// Threading: a context belongs to the thread that uses it; never share one. Geometries
/// made in a context are used with that context only. `Region`s own their context, so
/// a region is confined to one thread at a time.
final class GEOSContext {
    let handle: GEOSContextHandle_t
    private(set) var lastError: String?

    init() {
        handle = GEOS_init_r()
        let box = Unmanaged.passUnretained(self).toOpaque()
        GEOSContext_setErrorMessageHandler_r(handle, { message, userdata in
            guard let userdata, let message else { return }
            let ctx = Unmanaged<GEOSContext>.fromOpaque(userdata).takeUnretainedValue()
            ctx.lastError = String(cString: message)
        }, box)
    }

    deinit { GEOS_finish_r(handle) }

    /// Clears and returns the last error message.
    func takeError() -> String? {
        defer { lastError = nil }
        return lastError
    }

    /// An `invalid_geometry` error carrying GEOS's own message when there is one.
    ///
    /// A failure caused by this thread's ``GeometryDeadline`` is `limit_exceeded`; GEOS's
    /// interrupt arriving without an expired deadline (another thread's, see
    /// ``GeometryDeadline``) is `internal`, worth a retry.
    func error(_ what: String, path: String?) -> ScoutError {
        let reason = takeError()
        if GeometryDeadline.hasExpired {
            return ScoutError(.limitExceeded, "the geometry took longer than the request deadline of \(GeometryDeadline.limitMilliseconds) ms", path: path)
        }
        if let reason, reason.contains("Interrupted") {
            return ScoutError(.internal, "the geometry work was interrupted; retry the request", path: path)
        }
        if let reason { return ScoutError(.invalidGeometry, "\(what): \(reason)", path: path) }
        return ScoutError(.invalidGeometry, what, path: path)
    }

    /// A GEOS coordinate sequence from x/y pairs.
    func coordinateSequence(_ xy: [SIMD2<Double>]) -> OpaquePointer? {
        // `SIMD2<Double>` elements lie in memory as x, y, x, y, …: one copy.
        xy.withUnsafeBytes { raw in
            GEOSCoordSeq_copyFromBuffer_r(handle, raw.bindMemory(to: Double.self).baseAddress, UInt32(xy.count), 0, 0)
        }
    }

    /// Copies the x/y coordinates of a simple geometry (point, line string, ring).
    func coordinates(of geom: OpaquePointer) -> [SIMD2<Double>] {
        guard let seq = GEOSGeom_getCoordSeq_r(handle, geom) else { return [] }
        var n: UInt32 = 0
        GEOSCoordSeq_getSize_r(handle, seq, &n)
        return [SIMD2<Double>](unsafeUninitializedCapacity: Int(n)) { buf, count in
            let copied = UnsafeMutableRawBufferPointer(buf).withMemoryRebound(to: Double.self) { doubles in
                GEOSCoordSeq_copyToBuffer_r(handle, seq, doubles.baseAddress, 0, 0)
            }
            count = copied == 1 ? Int(n) : 0
        }
    }
}
