#if canImport(Glibc)
import Glibc
#endif

/// One private copy of a read-only object per thread, made on the thread's first use.
///
/// Copying a Swift value or reference that lives in a shared object changes that object's
/// reference counts: an atomic write to one cache line, which two cores asking at once
/// pass back and forth. A ranking job asks the recommender's activities and weights
/// hundreds of times a request, from every lane; with a copy per thread each lane counts
/// on its own lines. The copies must answer exactly as the original does (they are made by
/// the same loader from the same bytes).
final class ThreadReplicas<Value: AnyObject & Sendable>: @unchecked Sendable {
    // @unchecked: the key is written once in `init`; each thread reads and writes only its
    // own slot.
    private var key = pthread_key_t()
    private let make: @Sendable () -> Value

    /// Replicas made by `make`, one per thread.
    init(_ make: @escaping @Sendable () -> Value) {
        self.make = make
        pthread_key_create(&key) { slot in
            // A thread ends: drop its copy.
            if let slot { Unmanaged<AnyObject>.fromOpaque(slot).release() }
        }
    }

    deinit {
        // Copies of threads still alive are kept until those threads end (the pool's live on).
        pthread_key_delete(key)
    }

    /// This thread's copy.
    var local: Value {
        if let slot = pthread_getspecific(key) { return Unmanaged<Value>.fromOpaque(slot).takeUnretainedValue() }
        let value = make()
        pthread_setspecific(key, Unmanaged<AnyObject>.passRetained(value).toOpaque())
        return value
    }
}
