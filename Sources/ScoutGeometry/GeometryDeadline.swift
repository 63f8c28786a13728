import CGEOS
#if canImport(Glibc)
import Glibc
#endif

/// A time limit on the GEOS work a thread does: validity tests, buffers and noding that
/// would otherwise run as long as a pathological input makes them (a 100,000-vertex
/// zigzag spanning the globe keeps GEOS's validity test busy for 14 s).
///
/// ```swift
/// let region = try GeometryDeadline.run(milliseconds: 1000) { () throws(ScoutError) in try Region.polygon(rings) }
/// ```
/// GEOS 3.11 checks for interrupts inside its long loops and calls one process-wide
/// callback there; Scout's callback reads the calling thread's deadline (kept in a
/// thread-specific slot, so threads never see each other's) and asks GEOS to stop when it
/// has passed. The GEOS call then fails, and ``GEOSContext`` turns the failure into
/// `limit_exceeded`. GEOS 3.11 keeps the stop request in one process-wide flag: in the rare
/// case that another thread's check consumes it first, that thread's GEOS call fails and
/// reports `internal` ("interrupted; retry"), and this thread is stopped at its next check.
public enum GeometryDeadline {
    /// The thread-specific slot holding the deadline (monotonic nanoseconds, 0 = none).
    nonisolated(unsafe) private static var key: pthread_key_t = {
        var k = pthread_key_t()
        pthread_key_create(&k, nil)
        _ = GEOS_interruptRegisterCallback { GeometryDeadline.check() }
        return k
    }()

    /// Monotonic clock, nanoseconds.
    static func now() -> UInt64 {
        var t = timespec()
        clock_gettime(CLOCK_MONOTONIC, &t)
        return UInt64(t.tv_sec) * 1_000_000_000 + UInt64(t.tv_nsec)
    }

    /// This thread's deadline, or 0.
    static var current: UInt64 { UInt64(UInt(bitPattern: pthread_getspecific(key))) }

    /// True when this thread has a deadline and it has passed.
    public static var hasExpired: Bool {
        let d = current
        return d != 0 && now() >= d
    }

    /// The limit of the innermost ``run(milliseconds:_:)`` on this thread, in milliseconds (0: none).
    nonisolated(unsafe) private static var limits: pthread_key_t = {
        var k = pthread_key_t()
        pthread_key_create(&k, nil)
        return k
    }()

    /// The running deadline's length in milliseconds, for messages.
    static var limitMilliseconds: Int { Int(bitPattern: UInt(bitPattern: pthread_getspecific(limits))) }

    private static func check() {
        if hasExpired { GEOS_interruptRequest() }
    }

    /// Runs `body` with GEOS work on this thread limited to `milliseconds` from now (`nil`:
    /// no limit). Nested calls keep the earlier deadline.
    public static func run<T, E: Error>(milliseconds: Int?, _ body: () throws(E) -> T) throws(E) -> T {
        guard let milliseconds, milliseconds > 0 else { return try body() }
        let k = key, l = limits
        let previous = pthread_getspecific(k), previousLimit = pthread_getspecific(l)
        let mine = now() + UInt64(milliseconds) * 1_000_000
        let deadline = previous.map { min(UInt64(UInt(bitPattern: $0)), mine) } ?? mine
        pthread_setspecific(k, UnsafeRawPointer(bitPattern: UInt(deadline)))
        pthread_setspecific(l, UnsafeRawPointer(bitPattern: UInt(previousLimit == nil ? milliseconds : limitMilliseconds)))
        defer {
            pthread_setspecific(k, previous)
            pthread_setspecific(l, previousLimit)
        }
        return try body()
    }
}
