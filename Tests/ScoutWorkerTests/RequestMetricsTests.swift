import Foundation
import MetricsTestKit
import ScoutCatalog
import ScoutEngine
import ScoutTestSupport
import ScoutWorker
import Testing

/// The worker's swift-metrics: every answered line is counted once by op and outcome, and
/// timed by op, through the factory the worker was given (a test factory here; the
/// bootstrapped backend's in a service).
@Suite struct RequestMetricsTests {
    @Test func everyAnswerIsCountedByOpAndOutcomeAndTimed() throws {
        let metrics = TestMetrics()
        let engine = Engine(catalog: try Catalog.load(dataDirectory: Repository.data))
        try engine.load(path: Repository.data + "/sample/gyms.jsonl")
        let worker = Worker(engine: engine, metrics: metrics)
        let lines = [
            #"{"id":1,"op":"ping"}"#, #"{"id":2,"op":"ping"}"#,
            #"{"id":3,"op":"nearest","kind":"gym","from":{"lat":53.35,"lon":-6.26},"k":2}"#,
            #"{"id":4,"op":"nearest","kind":"gym","from":{"lat":95,"lon":-6.26},"k":2}"#,
            #"{"id":5,"op":"pnig"}"#, #"{"id":6}"#, "not json", #"[1]"#,
        ]
        for l in lines { _ = worker.respond(to: Array(l.utf8)[...]) }
        func count(_ op: String, _ outcome: String) throws -> Int64 {
            try metrics.expectCounter("scout_requests_total", [("op", op), ("outcome", outcome)]).totalValue
        }
        #expect(try count("ping", "ok") == 2)
        #expect(try count("nearest", "ok") == 1)
        #expect(try count("nearest", "invalid_request") == 1)
        #expect(try count("unknown", "unknown_op") == 1)
        #expect(try count("unknown", "invalid_request") == 1)
        #expect(try count("none", "parse_error") == 1)
        #expect(try count("none", "invalid_request") == 1)
        #expect(try count("search", "ok") == 0)
        #expect(try metrics.expectTimer("scout_request_duration_seconds", [("op", "ping")]).values.count == 2)
        #expect(try metrics.expectTimer("scout_request_duration_seconds", [("op", "nearest")]).values.count == 2)
    }
}
