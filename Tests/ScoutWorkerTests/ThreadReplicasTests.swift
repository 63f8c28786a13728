import Dispatch
@testable import ScoutWorker
import Synchronization
import Testing

/// Per-thread copies: one per thread and owner, and none kept for an owner that is gone
/// (a process that makes worker after worker, as the fuzzer does, holds no more copies).
@Suite struct ThreadReplicasTests {
    final class Copy: Sendable {}

    @Test func oneCopyPerThreadAndNoneForAGoneOwner() {
        let made = Mutex(0)
        var owner: ThreadReplicas<Copy>? = ThreadReplicas { made.withLock { $0 += 1 }; return Copy() }
        weak var gone: Copy?
        do {
            let first = owner!.local
            #expect(owner!.local === first && made.withLock { $0 } == 1, "one copy per thread")
            gone = first
            // Other threads get copies of their own, one each.
            let shared = owner!
            DispatchQueue.concurrentPerform(iterations: 4) { _ in
                #expect(shared.local === shared.local)
            }
            #expect(made.withLock { $0 } <= 5)
        }
        // The owner goes; the next copy any owner makes on this thread drops its copy.
        owner = nil
        let next = ThreadReplicas { Copy() }
        _ = next.local
        #expect(gone == nil, "a gone owner's copy is released")
        // Many owners in turn, as a fuzzer making a worker per input: copies do not pile up.
        for _ in 0..<1_000 { _ = ThreadReplicas { Copy() }.local }
        #expect(ThreadStore.current.values.count <= 3)
    }
}
