import ScoutEngine
import ScoutJSON
import ScoutWorker

extension FuzzProperties {
    /// The worker read-only inputs run against: built once (reference data + sample records).
    public static let sharedWorker = Worker(engine: FuzzSupport.makeEngine(), recommender: FuzzSupport.reference.recommender)

    /// Each line of the input is one request to `Worker.respond(to:)`.
    ///
    /// The worker promises never to crash on input and always to answer one line: a JSON
    /// object with `"ok"` (a boolean) and the request's `id`; and a read-only request asked
    /// twice answers the same bytes (the region cache, the text index cache and the CRS pool
    /// must not show in answers). Inputs that write (`upsert`, `remove`) run on a fresh engine
    /// so that every input replays the same way alone. `load` requests are skipped: they read
    /// files named by the input (a fuzzer could name `/dev/zero`), which says nothing about
    /// the worker.
    public static func workerRequests(_ input: [UInt8]) throws(PropertyViolation) {
        let lines = input.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        var requests: [(line: ArraySlice<UInt8>, readOnly: Bool, id: JSONValue?)] = []
        var writes = false
        for line in lines where !line.isEmpty {
            // The harness reads the line itself (a valid object's op and id); the worker's own
            // reading is what is under test.
            let object = (try? JSONReader.parse(Array(line))).flatMap { $0.members != nil ? $0 : nil }
            if object?["op"]?.string == "load" { continue }
            let readOnly = sharedWorker.isReadOnly(line)
            if !readOnly { writes = true }
            requests.append((line, readOnly, object.map { $0["id"] ?? .null }))
        }
        let worker = writes ? Worker(engine: FuzzSupport.makeEngine(), recommender: FuzzSupport.reference.recommender) : sharedWorker
        for r in requests {
            let response = worker.respond(to: r.line)
            try checkResponse(response, sentID: r.id)
            // Same request, same engine, same answer, byte for byte (caches must not show).
            if r.readOnly, worker.respond(to: r.line) != response {
                throw PropertyViolation("a read-only request answered differently the second time")
            }
        }
    }

    /// One line, a JSON object, `"ok"` a boolean, `"id"` present; an ok response echoes the
    /// request's id (`sentID`: the id of a line that is a JSON object, `nil` otherwise).
    static func checkResponse(_ response: [UInt8], sentID: JSONValue?) throws(PropertyViolation) {
        guard !response.contains(UInt8(ascii: "\n")), !response.contains(UInt8(ascii: "\r")) else {
            throw PropertyViolation("the response is more than one line")
        }
        let value: JSONValue
        do throws(JSONParseError) {
            value = try JSONReader.parse(response)
        } catch {
            throw PropertyViolation("the response is not valid JSON: \(error)")
        }
        guard case .bool(let ok)? = value["ok"] else { throw PropertyViolation("the response has no boolean \"ok\"") }
        guard let id = value["id"] else { throw PropertyViolation("the response has no \"id\"") }
        if ok {
            guard let sentID, id == sentID else { throw PropertyViolation("an ok response whose id is not the request's") }
            guard value["result"] != nil else { throw PropertyViolation("an ok response without \"result\"") }
        } else {
            guard let e = value["error"], e["code"]?.string != nil, e["message"]?.string != nil else {
                throw PropertyViolation("an error response without error.code and error.message")
            }
        }
    }
}
