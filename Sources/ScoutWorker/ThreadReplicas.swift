#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// One private copy of a read-only object per thread, made on the thread's first use.
///
/// Copying a Swift value or reference that lives in a shared object changes that object's
/// reference counts: an atomic write to one cache line, which two cores asking at once
/// pass back and forth. A ranking job asks the recommender's activities and weights
/// hundreds of times a request, from every lane; with a copy per thread each lane counts
/// on its own lines. The copies must answer exactly as the original does (they are made by
/// the same loader from the same bytes).
///
/// The copies live in their thread's ``ThreadStore``: a thread's copies go when the thread
/// ends, and the copies of a `ThreadReplicas` that is gone are dropped by the next copy any
/// `ThreadReplicas` makes on that thread. So copies never outnumber the live threads times
/// the live owners (plus the dead owners' copies a thread holds until its next copy).
final class ThreadReplicas<Value: AnyObject & Sendable>: Sendable {
    private let make: @Sendable () -> Value
    /// This owner's key in every thread's store; never reused.
    private let id: UInt64

    /// Replicas made by `make`, one per thread.
    init(_ make: @escaping @Sendable () -> Value) {
        self.make = make
        id = ThreadStore.ids.wrappingAdd(1, ordering: .relaxed).oldValue
    }

    /// This thread's copy.
    var local: Value {
        let store = ThreadStore.current
        // Only this owner keeps a copy under its id, and always of its `Value`.
        if let value = store.values[id] { return unsafeDowncast(value, to: Value.self) }
        let value = make()
        store.keep(value, id: id, owner: self)
        return value
    }
}

/// A thread's copies, by owner (``ThreadReplicas``): one per thread, created on first use,
/// released when the thread ends.
final class ThreadStore {
    /// An owner, held weakly so that a store can tell a gone owner's copies.
    struct Owner {
        weak var object: AnyObject?
    }

    /// Copies by their owner's id (looking one up touches nothing but this thread's own
    /// objects).
    var values: [UInt64: AnyObject] = [:]
    /// The owners of those copies.
    private var owners: [UInt64: Owner] = [:]

    /// Owner ids, handed out once each.
    static let ids = Atomic<UInt64>(0)

    /// The process's key to each thread's store; a thread's store is released as it ends.
    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        let status = pthread_key_create(&key) { slot in
            if let slot { Unmanaged<ThreadStore>.fromOpaque(slot).release() }
        }
        precondition(status == 0, "no thread-specific key for the worker's per-thread copies (error \(status))")
        return key
    }()

    /// This thread's store.
    static var current: ThreadStore {
        if let slot = pthread_getspecific(key) { return Unmanaged<ThreadStore>.fromOpaque(slot).takeUnretainedValue() }
        let store = ThreadStore()
        pthread_setspecific(key, Unmanaged.passRetained(store).toOpaque())
        return store
    }

    /// Keeps a copy for `owner`, first dropping the copies of owners that are gone.
    func keep(_ value: AnyObject, id: UInt64, owner: AnyObject) {
        for (gone, o) in owners where o.object == nil {
            owners[gone] = nil
            values[gone] = nil
        }
        owners[id] = Owner(object: owner)
        values[id] = value
    }
}
