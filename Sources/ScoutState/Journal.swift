#if canImport(Glibc)
import Glibc
#endif
import Dispatch
import Logging
import Metrics
import ScoutCore
import ServiceLifecycle
import ScoutEngine

/// When the journal is flushed to disk, with Redis's `appendfsync` meanings.
public enum FsyncPolicy: String, Sendable, CaseIterable {
    /// Before a write is answered: an answered write survives a power cut. Writers waiting
    /// at the same time share one flush (group commit).
    case always
    /// In the background once a second: a power cut loses at most about a second of
    /// answered writes; a crash of the process alone loses none.
    case everysec
    /// Never by Scout (the kernel writes back when it likes): a process crash loses no
    /// answered write, a power cut may lose any not yet written back.
    case no
}

/// A write-ahead journal in a state directory (``StateDirectory``): every change the
/// engine applies is appended to the current segment file first, and flushed to disk as
/// ``FsyncPolicy`` says. When the segment grows past ``compactAt`` bytes, the journal starts
/// a new segment and folds everything before it into a snapshot in the background; readers
/// and writers go on meanwhile (writes land in the new segment), and the old segment and
/// snapshot are deleted once the new snapshot is renamed into place.
///
/// A write the journal cannot append (disk full) is refused with `internal` and nothing
/// changes. A failed flush is not retried — the kernel may have dropped the data it could
/// not write, so nothing can be promised about it: the journal refuses every later write,
/// and the caller should stop and restart from the directory (what PostgreSQL does).
public final class Journal: WriteJournal, @unchecked Sendable {
    // @unchecked: every mutable field is read and written only with `lock` held.

    /// The state directory.
    public let directory: String
    /// When appended changes are flushed to disk.
    public let policy: FsyncPolicy
    /// Segment size, in bytes, past which the journal is compacted.
    public let compactAt: Int
    let exactDogLocations: Bool
    let logger: Logger
    /// `scout_journal_flushes_total`, `scout_journal_flush_duration_seconds`,
    /// `scout_compactions_total{outcome}` (swift-metrics; free without a backend).
    private let flushes = Counter(label: "scout_journal_flushes_total")
    private let flushTime = Metrics.Timer(label: "scout_journal_flush_duration_seconds", preferredDisplayUnit: .seconds)
    private let compacted = Counter(label: "scout_compactions_total", dimensions: [("outcome", "ok")])
    private let compactionFailed = Counter(label: "scout_compactions_total", dimensions: [("outcome", "failed")])
    private let lock = ConditionLock()
    private var segment: Segment
    private var nextSequence: UInt64
    private var durable: UInt64
    private var syncing = false
    private var failure: String?
    private var compacting = false
    private var timer: DispatchSourceTimer?
    private var tally = Counters()
    private let compactions = DispatchGroup()
    /// Keeps the directory's lock (``StateDirectory``) until ``close()``.
    private var lockFile: Int32

    /// What the journal has done so far.
    public struct Counters: Sendable {
        /// Changes appended.
        public var appended = 0
        /// Flushes to disk (fdatasync calls).
        public var flushes = 0
        /// Compactions finished (new snapshot in place, old files gone).
        public var compactions = 0
    }

    /// An open segment file; closed when the last reference goes (a flush in flight keeps
    /// the old one open through a segment switch).
    final class Segment: @unchecked Sendable {
        let fd: Int32
        let number: UInt64
        /// Bytes in the file (header and good records); changed only under the journal's lock.
        var size: Int
        init(fd: Int32, number: UInt64, size: Int) {
            self.fd = fd
            self.number = number
            self.size = size
        }
        deinit { Glibc.close(fd) }
    }

    init(directory: String, policy: FsyncPolicy, compactAt: Int, exactDogLocations: Bool, segment: Segment,
         nextSequence: UInt64, lockFile: Int32, logger: Logger) {
        self.directory = directory
        self.policy = policy
        self.compactAt = max(compactAt, JournalFile.headerSize + 1)
        self.exactDogLocations = exactDogLocations
        self.segment = segment
        self.nextSequence = nextSequence
        self.durable = nextSequence &- 1
        self.lockFile = lockFile
        self.logger = logger
        if policy == .everysec {
            let t = DispatchSource.makeTimerSource(queue: DispatchQueue(label: "scout.journal.everysec", qos: .utility))
            t.schedule(deadline: .now() + 1, repeating: 1)
            t.setEventHandler { [weak self] in self?.flush() }
            t.resume()
            timer = t
        }
    }

    deinit {
        timer?.cancel()
        if lockFile >= 0 { Glibc.close(lockFile) }
    }

    /// What the journal has done so far.
    public var counters: Counters { lock.locked { tally } }

    // MARK: WriteJournal

    /// Appends a change to the current segment (compacting first when it is full). Throws
    /// `internal` when the change cannot be written; the segment is then as it was.
    public func record(_ change: EngineChange, in engine: Engine) throws(ScoutError) -> UInt64 {
        lock.lock()
        defer { lock.unlock() }
        if let failure { throw ScoutError(.internal, "writes are refused: \(failure); restart from the state directory") }
        if segment.size >= compactAt && !compacting { startCompaction(engine) }
        let sequence = nextSequence
        let record = try JournalFile.recordBytes(change, sequence: sequence)
        if let e = Journal.write(segment.fd, record, at: segment.size) {
            // Take back whatever part of the record reached the file, so the next one follows a good record.
            if ftruncate(segment.fd, off_t(segment.size)) != 0 {
                failure = "journal-\(segment.number).log could not be cut back after a failed write (errno \(errno))"
            }
            throw ScoutError(.internal, "the write was not applied: the journal could not be written (\(String(cString: strerror(e))))")
        }
        segment.size += record.count
        nextSequence += 1
        tally.appended += 1
        return sequence
    }

    /// Under ``FsyncPolicy/always``, returns once the change is on disk, flushing it (and
    /// every change appended meanwhile, for whoever waits for them) unless another thread's
    /// flush already covers it. Under the other policies returns at once.
    public func commit(_ ticket: UInt64) throws(ScoutError) {
        guard policy == .always else {
            if let failure = lock.locked({ failure }) { throw ScoutError(.internal, "the journal failed: \(failure)") }
            return
        }
        lock.lock()
        defer { lock.unlock() }
        while true {
            if let failure { throw ScoutError(.internal, "the write may not be on disk: \(failure); restart from the state directory") }
            if durable >= ticket { return }
            if syncing { lock.wait(); continue }
            flushLocked()
        }
    }

    /// Flushes what was appended and not yet flushed (the once-a-second flush, and the
    /// last one on close).
    public func flush() {
        lock.lock()
        defer { lock.unlock() }
        while failure == nil && durable < nextSequence &- 1 {
            if syncing { lock.wait(); continue }
            flushLocked()
        }
    }

    /// Flushes the current segment with the lock released meanwhile; called with it held
    /// and `syncing` false.
    private func flushLocked() {
        syncing = true
        let target = nextSequence &- 1, file = segment
        lock.unlock()
        let started = DispatchTime.now().uptimeNanoseconds
        let ok = fdatasync(file.fd) == 0
        let e = errno
        flushTime.recordNanoseconds(Int64(DispatchTime.now().uptimeNanoseconds &- started))
        flushes.increment()
        lock.lock()
        syncing = false
        tally.flushes += 1
        if ok { durable = max(durable, target) } else { failure = "flushing journal-\(file.number).log failed (\(String(cString: strerror(e))))" }
        lock.broadcast()
    }

    /// Waits for a compaction in progress, flushes, stops the once-a-second flush and
    /// releases the directory; later writes to the engine are refused.
    public func close() {
        compactions.wait()
        flush()
        lock.locked {
            timer?.cancel()
            timer = nil
            if failure == nil { failure = "the journal was closed" }
            if lockFile >= 0 { Glibc.close(lockFile); lockFile = -1 }
        }
    }

    // MARK: Compaction

    /// Starts a new segment and writes the engine's state as of now — every change in the
    /// segments before it — to a snapshot in the background. Called with the lock and the
    /// engine's write lock held.
    private func startCompaction(_ engine: Engine) {
        let old = segment
        let number = old.number + 1
        // The old segment is flushed first, so that if the snapshot fails, what it holds is as
        // durable as the policy said when the new segment starts.
        if policy != .no, fdatasync(old.fd) == 0 { durable = nextSequence &- 1 }
        let next: Segment
        do { next = try StateDirectory.createSegment(in: directory, number: number, firstSequence: nextSequence,
                                                    exactDogLocations: exactDogLocations) } catch {
            logger.error("compaction skipped: \(error.message)")
            compactionFailed.increment()
            return
        }
        let state = engine.capturedState()
        segment = next
        compacting = true
        compactions.enter()
        DispatchQueue.global(qos: .utility).async { [self] in
            defer { compactions.leave() }
            let started = StateDirectory.now()
            let path = StateDirectory.snapshotPath(directory, number)
            do {
                try engine.writeSnapshot(state, to: path)
                StateDirectory.syncDirectory(directory)
                StateDirectory.removeFiles(in: directory, before: number)
                logger.info("compacted journal-\(old.number).log into snapshot-\(number).scout in \(String(format: "%.3f", StateDirectory.now() - started)) s")
                lock.locked { tally.compactions += 1 }
                compacted.increment()
            } catch let error as ScoutError {
                logger.error("compaction into snapshot-\(number).scout failed (\(error.message)); the journal segments stay and are replayed on start")
                compactionFailed.increment()
            } catch {
                logger.error("compaction into snapshot-\(number).scout failed (\(error))")
                compactionFailed.increment()
            }
            lock.locked { compacting = false }
        }
    }

    /// Writes all of `bytes` at `offset`; returns errno on failure.
    static func write(_ fd: Int32, _ bytes: [UInt8], at offset: Int) -> Int32? {
        bytes.withUnsafeBytes { raw -> Int32? in
            var done = 0
            while done < raw.count {
                let n = pwrite(fd, raw.baseAddress! + done, raw.count - done, off_t(offset + done))
                if n < 0 { if errno == EINTR { continue }; return errno }
                done += n
            }
            return nil
        }
    }
}

/// The journal as a swift-service-lifecycle `Service`: put it in a `ServiceGroup` before the
/// service that writes to the engine (a group shuts its services down in reverse order), and
/// a graceful shutdown (SIGTERM, or the group's own) closes it after the writers stopped:
/// it waits for a compaction in progress, flushes, and releases the directory.
///
///     let state = try StateDirectory.open("/var/lib/scout") { () throws(ScoutError) in (engine, nil) }
///     let group = ServiceGroup(services: [state.journal, app], gracefulShutdownSignals: [.sigterm], logger: logger)
///     try await group.run()
extension Journal: Service {
    /// Waits until a graceful shutdown is asked for (or the task is cancelled), then closes
    /// the journal (``close()``).
    public func run() async throws {
        try? await gracefulShutdown()
        close()
    }
}

/// A mutex with a condition variable (pthreads).
final class ConditionLock: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    init() {
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(condition, nil)
    }
    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }
    func lock() { pthread_mutex_lock(mutex) }
    func unlock() { pthread_mutex_unlock(mutex) }
    /// Waits for a broadcast; called with the lock held, returns with it held.
    func wait() { pthread_cond_wait(condition, mutex) }
    func broadcast() { pthread_cond_broadcast(condition) }
    func locked<T>(_ body: () throws -> T) rethrows -> T {
        lock()
        defer { unlock() }
        return try body()
    }
}
