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
/// ready together with one `write` call, by the threads that answer them (there is no
/// writing thread); with ``readOnly`` they are written a few at a time, as each thread
/// finishes a group of lines, since no one awaits them one by one. With one thread, the
/// reads of one block are answered in turn, and their answers are written a few at a time
/// too, each within ~0.2 ms of being ready (``AnswerBatch``). Nothing else goes to the
/// output; EOF ends the loop. The output of a run depends only on the requests and the
/// engine, never on the thread count.
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
    /// Called after each response line is written, by the lane that wrote it (one lane at a
    /// time, in response order).
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

    /// Bytes of answers a ranking job on one thread writes together.
    static let rankingWriteBytes = 1 << 20

    /// The number of cores this process may use.
    public static var defaultThreads: Int { max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))) }

    /// Serves until end of input. Returns the number of requests answered.
    @discardableResult
    public func run() -> Int {
        defer {
            outbox.batch?.close()
            outbox.batch = nil
        }
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
            emit(worker.execute(Worker.oversizedLine, allowWrites: true))
            answered += 1
        } else if !buffer.isEmpty {
            answered += handle(buffer[...])
        }
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
        // The lanes parse and answer the reads that open the block in one pass (for a ranking
        // job, every line: it answers reads only); the rest, from the first write on, is
        // answered below.
        var from = 0
        if threads >= 2 && texts.count >= 2 {
            from = answerLeadingReads(texts)
            if from == texts.count { return texts.count }
        }
        let parsed = parse(Array(texts[from...]))
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
                    answerInTurn(parsed[i..<j])
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
        return from + parsed.count
    }

    /// Answers the reads at the start of a block on up to ``threads`` lanes and returns how
    /// many lines that was: the index of the block's first write (`texts.count`: none).
    ///
    /// The lanes take the block's lines a few at a time (a group), in order. A lane parses
    /// its group and answers its reads; a lane that meets a write records where it is and
    /// stops, and a lane stops before any group after a recorded write. Answers are written
    /// in order by the lanes themselves (``OrderedAnswers``), as in ``run(_:_:)``, so none
    /// after the first write is ever written: lines past it that other lanes had taken before
    /// it was found are parsed and, at most one each, answered and dropped (reads change
    /// nothing), and the caller answers the block from the write on, after the lanes have
    /// stopped. So no read
    /// runs beside a write or answers before one sent ahead of it; a block of reads costs one
    /// hand-off to the lanes instead of two (parse, then answer); each request is parsed,
    /// answered and freed on one thread; and the lanes meet on shared state once per group,
    /// not once per line.
    private func answerLeadingReads(_ texts: [ArraySlice<UInt8>?]) -> Int {
        let count = texts.count
        let lanes = min(threads, count)
        // Groups of up to 8 lines, and at least 16 groups per lane, so that no lane waits long
        // at the end of a block for another's last group.
        let size = max(1, min(8, count / (lanes * 16)))
        let groups = (count + size - 1) / size
        let server = UncheckedServer(self)
        let answers = OrderedAnswers(count: count) { server.server.emit($0) }
        let firstWrite = Atomic<Int>(count)
        let next = Atomic<Int>(0)
        let done = DispatchGroup()
        let worker = self.worker, readOnly = self.readOnly
        @Sendable func lane() {
            var parsed: [Worker.Parsed] = []
            var owned = OrderedAnswers.Owned()
            while true {
                let g = next.wrappingAdd(1, ordering: .relaxed).oldValue
                let first = g * size
                guard g < groups, first < firstWrite.load(ordering: .relaxed) else { return }
                let end = min(count, first + size)
                var reads = end
                for k in first..<end {
                    let p = texts[k].map { worker.parse($0) } ?? Worker.oversizedLine
                    if !readOnly && !p.isReadOnly { reads = k; break }
                    parsed.append(p)
                }
                if reads < end { firstWrite.min(reads, ordering: .relaxed) }
                // A server writes each answer as soon as it can; a ranking job, whose answers no
                // one awaits one by one, writes them a group at a time, in fewer calls.
                for (i, p) in parsed.enumerated() {
                    // A line after a write another lane has found is answered after that write
                    // (by the caller), so it is not answered here.
                    if first + i > firstWrite.load(ordering: .relaxed) { break }
                    answers.finish(first + i, worker.execute(p, allowWrites: !readOnly), owned: &owned,
                                   write: !readOnly || i == parsed.count - 1)
                }
                parsed.removeAll(keepingCapacity: true)
                if reads < end { return }
            }
        }
        for _ in 1..<lanes { DispatchQueue.global().async(group: done) { lane() } }
        lane()
        done.wait()
        return firstWrite.load(ordering: .relaxed)
    }

    /// The lines parsed (`nil`: a line too long), on the lanes when there are many: parsing
    /// is most of the work of a small read, and it does not depend on the engine, so a block
    /// of lines is parsed at once before its runs of reads and its writes are told apart.
    private func parse(_ texts: [ArraySlice<UInt8>?]) -> [Worker.Parsed] {
        let worker = self.worker
        @Sendable func one(_ text: ArraySlice<UInt8>?) -> Worker.Parsed {
            text.map { worker.parse($0) } ?? Worker.oversizedLine
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
        let lanes = min(threads, count)
        let server = UncheckedServer(self)
        let answers = OrderedAnswers(count: count) { server.server.emit($0) }
        let next = Atomic<Int>(0)
        let done = DispatchGroup()
        @Sendable func lane() {
            var owned = OrderedAnswers.Owned()
            while true {
                let k = next.wrappingAdd(1, ordering: .relaxed).oldValue
                guard k < count else { return }
                answers.finish(k, answer(k), owned: &owned)
            }
        }
        for _ in 1..<lanes { DispatchQueue.global().async(group: done) { lane() } }
        lane()
        done.wait()
    }

    /// Answers requests one after another on this thread. A server's answers to two or more
    /// go out a few at a time (``AnswerBatch``), each within ~0.2 ms of being ready; a
    /// ranking job's, ``rankingWriteBytes`` at a time from this thread.
    private func answerInTurn(_ requests: ArraySlice<Worker.Parsed>) {
        // A ranking job: nobody reads an answer before the job ends, so no flushing thread is
        // woken for every answer or two.
        if readOnly && !outbox.holding {
            var out: [Worker.Response] = [], bytes = 0
            for p in requests {
                let response = worker.execute(p, allowWrites: false)
                bytes += response.line.count + 1
                out.append(response)
                if bytes >= LineServer.rankingWriteBytes { write(out); out.removeAll(keepingCapacity: true); bytes = 0 }
            }
            write(out)
            return
        }
        // Answers held for a commit are not written here at all.
        guard requests.count >= 2, !outbox.holding else {
            for p in requests { emit(worker.execute(p, allowWrites: !readOnly)) }
            return
        }
        let batch: AnswerBatch
        if let kept = outbox.batch { batch = kept } else {
            let server = UncheckedServer(self)
            batch = AnswerBatch { server.server.write($0) }
            outbox.batch = batch
        }
        for k in requests.indices {
            batch.add(worker.execute(requests[k], allowWrites: !readOnly), last: k == requests.endIndex - 1)
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
/// Lock-free: a lane stores its answer in the answer's slot and marks it ready; then, if the
/// first unwritten answer is ready and no lane is writing, it takes the writer's turn
/// (`writing`), writes the ready run from there, moves `firstUnwritten` past it, gives the
/// turn back and looks again. Every step is sequentially consistent, so an answer marked
/// ready just as the writer gives up its turn is seen either by the writer, when it looks
/// again, or by the lane that marked it, which then takes the turn itself: none is left
/// behind.
///
/// An answer's bytes are freed by the lane that made them, not by the lane that wrote them:
/// the writer marks the slot written and leaves it, and the lane frees its own written
/// slots the next time it finishes an answer (``Owned``); what is left when the run ends
/// is freed with this object. (glibc's allocator locks the arena of a block freed by
/// another thread; with every answer freed across threads, the two lanes of
/// `serve --threads 2` queued on those locks often enough to cost a third of the second
/// core.)
private final class OrderedAnswers: @unchecked Sendable {
    // @unchecked: a slot is written by one lane before its mark is set to ready, read by the
    // writer after it sees that mark and before it sets it to written, and emptied by the
    // lane that filled it after it sees it written (or by `deinit`, after every lane has
    // stopped), so no slot is ever accessed by two threads at once.
    private let slots: UnsafeMutablePointer<Worker.Response?>
    /// Per slot: 0 empty, 1 ready, 2 written.
    private let marks: UnsafeMutablePointer<Atomic<UInt8>>
    private let count: Int
    private let firstUnwritten = Atomic<Int>(0)
    private let writing = Atomic<Bool>(false)
    private let write: ([Worker.Response]) -> Void

    /// The slots a lane filled and has not freed yet, in order (so the written ones come first).
    struct Owned {
        var indices: [Int] = []
        var head = 0
    }

    /// Answers for `count` requests, written in order through `write` (called by one lane at a time).
    init(count: Int, write: @escaping ([Worker.Response]) -> Void) {
        self.count = count
        self.write = write
        slots = .allocate(capacity: count)
        slots.initialize(repeating: nil, count: count)
        marks = .allocate(capacity: count)
        for i in 0..<count { (marks + i).initialize(to: Atomic(0)) }
    }

    deinit {
        slots.deinitialize(count: count)
        slots.deallocate()
        marks.deinitialize(count: count)
        marks.deallocate()
    }

    /// Records answer `k`, made by the calling lane, and frees the lane's answers already
    /// written; with `write`, also writes whatever is ready in order if no other lane is
    /// writing. (A lane that passes `false` must pass `true` for its last answer, so that
    /// nothing it marked ready is left unwritten.)
    func finish(_ k: Int, _ response: Worker.Response, owned: inout Owned, write: Bool = true) {
        while owned.head < owned.indices.count && marks[owned.indices[owned.head]].load(ordering: .acquiring) == 2 {
            slots[owned.indices[owned.head]] = nil
            owned.head += 1
        }
        if owned.head == owned.indices.count {
            owned.indices.removeAll(keepingCapacity: true)
            owned.head = 0
        }
        slots[k] = response
        owned.indices.append(k)
        marks[k].store(1, ordering: .sequentiallyConsistent)
        while write {
            let first = firstUnwritten.load(ordering: .sequentiallyConsistent)
            guard first < count, marks[first].load(ordering: .sequentiallyConsistent) == 1,
                  writing.compareExchange(expected: false, desired: true, ordering: .sequentiallyConsistent).exchanged else { return }
            // This lane holds the writer's turn: `firstUnwritten` moves only here.
            let start = firstUnwritten.load(ordering: .sequentiallyConsistent)
            var end = start
            var run: [Worker.Response] = []
            while end < count && marks[end].load(ordering: .sequentiallyConsistent) == 1 {
                run.append(slots[end]!)
                end += 1
            }
            if !run.isEmpty { self.write(run) }
            run.removeAll()
            for i in start..<end { marks[i].store(2, ordering: .releasing) }
            firstUnwritten.store(end, ordering: .sequentiallyConsistent)
            writing.store(false, ordering: .sequentiallyConsistent)
        }
    }
}

/// Answers held until the writes before them are committed, and why serving stopped.
/// Used by one thread at a time: the one writing responses (in `serve`, whichever lane
/// holds the writer's turn).
private final class Outbox: @unchecked Sendable {
    var holding = false
    var held: [Worker.Response] = []
    var failure: ScoutError?
    /// Answers written a few at a time, once requests have been answered in turn (until ``LineServer/run()`` ends).
    var batch: AnswerBatch?
}
