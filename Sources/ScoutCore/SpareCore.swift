import Dispatch
import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Runs a side job on a spare core while the caller does other work, and on the caller's
/// own thread when no core is spare: the answer is the same either way, only the
/// wall-clock time differs.
///
/// ```swift
/// let proof = SpareCore.post(expectedNanoseconds: 40 * ring.count) { provesSimple(ring) }
/// buildIndex()                     // meanwhile, on this thread
/// let proved = proof.result()      // runs here if no spare core took it
/// ```
///
/// One helper thread serves the process, under Linux's `SCHED_IDLE` policy: it gets a core
/// only when no other thread of the machine wants it, so it never slows real work down.
/// After a job it polls for the next one for ``spinWindow`` (a burst of jobs costs one
/// wake-up, not one per job: waking a sleeping thread takes 20–50 µs on a shared VM, as
/// long as a job), then sleeps until a job is posted.
///
/// A caller never waits long for the helper:
/// - a job the helper has not taken when the caller asks for its result runs on the
///   caller at once;
/// - a job the helper took but has not finished within its expected time (a helper that
///   lost its core to other work) is run again by the caller, whose answer is used; a
///   caller waiting past ``waitSpinning`` sleeps between looks, leaving its core to the
///   helper;
/// - a caller never waits for the queue's lock (the helper may hold it while it has no
///   core): if the lock is busy, the job is not queued and stays with its caller.
/// So a job must be a pure function of what it captured (it may run twice, at once on two
/// threads), must not depend on the caller's thread-specific state (a per-thread deadline
/// or context), and should be short: the helper runs jobs one at a time.
public enum SpareCore {
    /// How long the helper polls for the next job after one, in nanoseconds: 0.5 ms (at
    /// idle priority, so only on a core nothing else wants).
    public static let spinWindow: UInt64 = 500_000

    /// How long a caller waiting for a job the helper is running spins, in nanoseconds:
    /// 0.2 ms. Past it, the caller sleeps 0.1 ms between looks until the job's expected
    /// time runs out (a short job's answer is waited for on the spot, a long job's without
    /// taking a core from the helper).
    public static let waitSpinning: UInt64 = 200_000

    /// Most jobs the helper's queue holds; past it a job stays with its caller. A job its
    /// caller ran itself stays queued (holding what it captured) until the helper reaches
    /// it, and at idle priority the helper may not run for as long as the machine is busy:
    /// without a bound, a busy worker's queue would grow with every polygon it is sent.
    public static let maximumQueued = 64

    /// Whether a helper thread exists: more than one processor is online. (With one, every
    /// job runs on its caller.)
    public static let hasHelper = ProcessInfo.processInfo.activeProcessorCount > 1

    /// Posts `work` for the helper and returns its handle; ``Job/result()`` gives the answer.
    ///
    /// - Parameters:
    ///   - expectedNanoseconds: about how long `work` takes on a free core; a caller waits
    ///     for the helper at most this long before running the job itself.
    ///   - ahead: queue it before the jobs already waiting (a job whose caller will need
    ///     its answer soon, behind long ones whose callers can go on without theirs).
    public static func post<T: Sendable>(expectedNanoseconds: Int, ahead: Bool = false, _ work: @escaping @Sendable () -> T) -> Job<T> {
        let job = Job(patience: UInt64(max(expectedNanoseconds, 0)), work)
        if hasHelper { Helper.shared.enqueue([job], ahead: ahead) }
        return job
    }

    /// Posts two jobs at once, the helper to take them in this order. (Posted one after the
    /// other, the second could find the queue's lock held by the helper taking the first,
    /// and stay with its caller.)
    public static func post<A: Sendable, B: Sendable>(expectedNanoseconds first: Int, _ a: @escaping @Sendable () -> A,
                                                      thenExpectedNanoseconds second: Int,
                                                      _ b: @escaping @Sendable () -> B) -> (Job<A>, Job<B>) {
        let jobs = (Job(patience: UInt64(max(first, 0)), a), Job(patience: UInt64(max(second, 0)), b))
        if hasHelper { Helper.shared.enqueue([jobs.0, jobs.1]) }
        return jobs
    }

    /// Hands the last reference to `object` to the helper, so that its deinit (and all it
    /// frees: a big structure's thousands of buffers take milliseconds) runs on the idle
    /// core instead of the caller's thread. The caller must hold no other reference (pass
    /// it straight from `Optional.take()`). With no helper, or when the queue's lock is
    /// busy, the object is released here, as without this call.
    public static func release<T: AnyObject & Sendable>(_ object: consuming T) {
        // Moved into the job, so that the job holds the only reference the caller gave.
        _ = post(expectedNanoseconds: 0) { [object = consume object] in withExtendedLifetime(object) {} }
    }

    /// A posted side job.
    public final class Job<T: Sendable>: @unchecked Sendable, Runnable {
        /// 0 posted, 1 running on the helper, 2 taken by the caller, 3 done by the helper.
        private let state = Atomic<Int>(0)
        private let work: @Sendable () -> T
        private let patience: UInt64
        /// Written by the helper before `state` becomes 3 (releasing); read by the caller
        /// only after it sees 3 (acquiring).
        private var value: T?
        /// Who produced the answer the caller got (for tests and measurements).
        private let answeredByHelper = Atomic<Bool>(false)

        init(patience: UInt64, _ work: @escaping @Sendable () -> T) {
            self.patience = patience
            self.work = work
        }

        /// The job's answer: run here if the helper has not taken it; else the helper's,
        /// waited for up to the job's expected time, after which the job runs here too.
        /// Any number of calls, from any threads, get an answer: once the helper has finished,
        /// its own at once; a caller that finds another caller running the job waits up to
        /// the expected time, as for the helper, then runs it too.
        public func result() -> T {
            if state.compareExchange(expected: 0, desired: 2, ordering: .acquiringAndReleasing).exchanged { return work() }
            let started = SpareCore.now()
            let giveUp = started &+ patience
            var spins = 0
            while state.load(ordering: .acquiring) != 3 {
                spins &+= 1
                guard spins & 63 == 0 else { continue }
                let now = SpareCore.now()
                if now > giveUp { return work() }
                // A long job: past ``waitSpinning`` the caller sleeps between looks, so that
                // its own core is free for the helper (which runs only on a core nothing
                // else wants: a spinning caller could starve it on a busy machine).
                if now &- started > SpareCore.waitSpinning { usleep(100) }
            }
            answeredByHelper.store(true, ordering: .relaxed)
            return value.unsafelyUnwrapped
        }

        /// Whether the helper has finished the job: ``result()`` then returns its answer at
        /// once. A caller can poll this to pick the answer up only when it is ready.
        public var isFinished: Bool { state.load(ordering: .acquiring) == 3 }

        /// Whether the answer ``result()`` gave came from the helper.
        public var resultCameFromHelper: Bool { answeredByHelper.load(ordering: .relaxed) }

        /// Whether the helper has taken the job (running or done), for tests.
        package var takenByHelper: Bool {
            let s = state.load(ordering: .acquiring)
            return s == 1 || s == 3
        }

        /// Called by the helper: runs the job unless the caller took it first.
        func runOnHelper() {
            guard state.compareExchange(expected: 0, desired: 1, ordering: .acquiringAndReleasing).exchanged else { return }
            value = work()
            state.store(3, ordering: .releasing)
        }
    }

    /// What the helper's queue holds.
    protocol Runnable: AnyObject, Sendable {
        /// Runs the job on the helper unless its caller took it.
        func runOnHelper()
    }

    /// The helper thread and its queue.
    final class Helper: @unchecked Sendable {
        static let shared = Helper()

        private let queue = Mutex<[any Runnable]>([])
        private let pending = Atomic<Int>(0)
        private let sleeping = Atomic<Bool>(false)
        private let wake = DispatchSemaphore(value: 0)
        /// The helper's `pthread_t`, once it runs.
        let thread = Atomic<UInt>(0)

        private init() {
            let t = Thread { [self] in loop() }
            t.name = "scout-spare-core"
            t.start()
        }

        /// Queues `job` for the helper, unless the queue's lock is held: the helper runs at
        /// idle priority and can lose its core while it holds the lock (for as long as the
        /// machine stays busy), so a caller never waits for the lock; the job then stays
        /// with its caller, which runs it in ``Job/result()``.
        func enqueue(_ job: any Runnable) { enqueue([job]) }

        /// Queues `jobs` in order, all or none: none when the lock is held (see above) or the
        /// queue would pass ``SpareCore/maximumQueued``; before the jobs waiting when `ahead`.
        func enqueue(_ jobs: [any Runnable], ahead: Bool = false) {
            let queued = queue.withLockIfAvailable { q -> Bool in
                guard q.count + jobs.count <= SpareCore.maximumQueued else { return false }
                if ahead { q.insert(contentsOf: jobs, at: 0) } else { q.append(contentsOf: jobs) }
                return true
            }
            guard queued == true else { return }
            pending.add(jobs.count, ordering: .sequentiallyConsistent)
            if sleeping.exchange(false, ordering: .sequentiallyConsistent) { wake.signal() }
        }

        func withQueueHeld<R>(_ body: () -> R) -> R {
            queue.withLock { _ in body() }
        }

        private func take() -> (any Runnable)? {
            guard pending.load(ordering: .sequentiallyConsistent) > 0 else { return nil }
            return queue.withLock { q -> (any Runnable)? in
                guard !q.isEmpty else { return nil }
                pending.subtract(1, ordering: .sequentiallyConsistent)
                return q.removeFirst()
            }
        }

        private func loop() {
            thread.store(pthread_self(), ordering: .releasing)
            // SCHED_IDLE (5 in Linux's <sched.h>, not exported to Swift): run only on a
            // core nothing else wants. If the kernel refuses, the helper stays as it is.
            var param = sched_param()
            _ = pthread_setschedparam(pthread_self(), 5, &param)
            var last = SpareCore.now()
            while true {
                if let job = take() {
                    job.runOnHelper()
                    last = SpareCore.now()
                    continue
                }
                if SpareCore.now() &- last < SpareCore.spinWindow { continue }
                sleeping.store(true, ordering: .sequentiallyConsistent)
                if pending.load(ordering: .sequentiallyConsistent) > 0 {
                    // A job arrived between the poll and the flag: do not sleep.
                    sleeping.store(false, ordering: .sequentiallyConsistent)
                    continue
                }
                wake.wait()
                last = SpareCore.now()
            }
        }
    }

    /// Runs `body` while holding the helper queue's lock, as a helper that lost its core
    /// while taking a job would (for tests).
    package static func withQueueHeld<R>(_ body: () -> R) -> R {
        Helper.shared.withQueueHeld(body)
    }

    /// Whether the calling thread is the helper (for tests).
    package static var isHelperThread: Bool { hasHelper && pthread_equal(pthread_self(), Helper.shared.thread.load(ordering: .acquiring)) != 0 }

    /// Monotonic clock, nanoseconds.
    static func now() -> UInt64 {
        var t = timespec()
        clock_gettime(CLOCK_MONOTONIC, &t)
        return UInt64(t.tv_sec) &* 1_000_000_000 &+ UInt64(t.tv_nsec)
    }
}
