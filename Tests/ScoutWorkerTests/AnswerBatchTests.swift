import Dispatch
import Foundation
@testable import ScoutWorker
import Synchronization
import Testing

/// Answers made in turn on one thread go out a few at a time (``AnswerBatch``): in order,
/// every one of them, the last of a block at once, and one that waits while the next
/// request runs is written by the flushing thread.
@Suite struct AnswerBatchTests {
    static func answer(_ i: Int) -> Worker.Response {
        Worker.Response(line: Array(#"{"id":\#(i),"ok":true,"result":{}}"#.utf8), error: nil)
    }

    /// What a batch wrote, call by call.
    final class Written: Sendable {
        let calls = Mutex<[[Int]]>([])
        func record(_ responses: [Worker.Response]) {
            let ids = responses.map { r in Int(String(decoding: r.line, as: UTF8.self).split(separator: ",")[0].dropFirst(6))! }
            calls.withLock { $0.append(ids) }
        }
        var all: [Int] { calls.withLock { $0.flatMap { $0 } } }
    }

    @Test func anAnswerLeavesWhileTheNextRequestRuns() throws {
        let written = Written()
        let batch = AnswerBatch { written.record($0) }
        batch.add(Self.answer(1), last: false)
        // The next request "runs" (this thread does not come back to the batch): the
        // flushing thread writes the waiting answer after ~0.2 ms. (Allowed up to 10 s on
        // a loaded machine; without the flushing thread it would never leave.)
        let started = DispatchTime.now().uptimeNanoseconds
        while written.all.isEmpty && DispatchTime.now().uptimeNanoseconds - started < 10_000_000_000 { usleep(100) }
        #expect(written.all == [1])
        batch.add(Self.answer(2), last: false)
        batch.add(Self.answer(3), last: true)
        #expect(written.all == [1, 2, 3], "the last answer of a block, and those before it, leave at once")
        batch.close()
        #expect(written.all == [1, 2, 3])
    }

    @Test func answersLeaveInOrderAFewAtATimeWithinTheByteBound() throws {
        let written = Written()
        let batch = AnswerBatch { written.record($0) }
        let n = 5_000
        for i in 0..<n { batch.add(Self.answer(i), last: i == n - 1) }
        #expect(written.all == Array(0..<n))
        let calls = written.calls.withLock { $0 }
        let longest = Self.answer(n).line.count + 1
        for c in calls { #expect(c.count * longest <= AnswerBatch.maximumBytes + longest, "\(c.count) answers in one write") }
        // Added as fast as they were made, most go out with others: far fewer writes than answers.
        #expect(calls.count < n / 4, "\(calls.count) writes for \(n) answers")
        batch.close()
    }

    @Test func closingWritesWhatIsPending() throws {
        let written = Written()
        let batch = AnswerBatch { written.record($0) }
        batch.add(Self.answer(7), last: false)
        batch.close()
        #expect(written.all == [7])
    }
}
