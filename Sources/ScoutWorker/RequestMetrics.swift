import Dispatch
import Metrics
import ScoutCore

/// The worker's requests as swift-metrics counters and timers:
///
/// - `scout_requests_total{op, outcome}`: every answered line, `outcome` `ok` or the error's
///   code (`parse_error`, `not_found`, …); a line refused before its op was known counts as
///   op `none`, a name no op has as op `unknown`;
/// - `scout_request_duration_seconds{op}`: from the parsed request to its written answer.
///
/// Free unless a service bootstraps a backend (`MetricsSystem.bootstrap`) before it creates the
/// ``Worker``: the handles are made once, at the worker's creation, and the clock is read only
/// when a backend is there.
struct RequestMetrics: Sendable {
    /// Whether a backend was bootstrapped when the worker was made (else nothing is timed).
    let timed: Bool
    /// By `operation * outcomes + outcome`; the last two operation rows are `none` and `unknown`.
    private let counters: [Counter]
    /// By operation, then `none` and `unknown`.
    private let timers: [Metrics.Timer]
    private let operationCount: Int

    /// The outcomes, `ok` first, then every error code.
    static let outcomes = ["ok"] + ScoutError.Code.allCases.map(\.rawValue)

    /// Handles for every op and outcome, made by `factory` (a worker's: `MetricsSystem.factory`
    /// unless it was given another).
    init(operations: [String], factory: any MetricsFactory) {
        timed = !(factory is NOOPMetricsHandler)
        operationCount = operations.count
        let names = operations + ["none", "unknown"]
        var counters: [Counter] = []
        for op in names {
            for outcome in Self.outcomes {
                counters.append(Counter(label: "scout_requests_total", dimensions: [("op", op), ("outcome", outcome)], factory: factory))
            }
        }
        self.counters = counters
        timers = names.map { Metrics.Timer(label: "scout_request_duration_seconds", dimensions: [("op", $0)], factory: factory) }
    }

    /// A start time for ``record(operation:outcome:since:)``, when requests are timed.
    @inline(__always)
    func start() -> UInt64? { timed ? DispatchTime.now().uptimeNanoseconds : nil }

    /// Counts one answer: `operation` is an index into the worker's operations (`nil` when the
    /// request names none the worker has), `outcome` the error's code or `nil` for `ok`.
    func record(operation: Int?, outcome: ScoutError.Code?, since started: UInt64?) {
        count(row: operation ?? operationCount + 1, outcome: outcome, since: started)
    }

    /// Counts the answer to a line refused before its op was read (not JSON, not an object,
    /// a bad id, too long).
    func recordRefused(_ code: ScoutError.Code) { count(row: operationCount, outcome: code, since: nil) }

    private func count(row: Int, outcome: ScoutError.Code?, since started: UInt64?) {
        let column = outcome.map { ScoutError.Code.allCases.firstIndex(of: $0)! + 1 } ?? 0
        counters[row * Self.outcomes.count + column].increment()
        if let started { timers[row].recordNanoseconds(Int64(DispatchTime.now().uptimeNanoseconds &- started)) }
    }
}
