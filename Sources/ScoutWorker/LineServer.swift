#if canImport(Glibc)
import Glibc
#endif

import Dispatch
import ScoutCore
import ScoutEngine
import Synchronization

/// Runs a ``Worker`` over file descriptors: request lines in, response lines out. Both
/// `scout serve` and `scout rank` are this pipeline.
///
/// When several complete request lines are already waiting, consecutive read-only
/// requests (every op ``Worker/operations`` marks read-only) are answered in parallel on
/// up to ``threads`` threads; a write (`load`, `upsert`, `remove`) waits for the reads
/// before it and runs alone, so every request sees exactly the writes that came before it
/// and no read after it misses it. Responses are written in request order, each as soon
/// as it and every response before it are ready: a fast answer is never held by a slower
/// request sent after it, and a slow one holds those after it for at most the worker's
/// deadline. With ``readOnly``, a write op is answered with an error and not run.
///
/// Input is read in blocks (64 KiB; 1 MiB with ``readOnly``) and split on `\n` (a
/// trailing `\r` is ignored); a line longer than ``Worker/maximumLineBytes`` is skipped to
/// its end and answered with `limit_exceeded`. Responses are written as whole lines, those
/// ready together with one `write` call. Nothing else goes to the output; EOF ends the
/// loop. The output of a run depends only on the requests and the engine, never on the
/// thread count.
///
/// With a journal attached to the engine (``Engine/attach(journal:)``), the writes of one
/// block of input lines commit together: each is applied and journalled in turn, the
/// answers from the first write on are held, and one commit (one flush under `--fsync
/// always`) covers them all before they are written — group commit for a stream of
/// writes, and no answer ever tells of a write the journal could still lose. If a commit
/// fails, the held answers are dropped, the loop ends and ``failure`` says why.
public struct LineServer {
    let worker: Worker
    let input: Int32
    let output: Int32
    /// Most requests answered at once.
    public let threads: Int
    /// True to refuse write ops (`scout rank`).
    public let readOnly: Bool
    /// Called on the writing thread after each response line is written.
    let observer: ((Worker.Response) -> Void)?
    private let outbox = Outbox()

    /// Why the last ``run()`` stopped before the end of its input (a journal commit
    /// failed), or `nil`.
    public var failure: ScoutError? { outbox.failure }

    /// Serves `worker` from `input` to `output` (default: stdin and stdout) on `threads`
    /// threads (default: every core).
    public init(worker: Worker, input: Int32 = 0, output: Int32 = 1, threads: Int = LineServer.defaultThreads,
                readOnly: Bool = false, observer: ((Worker.Response) -> Void)? = nil) {
        self.worker = worker
        self.input = input
        self.output = output
        self.threads = max(1, threads)
        self.readOnly = readOnly
        self.observer = observer
    }

    /// The number of cores this process may use.
    public static var defaultThreads: Int { max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))) }

    /// Serves until end of input. Returns the number of requests answered.
    @discardableResult
    public func run() -> Int {
        var buffer: [UInt8] = []
        // A ranking job reads 1 MiB at a time: each block ends with its lanes waiting for the
        // next, so fewer, larger blocks keep them busier; a server reads 64 KiB, to answer soon.
        var chunk = [UInt8](repeating: 0, count: readOnly ? 1 << 20 : 1 << 16)
        var answered = 0
        var skipping = false
        while true {
            let n = chunk.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
            if n < 0 { if errno == EINTR { continue }; break }
            if n == 0 { break }
            var start = 0
            var lines: [Line] = []
            for i in 0..<n where chunk[i] == 0x0A {
                if skipping || buffer.count + (i - start) > Worker.maximumLineBytes {
                    skipping = false
                    lines.append(.oversized)
                } else if buffer.isEmpty {
                    lines.append(.text(chunk[start..<i]))
                } else {
                    buffer.append(contentsOf: chunk[start..<i])
                    lines.append(.text(buffer[...]))
                }
                buffer.removeAll(keepingCapacity: true)
                start = i + 1
            }
            answered += handle(lines)
            if outbox.failure != nil { return answered }
            if !skipping {
                buffer.append(contentsOf: chunk[start..<n])
                if buffer.count > Worker.maximumLineBytes {
                    skipping = true
                    buffer.removeAll(keepingCapacity: false)
                }
            }
        }
        if skipping {
            drainPending()
            emit(Worker.Response(line: worker.respondToOversizedLine(), error: .limitExceeded))
            answered += 1
        } else if !buffer.isEmpty {
            answered += handle(buffer[...])
        }
        drainPending()
        return answered
    }

    private enum Line {
        case text(ArraySlice<UInt8>)
        case oversized
    }

    private func handle(_ line: ArraySlice<UInt8>) -> Int { handle([.text(line)]) }

    /// Answers a block of lines in order, running runs of read-only requests in parallel.
    private func handle(_ lines: [Line]) -> Int {
        // The request lines (`nil`: too long), without trailing `\r` and without blank lines.
        var texts: [ArraySlice<UInt8>?] = []
        for line in lines {
            switch line {
            case .oversized: texts.append(nil)
            case .text(var text):
                if text.last == 0x0D { text = text.dropLast() }
                if text.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { continue }
                texts.append(text)
            }
        }
        // A ranking job answers reads only, so no line needs parsing to know whether it may
        // run beside the others: the lanes parse as well as answer, and this thread only
        // reads and writes.
        if readOnly && threads >= 2 && texts.count >= 2 {
            let requests = texts
            // This block's lanes start before the previous block's answers are written, so the
            // lanes never wait for this thread between blocks.
            let batch = start(requests.count) { [worker] k in
                guard let text = requests[k] else {
                    return Worker.Response(line: worker.respondToOversizedLine(), error: .limitExceeded)
                }
                return worker.execute(worker.parse(text), allowWrites: false)
            }
            drainPending()
            outbox.pending = batch
            return texts.count
        }
        drainPending()
        let parsed = parse(texts)
        // Writes commit together at the end of the block; answers after the first write wait for it.
        let journalled = worker.engine.isJournalled
        let (_, ticket) = worker.engine.withDeferredCommits {
            var i = 0
            while i < parsed.count {
                var j = i
                while j < parsed.count && (readOnly || parsed[j].isReadOnly) { j += 1 }
                if j - i >= 2 && threads >= 2 {
                    let group = Array(parsed[i..<j])
                    let worker = self.worker, readOnly = self.readOnly
                    run(group.count) { k in worker.execute(group[k], allowWrites: !readOnly) }
                } else {
                    for k in i..<j { emit(worker.execute(parsed[k], allowWrites: !readOnly)) }
                }
                if j < parsed.count {
                    let response = worker.execute(parsed[j], allowWrites: !readOnly)
                    if journalled { outbox.holding = true }
                    emit(response)
                    j += 1
                }
                i = j
            }
        }
        if let ticket {
            do { try worker.engine.commit(through: ticket) } catch {
                outbox.failure = error
                outbox.held.removeAll()
            }
        }
        outbox.holding = false
        write(outbox.held)
        outbox.held.removeAll()
        return parsed.count
    }

    /// The lines parsed (`nil`: a line too long), on the lanes when there are many: parsing
    /// is most of the work of a small read, and it does not depend on the engine, so a block
    /// of lines is parsed at once before its runs of reads and its writes are told apart.
    private func parse(_ texts: [ArraySlice<UInt8>?]) -> [Worker.Parsed] {
        let worker = self.worker
        @Sendable func one(_ text: ArraySlice<UInt8>?) -> Worker.Parsed {
            text.map { worker.parse($0) } ?? .response(worker.respondToOversizedLine())
        }
        let count = texts.count
        guard threads >= 2, count >= LineServer.parallelParseMinimum else { return texts.map(one) }
        let pieces = min(threads * 4, count / (LineServer.parallelParseMinimum / 2))
        return [Worker.Parsed](unsafeUninitializedCapacity: count) { buffer, initialized in
            let out = UncheckedBuffer(buffer)
            DispatchQueue.concurrentPerform(iterations: pieces) { piece in
                for k in (count * piece / pieces)..<(count * (piece + 1) / pieces) {
                    (out.buffer.baseAddress! + k).initialize(to: one(texts[k]))
                }
            }
            initialized = count
        }
    }

    /// Answers a ranking job's writing thread waits for at a time.
    static let batchWait = 32

    /// Fewest lines in a block for parsing them on the lanes to be worth a hand-off.
    static let parallelParseMinimum = 16

    /// Answers `count` requests on up to `threads` lanes, `answer(k)` for the k-th, and
    /// writes each answer in order as soon as it and those before it are ready.
    ///
    /// This thread is one of the lanes, and there is no writing thread: the lane that
    /// finishes the first answer not yet written writes it, with every answer after it
    /// that is ready, and the others go on answering (``OrderedAnswers``). So no thread
    /// is woken for each answer, and the lanes alone share the cores.
    private func run(_ count: Int, _ answer: @escaping @Sendable (Int) -> Worker.Response) {
        let answers = OrderedAnswers(count: count)
        let next = Atomic<Int>(0)
        let lanes = min(threads, count)
        let done = DispatchGroup()
        let server = UncheckedServer(self)
        @Sendable func lane() {
            while true {
                let k = next.wrappingAdd(1, ordering: .relaxed).oldValue
                guard k < count else { return }
                var run = answers.finish(k, answer(k))
                while !run.isEmpty {
                    server.server.emit(run)
                    run = answers.wrote(run.count)
                }
            }
        }
        for _ in 1..<lanes { DispatchQueue.global().async(group: done) { lane() } }
        lane()
        done.wait()
    }

    /// Starts answering a ranking job's `count` requests on up to `threads` lanes,
    /// `answer(k)` for the k-th; ``drain(_:)`` writes them.
    private func start(_ count: Int, _ answer: @escaping @Sendable (Int) -> Worker.Response) -> Batch {
        let out = ResponseSlots(count: count)
        let next = Atomic<Int>(0)
        let lanes = min(threads, count)
        DispatchQueue.global().async {
            DispatchQueue.concurrentPerform(iterations: lanes) { _ in
                while true {
                    let k = next.wrappingAdd(1, ordering: .relaxed).oldValue
                    guard k < count else { return }
                    out.set(k, answer(k))
                }
            }
        }
        return Batch(slots: out, count: count)
    }

    /// Writes a ranking job's batch's answers in order (`serve` writes from its lanes, in
    /// ``run(_:_:)``).
    private func drain(_ batch: Batch) {
        let out = batch.slots, count = batch.count
        // No one waits for one answer of a ranking job, so this thread waits for a run of them
        // at a time: it wakes once per run, not once per answer, and leaves the cores to the
        // lanes. Answers already finished when the run is taken go out with it, in one write.
        var k = 0
        var ready: [Worker.Response] = []
        while k < count {
            out.wait(min(k + LineServer.batchWait - 1, count - 1))
            ready.append(out.get(k))
            k += 1
            while k < count, let r = out.take(k) {
                ready.append(r)
                k += 1
            }
            emit(ready)
            ready.removeAll(keepingCapacity: true)
        }
    }

    /// Writes the answers of a ranking job's block still being answered, if any.
    private func drainPending() {
        if let batch = outbox.pending {
            outbox.pending = nil
            drain(batch)
        }
    }

    private func emit(_ response: Worker.Response) {
        if outbox.holding { outbox.held.append(response) } else { write([response]) }
    }

    private func emit(_ responses: [Worker.Response]) {
        if outbox.holding { outbox.held.append(contentsOf: responses) } else { write(responses) }
    }

    /// Writes whole response lines, in order, with one `write` call (more only if the
    /// output takes part of it).
    private func write(_ responses: [Worker.Response]) {
        guard !responses.isEmpty else { return }
        var out: [UInt8]
        if responses.count == 1 { out = responses[0].line } else {
            out = []
            out.reserveCapacity(responses.reduce(responses.count) { $0 + $1.line.count })
            for r in responses.dropLast() {
                out.append(contentsOf: r.line)
                out.append(0x0A)
            }
            out.append(contentsOf: responses[responses.count - 1].line)
        }
        out.append(0x0A)
        out.withUnsafeBytes { raw in
            var off = 0
            while off < raw.count {
                let w = Glibc.write(output, raw.baseAddress! + off, raw.count - off)
                if w < 0 { if errno == EINTR { continue }; return }
                off += w
            }
        }
        if let observer { for r in responses { observer(r) } }
    }
}

/// A buffer whose disjoint ranges are initialised by different threads (each index by
/// exactly one), and read only after all of them have finished.
private struct UncheckedBuffer<T>: @unchecked Sendable {
    let buffer: UnsafeMutableBufferPointer<T>
    init(_ buffer: UnsafeMutableBufferPointer<T>) { self.buffer = buffer }
}

/// The server, handed to the lanes of ``LineServer/run(_:_:)``, which call its `emit` one
/// at a time (``OrderedAnswers`` makes one lane the writer at any moment).
private struct UncheckedServer: @unchecked Sendable {
    let server: LineServer
    init(_ server: LineServer) { self.server = server }
}

/// The answers of a run of requests, finished by several lanes in any order and written in
/// request order by whichever lane finishes the first answer not yet written.
///
/// At most one lane writes at a time: ``finish(_:_:)`` hands a lane the run of ready
/// answers to write only when that run starts at the first unwritten answer and no other
/// lane is writing; the writer then reports each written run with ``wrote(_:)`` and gets
/// the answers that became ready meanwhile, until there are none. An answer finished while
/// another lane writes is written by that lane, so none is left behind.
private final class OrderedAnswers: Sendable {
    private struct State: ~Copyable {
        var slots: [Worker.Response?]
        var firstUnwritten = 0
        var writing = false

        /// Marks the ready run from the first unwritten answer as being written, and returns it.
        mutating func takeRun() -> [Worker.Response] {
            var run: [Worker.Response] = []
            var k = firstUnwritten
            while k < slots.count, let r = slots[k] {
                run.append(r)
                slots[k] = nil
                k += 1
            }
            writing = !run.isEmpty
            return run
        }
    }
    private let state: Mutex<State>

    init(count: Int) { state = Mutex(State(slots: Array(repeating: nil, count: count))) }

    /// Records answer `k`; returns the answers this lane must now write, in order (empty: none).
    func finish(_ k: Int, _ response: Worker.Response) -> [Worker.Response] {
        state.withLock { s in
            s.slots[k] = response
            guard !s.writing, k == s.firstUnwritten else { return [] }
            return s.takeRun()
        }
    }

    /// Records that the writing lane wrote the `count` answers it was given; returns the
    /// next run it must write (empty: it is no longer the writer).
    func wrote(_ count: Int) -> [Worker.Response] {
        state.withLock { s in
            s.firstUnwritten += count
            return s.takeRun()
        }
    }
}

/// Answers held until the writes before them are committed, and why serving stopped.
/// Used by one thread at a time: the one writing responses (in `serve`, whichever lane
/// holds the writer's turn).
private final class Outbox: @unchecked Sendable {
    /// A ranking job's last block, whose lanes may still be answering.
    var pending: Batch?
    var holding = false
    var held: [Worker.Response] = []
    var failure: ScoutError?
}

/// A block being answered on the lanes: its slots and how many.
private struct Batch {
    let slots: ResponseSlots
    let count: Int
}

/// Response slots filled by parallel workers, each slot by exactly one of them, and read
/// in order by the writer as each becomes ready.
private final class ResponseSlots: @unchecked Sendable {
    // @unchecked: each index is written once by one worker before it signals that slot's
    // semaphore, and read only after waiting on it, so no slot is ever accessed concurrently.
    private var slots: UnsafeMutableBufferPointer<Worker.Response>
    private let ready: [DispatchSemaphore]
    init(count: Int) {
        slots = .allocate(capacity: count)
        slots.initialize(repeating: Worker.Response(line: [], error: nil))
        ready = (0..<count).map { _ in DispatchSemaphore(value: 0) }
    }
    deinit {
        slots.deinitialize()
        slots.deallocate()
    }
    func set(_ i: Int, _ value: Worker.Response) {
        slots[i] = value
        ready[i].signal()
    }
    /// Waits until slot `i` is filled, and leaves it to be taken.
    func wait(_ i: Int) {
        ready[i].wait()
        ready[i].signal()
    }
    /// Slot `i` if it is filled already, else `nil` (no waiting).
    func take(_ i: Int) -> Worker.Response? {
        guard ready[i].wait(timeout: .now()) == .success else { return nil }
        return slots[i]
    }
    /// Waits until slot `i` is filled, then takes it.
    func get(_ i: Int) -> Worker.Response {
        ready[i].wait()
        return slots[i]
    }
}
