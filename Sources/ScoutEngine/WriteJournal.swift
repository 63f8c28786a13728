#if canImport(Glibc)
import Glibc
#endif
import ScoutCore
import ScoutIndex

/// One write as the engine applies it: what a journal keeps to redo it.
///
/// Records are kept as stored, not as given: a dog is at its published cell unless the
/// engine keeps exact locations, so a journal never holds more than the engine does.
public enum EngineChange: Sendable {
    /// Records inserted or replaced (by kind and id), already validated.
    case upsert([PointRecord])
    /// Records of a kind removed by id (unknown ids are ignored).
    case remove(kind: String, ids: [String])
}

/// Where an engine records each write before applying it: a write-ahead journal.
///
/// The engine calls ``record(_:in:)`` under its write lock, after the write is validated and
/// before anything changes; if it throws, the write is refused and nothing changes. Once the
/// lock is released it calls ``commit(_:)`` with the ticket ``record(_:in:)`` returned, and
/// the write returns only when that is done, so a caller that saw a write succeed can rely
/// on whatever durability the journal promises. Several writers' commits may share one
/// flush to disk (group commit).
public protocol WriteJournal: AnyObject, Sendable {
    /// Appends a change; called with the engine's write lock held, so changes arrive in the
    /// order they are applied. The engine is passed so a journal may capture its state at
    /// this exact point (``Engine/capturedState()``) to compact itself. Returns a ticket
    /// for ``commit(_:)``.
    func record(_ change: EngineChange, in engine: Engine) throws(ScoutError) -> UInt64
    /// Returns once the change with `ticket` (and every change before it) is as durable as
    /// the journal promises. Throws when it cannot be made so.
    func commit(_ ticket: UInt64) throws(ScoutError)
}

/// The engine's records at one moment, kept as immutable views (taking one copies
/// nothing), to be written to a snapshot file later while the engine goes on.
package struct CapturedState: Sendable {
    let kinds: [(name: String, points: PointSet.Snapshot?, placeless: PlacelessSet.Snapshot?)]
    let reference: SnapshotReferenceFiles
}

extension Engine {
    /// Attaches a journal: every later write is recorded in it before it is applied.
    /// Attach it before the engine takes writes from anyone else (a write racing with this
    /// call may or may not be journalled); replaying a journal into the engine is done
    /// before attaching it.
    public func attach(journal: any WriteJournal) {
        writeLock.withLock { _ in journalSlot.withLock { $0 = journal } }
    }

    /// True when a journal is attached.
    public var isJournalled: Bool { journalSlot.withLock { $0 != nil } }

    /// The engine's records now. Call it only with the write lock held — that is, from
    /// ``WriteJournal/record(_:in:)`` — so that the state is exactly that of the changes
    /// recorded before.
    package func capturedState() -> CapturedState {
        let located = setsNow(), placeless = placelessSetsNow()
        let names = Set(located.keys).union(placeless.keys).sorted()
        return CapturedState(kinds: names.map { ($0, located[$0]?.snapshot(), placeless[$0]?.snapshot()) },
                             reference: referenceFiles)
    }

    /// Writes a captured state to a snapshot file atomically (a temporary file, fsynced, then
    /// renamed over `path`). Runs on any thread; the engine keeps serving and taking writes.
    package func writeSnapshot(_ state: CapturedState, to path: String) throws(ScoutError) {
        let kinds = state.kinds.map { k in
            SnapshotFile.Kind(name: k.name, live: k.points?.exportLive() ?? LiveExport(ids: [], coords: [], payloads: []),
                              placeless: k.placeless)
        }
        try SnapshotFile.write(path: path, kinds: kinds, reference: state.reference, privacy: privacy)
    }

    /// Runs `body` with the commits of this thread's writes deferred: each write inside is
    /// applied and recorded in the journal as usual but returns without waiting for
    /// ``WriteJournal/commit(_:)``. Returns `body`'s value and the highest ticket deferred
    /// (`nil` when no journalled write ran); pass it to ``commit(through:)`` before telling
    /// anyone the writes succeeded. A worker answering a stream of writes uses this to make
    /// one flush cover many of them.
    public func withDeferredCommits<T>(_ body: () throws -> T) rethrows -> (value: T, ticket: UInt64?) {
        let box = DeferredCommits()
        let previous = pthread_getspecific(deferredCommitsKey)
        pthread_setspecific(deferredCommitsKey, Unmanaged.passUnretained(box).toOpaque())
        defer { pthread_setspecific(deferredCommitsKey, previous) }
        let value = try body()
        return (value, box.ticket)
    }

    /// Waits until every journalled write up to `ticket` is committed (see
    /// ``withDeferredCommits(_:)``); does nothing without a journal.
    public func commit(through ticket: UInt64) throws(ScoutError) {
        guard let journal = journalSlot.withLock({ $0 }) else { return }
        try journal.commit(ticket)
    }

    /// Runs a write under the write lock: `body` validates it against the current state
    /// and returns how to describe the change (asked only when a journal is attached, so an
    /// engine without one never builds it) and how to apply it. The change is recorded in
    /// the journal before it is applied; the write then waits for its commit (or defers it,
    /// see ``withDeferredCommits(_:)``). When `body` or the journal throws, nothing changes.
    func write<T>(_ body: () throws(ScoutError) -> (change: () -> EngineChange?, apply: () -> T)) throws(ScoutError) -> T {
        let (value, journal, ticket) = try writeLock.withLock { (_: inout ()) throws(ScoutError) -> (T, (any WriteJournal)?, UInt64?) in
            let (change, apply) = try body()
            let journal = journalSlot.withLock { $0 }
            var ticket: UInt64?
            if let journal, let change = change() { ticket = try journal.record(change, in: self) }
            return (apply(), journal, ticket)
        }
        guard let journal, let ticket else { return value }
        if let deferred = pthread_getspecific(deferredCommitsKey) {
            let box = Unmanaged<DeferredCommits>.fromOpaque(deferred).takeUnretainedValue()
            box.ticket = max(box.ticket ?? 0, ticket)
        } else {
            try journal.commit(ticket)
        }
        return value
    }
}

/// The highest ticket a thread deferred inside ``Engine/withDeferredCommits(_:)``.
private final class DeferredCommits {
    var ticket: UInt64?
}

/// The thread-specific slot of ``DeferredCommits`` (one per process).
private let deferredCommitsKey: pthread_key_t = {
    var key = pthread_key_t()
    pthread_key_create(&key, nil)
    return key
}()
