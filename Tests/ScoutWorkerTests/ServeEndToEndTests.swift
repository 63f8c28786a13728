import Foundation
import ScoutJSON
import Testing

/// Drives the real `scout serve` executable through pipes.
struct ScoutProcess {
    static var binary: URL {
        let candidates = [Bundle.main.bundleURL.appendingPathComponent("scout"),
                          Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent("scout")]
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) } ?? candidates[0]
    }

    /// Runs `scout serve` with the given input; returns stdout lines, stderr and status.
    static func serve(_ input: [UInt8], arguments: [String] = []) throws -> (lines: [String], stderr: String, status: Int32) {
        let p = Process()
        p.executableURL = binary
        p.arguments = ["serve"] + arguments
        let inPipe = Pipe(), outPipe = Pipe(), errPipe = Pipe()
        p.standardInput = inPipe
        p.standardOutput = outPipe
        p.standardError = errPipe
        try p.run()
        let writer = Thread {
            inPipe.fileHandleForWriting.write(Data(input))
            try? inPipe.fileHandleForWriting.close()
        }
        writer.start()
        let out = outPipe.fileHandleForReading.readDataToEndOfFile()
        let err = errPipe.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        let text = String(decoding: out, as: UTF8.self)
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if lines.last == "" { lines.removeLast() }
        return (lines, String(decoding: err, as: UTF8.self), p.terminationStatus)
    }

    static func serve(_ requests: [String], arguments: [String] = []) throws -> (lines: [String], stderr: String, status: Int32) {
        try serve(Array((requests.joined(separator: "\n") + "\n").utf8), arguments: arguments)
    }
}

func json(_ s: String) throws -> JSONValue { try JSONReader.parse(s) }

@Suite(.serialized) struct ServeEndToEndTests {
    let fixture: String = {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("scout-e2e-\(getpid()).jsonl").path
        let lines = [
            #"{"id":"a","kind":"poi","lat":53.2707,"lon":-9.0568,"name":"Bran"}"#,
            #"{"id":"b","kind":"poi","lat":53.2807,"lon":-9.0568}"#,
            #"{"id":"c","kind":"poi","lat":53.2707,"lon":-9.0268}"#,
            #"{"id":"g1","kind":"cafe","lat":53.2710,"lon":-9.0570}"#,
            #"{"id":"edge","kind":"poi","lat":0,"lon":180}"#,
        ]
        _ = FileManager.default.createFile(atPath: path, contents: Data((lines.joined(separator: "\n") + "\n").utf8))
        return path
    }()

    @Test func answersEveryOpInOrderWithExactJSON() throws {
        let r = try ScoutProcess.serve([
            #"{"id":1,"op":"ping"}"#,
            #"{"id":"load","op":"load","path":"\#(fixture)"}"#,
            #"{"id":3,"op":"search","kind":"poi","near":{"lat":53.2707,"lon":-9.0568},"radius_m":1200}"#,
            #"{"id":4,"op":"nearest","kind":"poi","from":{"lat":53.2707,"lon":-9.0568},"k":2}"#,
            #"{"id":5,"op":"search","kind":"poi","bbox":[179,-1,-179,1]}"#,
            #"{"id":6,"op":"upsert","records":[{"id":"d","kind":"poi","lat":53.2708,"lon":-9.0568}]}"#,
            #"{"id":7,"op":"remove","kind":"poi","ids":["a","zzz"]}"#,
            #"{"id":8,"op":"search","kind":"poi","near":{"lat":53.2707,"lon":-9.0568},"radius_m":1200,"sort":"id"}"#,
            #"{"id":9,"op":"stats"}"#,
        ], arguments: ["--data-root", FileManager.default.temporaryDirectory.path])
        #expect(r.status == 0)
        #expect(r.lines.count == 9)
        let expected = [
            #"{"id":1,"ok":true,"result":{"version":"0.1.0"}}"#,
            #"{"id":"load","ok":true,"result":{"loaded":5}}"#,
            #"{"id":3,"ok":true,"result":{"total":2,"results":[{"id":"a","kind":"poi","lat":53.2707,"lon":-9.0568,"distance_m":0,"fields":{"name":"Bran"}},{"id":"b","kind":"poi","lat":53.2807,"lon":-9.0568,"distance_m":1112.915}]}}"#,
            #"{"id":4,"ok":true,"result":{"total":2,"results":[{"id":"a","kind":"poi","lat":53.2707,"lon":-9.0568,"distance_m":0,"fields":{"name":"Bran"}},{"id":"b","kind":"poi","lat":53.2807,"lon":-9.0568,"distance_m":1112.915}]}}"#,
            #"{"id":5,"ok":true,"result":{"total":1,"results":[{"id":"edge","kind":"poi","lat":0,"lon":180}]}}"#,
            #"{"id":6,"ok":true,"result":{"upserted":1}}"#,
            #"{"id":7,"ok":true,"result":{"removed":1}}"#,
            #"{"id":8,"ok":true,"result":{"total":2,"results":[{"id":"b","kind":"poi","lat":53.2807,"lon":-9.0568,"distance_m":1112.915},{"id":"d","kind":"poi","lat":53.2708,"lon":-9.0568,"distance_m":11.129}]}}"#,
        ]
        for (i, e) in expected.enumerated() {
            #expect(try json(r.lines[i]) == (try json(e)), "line \(i + 1): \(r.lines[i])")
        }
        let stats = try json(r.lines[8])
        #expect(stats["result"]?["kinds"] == (try json(#"{"cafe":1,"poi":4}"#)))
    }

    @Test func distancesInResponsesAreGeodInverseRounded() throws {
        // 1112.915 m above is the WGS84 geodesic for 0.01° of latitude at 53.27°N:
        // M(53.2757°) · 0.01 · π/180 = 6,376,558 m · 1.745e-4 ≈ 1112.90 m (independent check).
        let m = 6_378_137.0 * (1 - 0.00669437999014) / pow(1 - 0.00669437999014 * pow(sin(53.2757 * .pi / 180), 2), 1.5)
        #expect(abs(m * 0.01 * .pi / 180 - 1112.915) < 0.002)
    }

    /// Bad requests: (request, code, path).
    static let badInputs: [(String, String, String?)] = [
        ("not json", "parse_error", nil as String?),
        ("[1,2]", "invalid_request", nil),
        (#"{"id":1}"#, "invalid_request", "op"),
        (#"{"id":{"x":1},"op":"ping"}"#, "invalid_request", "id"),
        (#"{"op":"fly"}"#, "unknown_op", "op"),
        (#"{"op":"search","kind":"poi","near":{"lat":"x","lon":0},"radius_m":5}"#, "invalid_request", "near.lat"),
        (#"{"op":"search","kind":"poi","near":{"lat":95,"lon":0},"radius_m":5}"#, "invalid_request", "near.lat"),
        (#"{"op":"search","kind":"poi","near":{"lat":0,"lon":0},"radius_m":-1}"#, "invalid_request", "radius_m"),
        (#"{"op":"search","kind":"poi","near":{"lat":0,"lon":0},"radius_m":1e12}"#, "limit_exceeded", "radius_m"),
        (#"{"op":"search","kind":"poi","near":{"lat":0,"lon":0},"radius_m":5,"limit":100001}"#, "limit_exceeded", "limit"),
        (#"{"op":"search","kind":"poi","near":{"lat":0,"lon":0},"radius_m":5,"limit":0}"#, "invalid_request", "limit"),
        (#"{"op":"search","kind":"poi","bbox":[0,10,1,5]}"#, "invalid_request", "bbox[1]"),
        (#"{"op":"search","kind":"poi","within":{"type":"Polygon","coordinates":[[[0,0],[1,1],[1,0],[0,1],[0,0]]]}}"#, "invalid_geometry", "within"),
        (#"{"op":"search","kind":"poi","within":{"type":"Polygon","coordinates":[[[0,0],[1,1],[1,0]]]}}"#, "invalid_geometry", "within.coordinates[0]"),
        (#"{"op":"search","kind":"poi","within":"POLYGON((0 0, 1 0"}"#, "invalid_geometry", "within"),
        (#"{"op":"search","kind":"poi","within":"POLYGON((0 0,1 0,1 1,0 0))","crs":"EPSG:999999"}"#, "unknown_crs", "crs"),
        (#"{"op":"search","kind":"poi","bbox":[0,0,1,1],"sort":"distance"}"#, "invalid_request", "sort"),
        (#"{"op":"nearest","kind":"poi","from":{"lat":0,"lon":0},"k":0}"#, "invalid_request", "k"),
        (#"{"op":"nearest","kind":"poi","from":{"lat":0,"lon":0},"k":100001}"#, "limit_exceeded", "k"),
        (#"{"op":"load","path":"/nonexistent/file.jsonl"}"#, "not_found", "path"),
        (#"{"op":"search","kind":"Dog!","bbox":[0,0,1,1]}"#, "invalid_request", "kind"),
        (#"{"op":"upsert","records":[{"id":"x","kind":"poi","lat":0,"lon":200}]}"#, "invalid_request", "records[0].lon"),
    ]

    /// Every bad request in one worker, each followed by a ping that must still be answered.
    static let badInputAnswers = Result { try ScoutProcess.serve(badInputs.flatMap { [$0.0, #"{"id":"after","op":"ping"}"#] }) }

    @Test(arguments: badInputs)
    func badInputGetsAClearError(request: String, code: String, path: String?) throws {
        let i = try #require(Self.badInputs.firstIndex { $0.0 == request })
        let r = try Self.badInputAnswers.get()
        #expect(r.status == 0)
        #expect(r.lines.count == 2 * Self.badInputs.count, "\(r.lines)")
        let v = try json(r.lines[2 * i])
        #expect(v["ok"] == .bool(false))
        #expect(v["error"]?["code"]?.string == code, "\(r.lines[2 * i])")
        #expect(v["error"]?["path"]?.string == path, "\(r.lines[2 * i])")
        #expect((v["error"]?["message"]?.string ?? "").count > 5)
        #expect(try json(r.lines[2 * i + 1])["id"] == .string("after"))
    }

    @Test func oversizedLinesAreRejectedAndTheStreamGoesOn() throws {
        var input = Array(#"{"id":1,"op":"ping","pad":""#.utf8)
        input += [UInt8](repeating: UInt8(ascii: "x"), count: (16 << 20) + 10)
        input += Array("\"}\n{\"id\":2,\"op\":\"ping\"}\n".utf8)
        let r = try ScoutProcess.serve(input)
        #expect(r.lines.count == 2)
        #expect(try json(r.lines[0])["error"]?["code"] == .string("limit_exceeded"))
        #expect(try json(r.lines[1])["id"] == .number("2"))
    }

    @Test func aBadLoadNamesTheLineAndLeavesTheIndexAsItWas() throws {
        let bad = FileManager.default.temporaryDirectory.appendingPathComponent("scout-bad-\(getpid()).jsonl").path
        let text = #"{"id":"z1","kind":"poi","lat":1,"lon":1}"# + "\n" + #"{"id":"z2","kind":"poi","lat":1,"lon":"east"}"# + "\n"
        _ = FileManager.default.createFile(atPath: bad, contents: Data(text.utf8))
        let r = try ScoutProcess.serve([
            #"{"op":"load","path":"\#(bad)"}"#,
            #"{"op":"stats"}"#,
        ], arguments: ["--data-root", FileManager.default.temporaryDirectory.path])
        let err = try json(r.lines[0])["error"]
        #expect(err?["code"] == .string("invalid_request"))
        #expect(err?["path"]?.string == "line 2: lon")
        #expect(try json(r.lines[1])["result"]?["total"] == .number("0"))
    }

    @Test func stdoutHoldsOnlyProtocolLinesAndLogsGoToStderr() throws {
        let r = try ScoutProcess.serve([#"{"op":"ping"}"#, "", "garbage", #"{"op":"stats"}"#], arguments: ["--load", fixture])
        #expect(r.lines.count == 3)
        for line in r.lines { #expect(throws: Never.self) { _ = try json(line) } }
        #expect(r.stderr.contains("loaded 5 records"))
    }

    @Test func emptyInputEndsWithStatusZero() throws {
        let r = try ScoutProcess.serve([UInt8]())
        #expect(r.status == 0)
        #expect(r.lines.isEmpty)
    }
}
