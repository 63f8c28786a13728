import Dispatch
import Foundation
import Synchronization

/// The answers one thread makes in turn (``LineServer``'s requests answered one after
/// another), written a few at a time: the answers ready ``holdNanoseconds`` after the
/// first one not yet written, or ``maximumBytes`` of answers, or up to the last answer of
/// a block, in one `write` call. While the next request runs, a flushing thread writes the
/// answers that have waited ``holdNanoseconds``, so no answer waits for a slower request
/// after it: an answer leaves at most ~0.2 ms (plus a sleep's overshoot) after it is ready.
///
/// Written one by one, the answers to a stream of fast requests cost a `write` call each
/// (~0.5 µs of a ~6 µs request) and woke the reader as often: through a pipe to a Python
/// client, a stream of requests that match nothing took 12.7 µs a request one answer at a
/// time and 8.3 µs a few at a time (`docs/benchmarks.md`).
final class AnswerBatch: Sendable {
    private struct State {
        var pending: [Worker.Response] = []
        var bytes = 0
        /// When the first pending answer was added (`DispatchTime` uptime, ns).
        var since: UInt64 = 0
        var closed = false
    }

    /// Longest an answer waits for those after it: 0.2 ms.
    static let holdNanoseconds: UInt64 = 200_000
    /// Most bytes of answers written together.
    static let maximumBytes = 32 << 10

    private let state = Mutex(State())
    /// Signalled when an answer comes to an empty batch, and at ``close()``.
    private let wake = DispatchSemaphore(value: 0)
    private let stopped = DispatchSemaphore(value: 0)
    /// Writes whole answers in order; called under `state`'s lock, so by one thread at a time.
    private let write: @Sendable ([Worker.Response]) -> Void

    /// A batch whose answers go to `write`, with its flushing thread started.
    init(write: @escaping @Sendable ([Worker.Response]) -> Void) {
        self.write = write
        let flusher = Thread { [self] in flushWhatWaits() }
        flusher.name = "scout-answers"
        flusher.start()
    }

    /// Adds the next answer; with `last`, writes it and every answer before it now.
    func add(_ response: Worker.Response, last: Bool) {
        let now = DispatchTime.now().uptimeNanoseconds
        let started: Bool = state.withLock { s in
            let started = s.pending.isEmpty
            if started { s.since = now }
            s.pending.append(response)
            s.bytes += response.line.count + 1
            guard last || s.bytes >= AnswerBatch.maximumBytes || now &- s.since >= AnswerBatch.holdNanoseconds else { return started }
            flush(&s)
            return false
        }
        if started { wake.signal() }
    }

    /// Writes what is pending and stops the flushing thread (waits for it).
    func close() {
        state.withLock { s in
            flush(&s)
            s.closed = true
        }
        wake.signal()
        stopped.wait()
    }

    /// Writes the pending answers, if any (under `state`'s lock).
    private func flush(_ s: inout State) {
        guard !s.pending.isEmpty else { return }
        write(s.pending)
        s.pending.removeAll(keepingCapacity: true)
        s.bytes = 0
    }

    /// The flushing thread: after each wake-up, sleeps until the oldest pending answer has
    /// waited ``holdNanoseconds`` and writes the batch, unless the answering thread has
    /// written it meanwhile (a later batch is then waited for in turn).
    private func flushWhatWaits() {
        while true {
            wake.wait()
            while true {
                let (empty, since, closed) = state.withLock { ($0.pending.isEmpty, $0.since, $0.closed) }
                if closed {
                    stopped.signal()
                    return
                }
                if empty { break }
                let due = since &+ AnswerBatch.holdNanoseconds, now = DispatchTime.now().uptimeNanoseconds
                if now < due {
                    usleep(UInt32((due - now) / 1_000) + 1)
                    continue
                }
                state.withLock { s in
                    guard s.since == since else { return }
                    flush(&s)
                }
            }
        }
    }
}
