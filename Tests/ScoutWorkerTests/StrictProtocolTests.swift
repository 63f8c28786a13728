import Foundation
import ScoutJSON
import ScoutTestSupport
import ScoutWorker
import Testing

/// The worker never guesses: every mistake a caller makes gets a clear error naming what was
/// wrong (and, where it can, what was meant), and its correct neighbour still works.
@Suite(.serialized) struct StrictProtocolTests {
    static func serve(_ requests: [String], extra: [String] = []) throws -> [JSONValue] {
        let args = ["--data", Repository.data, "--load", CatalogServeTests.dogs.path, "--load", Repository.data + "/sample/gyms.jsonl"] + extra
        let r = try ScoutProcess.serve(requests, arguments: args)
        #expect(r.status == 0)
        #expect(r.lines.count == requests.count, "\(r.lines)")
        return try r.lines.map { try json($0) }
    }

    static let near = #""near":{"lat":53.3498,"lon":-6.2603},"radius_m":4000"#

    /// Mistakes: (request, code, path, words the message must hold).
    static let mistakes: [(String, String, String?, String)] = [
        (#"{"op":"search","kind":"gym",\#(near),"limt":3}"#, "invalid_request", "limt", "did you mean \"limit\""),
        (#"{"op":"search","kind":"gym",\#(near),"sortby":"id"}"#, "invalid_request", "sortby", "did you mean \"sort\""),
        (#"{"op":"search","kind":"gym",\#(near),"limit":3,"limit":5}"#, "parse_error", nil as String?, "duplicate key \"limit\""),
        (#"{"op":"search","kind":"gyms",\#(near)}"#, "not_found", "kind", "did you mean \"gym\""),
        (#"{"op":"nearest","kind":"gyms","from":{"lat":53.3,"lon":-6.2},"k":2}"#, "not_found", "kind", "did you mean \"gym\""),
        (#"{"op":"search","kind":"dog",\#(near),"filter":{"breed":"Labradore"}}"#, "not_found", "filter.breed", "Labrador Retriever"),
        (#"{"op":"search","kind":"dog",\#(near),"filter":{"breed":["Border Collie","Poodel"]}}"#, "not_found", "filter.breed[1]", "Poodle"),
        (#"{"op":"search","kind":"dog",\#(near),"filter":{"good_with_dgs":4}}"#, "invalid_request", "filter.good_with_dgs", "did you mean \"good_with_dogs\""),
        (#"{"op":"search","kind":"dog",\#(near),"filter":{"size":"tiny"}}"#, "invalid_request", "filter.size", "expected one of"),
        (#"{"op":"search","kind":"gym","near":{"lat":53.3,"lon":-6.2,"alt":10},"radius_m":4000}"#, "invalid_request", "near.alt", "known: lat, lon"),
        (#"{"op":"search","kind":"gym","near":{"place":"Dublin","contry":"IE"},"radius_m":4000}"#, "invalid_request", "near.contry", "did you mean \"country\""),
        (#"{"op":"serch","kind":"gym"}"#, "unknown_op", "op", "did you mean \"search\""),
        (#"{"op":"search","kind":"gym","within":{"type":"Polygon","coordinates":[[[0,0],[1,0],[1,1],[0,0]]],"crs":"EPSG:2180"}}"#, "invalid_request", "within.crs", "known: type, coordinates, bbox"),
        (#"{"op":"search","kind":"gym","along":{"type":"LineString","coordinates":[[0,0],[1,1]],"width":5},"distance_m":10}"#, "invalid_request", "along.width", "known:"),
        (#"{"op":"ping","verbose":true}"#, "invalid_request", "verbose", "known: id, op"),
        (#"{"op":"recommend_activities","pet":{"species":"dog","breed":"Border Collie","birth_date":"2021-01-01","colour":"red"},"now":"2026-06-10T14:05:00Z","location":{"place":"Galway"},"weather":{"temperature_c":16}}"#, "invalid_request", "pet.colour", "known:"),
        (#"{"op":"recommend_activities","pet":{"species":"dog","breed":"Labradore","birth_date":"2021-01-01"},"now":"2026-06-10T14:05:00Z","location":{"place":"Galway"},"weather":{"temperature_c":16}}"#, "not_found", "pet.breed", "Labrador Retriever"),
        (#"{"op":"recommend_activities","pet":{"species":"dog","birth_date":"2021-01-01"},"now":"2026-06-10T14:05:00Z","location":{"place":"Galway"},"weather":{"temperature_c":16,"humidity":80}}"#, "invalid_request", "weather.humidity", "known:"),
        (#"{"op":"schedule","timezone":"Europe/Dublin","now":"2026-03-28T21:00:00Z","reminders":[{"activity":"walk","start":"2026-03-29T08:00","frequency":"daily","every":2}]}"#, "invalid_request", "reminders[0].every", "known:"),
        (#"{"op":"search","kind":"gym","within":"GEOMETRYCOLLECTION(\#(String(repeating: "GEOMETRYCOLLECTION(", count: 40_000)))"}"#, "limit_exceeded", "within", "nest"),
        (#"{"op":"search","kind":"gym","within":"POLYGON((0 0,1 0,1 1,0 0))","crs":"WGS"}"#, "unknown_crs", "crs", "names are not looked up"),
        (#"{"op":"search","kind":"gym","within":"POLYGON((0 0,1 0,1 1,0 0))","crs":"foo"}"#, "unknown_crs", "crs", "AUTHORITY:CODE"),
        (#"{"op":"load","path":"/etc/shadow"}"#, "not_found", "path", "--data-root"),
        (#"{"op":"load","path":"/etc/no-such-file-here"}"#, "not_found", "path", "--data-root"),
    ]

    /// Every mistake in one worker (its 50,000 dogs take over a second to load in debug
    /// builds), each followed by a ping that must still be answered.
    static let answers = Result { try serve(mistakes.flatMap { [$0.0, #"{"id":"after","op":"ping"}"#] }) }

    @Test(arguments: mistakes)
    func mistakesGetClearErrors(request: String, code: String, path: String?, words: String) throws {
        let i = try #require(Self.mistakes.firstIndex { $0.0 == request })
        let lines = try Self.answers.get()
        let e = lines[2 * i]["error"]
        #expect(lines[2 * i]["ok"] == .bool(false))
        #expect(e?["code"]?.string == code, "\(lines[2 * i])")
        #expect(e?["path"]?.string == path, "\(lines[2 * i])")
        #expect(e?["message"]?.string?.contains(words) == true, "\(lines[2 * i])")
        #expect(lines[2 * i + 1]["id"] == .string("after"))
    }

    @Test func correctNeighboursStillWork() throws {
        let lines = try Self.serve([
            #"{"id":1,"op":"search","kind":"gym",\#(Self.near),"limit":3}"#,
            #"{"id":2,"op":"search","kind":"dog",\#(Self.near),"filter":{"breed":["Labrador Retriever","Mixed"]}}"#,
            #"{"id":3,"op":"search","kind":"gym","near":{"place":"Dublin","country":"IE"},"radius_m":4000}"#,
            #"{"id":4,"op":"remove","kind":"gym","ids":["gym-000001"]}"#,
            #"{"id":5,"op":"remove","kind":"gym","ids":[]}"#,
        ])
        for l in lines { #expect(l["ok"] == .bool(true), "\(l)") }
        #expect(lines[0]["result"]?["results"]?.array?.count == 3)
    }

    @Test func aKindEmptiedByRemovalsStillAnswers() throws {
        let lines = try ScoutProcess.serve([
            #"{"id":1,"op":"upsert","records":[{"id":"a","kind":"cafe","lat":1,"lon":1}]}"#,
            #"{"id":2,"op":"remove","kind":"cafe","ids":["a"]}"#,
            #"{"id":3,"op":"search","kind":"cafe","near":{"lat":1,"lon":1},"radius_m":10}"#,
            #"{"id":4,"op":"search","kind":"cafes","near":{"lat":1,"lon":1},"radius_m":10}"#,
        ]).lines.map { try json($0) }
        #expect(lines[2]["ok"] == .bool(true) && lines[2]["result"]?["total"] == .number("0"))
        #expect(lines[3]["error"]?["code"] == .string("not_found"))
        #expect(lines[3]["error"]?["message"]?.string?.contains("did you mean \"cafe\"") == true)
    }

    @Test func invalidUTF8IsAParseErrorEverywhere() throws {
        let bad: [[UInt8]] = [[0xFF], [0xC0, 0xAF], [0xED, 0xA0, 0x80], [0xE2, 0x82], [0xF4, 0x90, 0x80, 0x80]]
        var input: [UInt8] = []
        for b in bad { input += Array(#"{"op":"place","name":""#.utf8) + b + Array(#""}"#.utf8) + [0x0A] }
        input += Array(#"{"id":"ok","op":"place","name":"Wrocław"}"#.utf8) + [0x0A]
        let r = try ScoutProcess.serve(input, arguments: ["--data", Repository.data])
        #expect(r.lines.count == bad.count + 1)
        for l in r.lines.prefix(bad.count) {
            #expect(try json(l)["error"]?["code"] == .string("parse_error"), "\(l)")
            #expect(l.contains("invalid UTF-8"))
        }
        #expect(try json(r.lines.last!)["ok"] == .bool(true))
    }

    /// `load` reads only below a data root, resolving `..` and symbolic links, and says the
    /// same thing of a refused path whether or not a file is there.
    @Test func loadReadsOnlyBelowTheDataRoots() throws {
        let fm = FileManager.default
        let root = fm.temporaryDirectory.appendingPathComponent("scout-root-\(getpid())").path
        try? fm.removeItem(atPath: root)
        try fm.createDirectory(atPath: root, withIntermediateDirectories: true)
        _ = fm.createFile(atPath: root + "/ok.jsonl", contents: Data(#"{"id":"a","kind":"cafe","lat":1,"lon":1}"#.utf8))
        try? fm.removeItem(atPath: root + "/escape.jsonl")
        try fm.createSymbolicLink(atPath: root + "/escape.jsonl", withDestinationPath: "/etc/passwd")
        _ = fm.createFile(atPath: root + "/big.jsonl", contents: nil)
        try FileHandle(forWritingAtPath: root + "/big.jsonl")!.truncate(atOffset: 2 << 30)   // sparse: no disk used
        let lines = try ScoutProcess.serve([
            #"{"op":"load","path":"\#(root)/ok.jsonl"}"#,
            #"{"op":"load","path":"\#(root)/../../etc/shadow"}"#,
            #"{"op":"load","path":"\#(root)/../../etc/no-such-file"}"#,
            #"{"op":"load","path":"\#(root)/escape.jsonl"}"#,
            #"{"op":"load","path":"\#(root)/missing.jsonl"}"#,
            #"{"op":"load","path":"/dev/zero"}"#,
            #"{"op":"load","path":"\#(root)/big.jsonl"}"#,
        ], arguments: ["--data-root", root]).lines.map { try json($0) }
        #expect(lines[6]["error"]?["code"] == .string("limit_exceeded"), "a 2 GiB file is refused before it is read")
        #expect(lines[0]["result"]?["loaded"] == .number("1"))
        let refused = lines[1]["error"]
        #expect(refused?["code"] == .string("not_found"))
        for i in [2, 3, 5] { #expect(lines[i]["error"] == refused, "line \(i): \(lines[i])") }
        #expect(lines[4]["error"]?["code"] == .string("not_found") && lines[4]["error"] != refused)
    }

    /// Without `timezone`, local time is the zone of the request's place.
    @Test func localTimeIsThePlacesZone() throws {
        let pet = #""pet":{"species":"dog","breed":"Border Collie","birth_date":"2021-01-01"},"weather":{"temperature_c":16}"#
        let lines = try Self.serve([
            #"{"op":"recommend_activities",\#(pet),"now":"2026-06-10T12:00:00Z","location":{"place":"Wrocław"}}"#,
            #"{"op":"recommend_activities",\#(pet),"now":"2026-01-10T12:00:00Z","home":{"place":"Galway","radius_m":200}}"#,
            #"{"op":"recommend_activities",\#(pet),"now":"2026-06-10T12:00:00Z","location":{"place":"Wrocław"},"timezone":"UTC"}"#,
        ])
        #expect(lines[0]["result"]?["context"]?["local_time"]?.string == "2026-06-10T14:00:00+02:00", "\(lines[0])")
        #expect(lines[1]["result"]?["context"]?["local_time"]?.string == "2026-01-10T12:00:00Z", "\(lines[1])")
        #expect(lines[2]["result"]?["context"]?["local_time"]?.string == "2026-06-10T12:00:00Z", "\(lines[2])")
    }

    /// A bare lat/lon point gets the zone of the time-zone polygons, right across borders:
    /// Ceuta (Spain, +02:00 in June) and Fnideq (Morocco, +01:00) are 5 km apart.
    @Test func localTimeOfABarePointComesFromTheTimeZoneMap() throws {
        let pet = #""pet":{"species":"dog","birth_date":"2021-01-01"},"weather":{"temperature_c":20}"#
        let cases: [(lat: Double, lon: Double, local: String)] = [
            (35.8894, -5.3213, "2026-06-10T14:00:00+02:00"),    // Ceuta: Africa/Ceuta
            (35.8497, -5.3586, "2026-06-10T13:00:00+01:00"),    // Fnideq: Africa/Casablanca
            (32.5149, -117.0382, "2026-06-10T05:00:00-07:00"),  // Tijuana: America/Tijuana
            (51.1528, 15.0050, "2026-06-10T14:00:00+02:00"),    // Zgorzelec: Europe/Warsaw
            (53.3498, -6.2603, "2026-06-10T13:00:00+01:00"),    // Dublin
            (54.7104, 20.4522, "2026-06-10T14:00:00+02:00"),    // Kaliningrad
            (-33.8688, 151.2093, "2026-06-10T22:00:00+10:00"),  // Sydney
        ]
        let lines = try Self.serve(cases.map { #"{"op":"recommend_activities",\#(pet),"now":"2026-06-10T12:00:00Z","location":{"lat":\#($0.lat),"lon":\#($0.lon)}}"# })
        for (c, l) in zip(cases, lines) {
            #expect(l["result"]?["context"]?["local_time"]?.string == c.local, "\(c) → \(l)")
        }
    }

    /// A 100,000-vertex zigzag star around the globe with a small hole: a polygon with a
    /// hole goes to GEOS's full validity test, which runs for many seconds on it without a
    /// deadline. (Without the hole, the star-shaped ring is proved valid in milliseconds.)
    static let zigzagStar: String = {
        let n = 100_000
        let ring = (0...n).map { i -> String in
            let t = 2 * Double.pi * Double(i % n) / Double(n), r = i % 2 == 0 ? 0.6 : 1.0
            return "[\(170 * cos(t) * r),\(80 * sin(t) * r)]"
        }
        let hole = "[[-1,-1],[1,-1],[0,1],[-1,-1]]"
        return #"{"type":"Polygon","coordinates":[["# + ring.joined(separator: ",") + "]," + hole + "]}"
    }()

    @Test func theDeadlineStopsLongGeometryWorkAndTheWorkerGoesOn() throws {
        let lines = try Self.serve([
            #"{"id":1,"op":"search","kind":"gym","within":\#(Self.zigzagStar),"limit":1}"#,
            #"{"id":2,"op":"search","kind":"gym","within":{"type":"Polygon","coordinates":[[[-6.3,53.3],[-6.2,53.3],[-6.2,53.4],[-6.3,53.3]]]},"limit":1}"#,
            #"{"id":3,"op":"search","kind":"gym","within":\#(Self.zigzagStar),"limit":1}"#,
        ], extra: ["--deadline-ms", "300"])
        #expect(lines[0]["error"]?["code"] == .string("limit_exceeded"), "\(lines[0])")
        #expect(lines[0]["error"]?["message"]?.string?.contains("300 ms") == true)
        #expect(lines[1]["ok"] == .bool(true), "\(lines[1])")
        #expect(lines[2]["error"]?["code"] == .string("limit_exceeded"), "no verdict was remembered from the interrupted test")
    }

    /// Answers go out in order, each as soon as it and those before it are ready: pings
    /// sent in the same write as a slow request (four reads, answered in parallel) are
    /// answered while the slow one still runs.
    @Test func aFastAnswerIsNotHeldBehindASlowRequestSentAfterIt() throws {
        let p = Process()
        p.executableURL = ScoutProcess.binary
        p.arguments = ["serve", "--deadline-ms", "3000"]
        let inPipe = Pipe(), outPipe = Pipe()
        p.standardInput = inPipe
        p.standardOutput = outPipe
        p.standardError = FileHandle.nullDevice
        try p.run()
        let batch = #"{"id":"fast","op":"ping"}"# + "\n" + #"{"id":"fast2","op":"ping"}"# + "\n"
            + #"{"id":"slow","op":"search","kind":"cafe","within":\#(Self.zigzagStar)}"# + "\n"
            + #"{"id":"after","op":"ping"}"# + "\n"
        inPipe.fileHandleForWriting.write(Data(batch.utf8))
        let fd = outPipe.fileHandleForReading.fileDescriptor
        var got = Data()
        while !(String(decoding: got, as: UTF8.self).contains("fast2")) {
            let chunk = outPipe.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            got += chunk
        }
        #expect(String(decoding: got, as: UTF8.self).contains(#""id":"fast""#))
        // The slow search is still running: nothing more to read yet.
        var poll = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        let ready = Glibc.poll(&poll, 1, 200)
        let lines = String(decoding: got, as: UTF8.self).split(separator: "\n")
        #expect(ready == 0 || lines.count < 4, "the slow answer came with the fast ones")
        try inPipe.fileHandleForWriting.close()
        _ = outPipe.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
    }

    /// One table derives dispatch, the known ops and the read-only set; the docs list the same ops.
    @Test func theOpTableMatchesTheProtocolDocs() throws {
        let doc = try String(contentsOfFile: Repository.root + "/docs/protocol.md", encoding: .utf8)
        for op in Worker.operations {
            #expect(doc.contains("`\(op.name)`"), "docs/protocol.md does not describe \(op.name)")
            for field in op.fields { #expect(doc.contains("`\(field)`") || doc.contains("\"\(field)\""), "\(op.name).\(field) is undocumented") }
        }
        #expect(Set(Worker.operations.filter { !$0.isReadOnly }.map(\.name)) == ["load", "upsert", "remove", "patch", "review", "vote"])
        // The op table at the top lists every op, in the worker's order, its writes marked.
        let rows = doc.split(separator: "\n").filter { $0.hasPrefix("| `") && $0.split(separator: "|").count == 3 }
        #expect(rows.map { String($0.split(separator: "`")[1]) } == Worker.operationNames)
        #expect(rows.map { $0.contains("| yes |") } == Worker.operations.map { !$0.isReadOnly })
        #expect(Worker.operationNames.count == Set(Worker.operationNames).count)
    }

    /// Every request example in docs/protocol.md is followed by its answer, and runs against
    /// the real worker started as the docs say, answering that, whole (members in any order,
    /// numbers by value).
    @Test func everyProtocolExampleRuns() throws {
        let doc = try String(contentsOfFile: Repository.root + "/docs/protocol.md", encoding: .utf8)
        var requests: [String] = [], documented: [JSONValue?] = []
        var awaitingAnswer = false   // a response line documents the request line right above it
        for line in doc.split(separator: "\n").map({ $0.trimmingCharacters(in: .whitespaces) }) {
            let v = line.hasPrefix("{") ? try? json(line) : nil
            if let v, v["ok"] != nil, awaitingAnswer {
                documented[documented.count - 1] = v
                awaitingAnswer = false
            } else if let v, v["op"] != nil {
                requests.append(line)
                documented.append(nil)
                awaitingAnswer = true
            } else {
                awaitingAnswer = false
            }
        }
        #expect(requests.count >= 25)
        // The worker the docs name: the sample dogs, gyms, shelters and their animals.
        Repository.ensureSampleDogs()
        var args = ["--data", Repository.data, "--data-root", Repository.data]
        for f in ["dogs", "gyms", "shelters", "animals"] { args += ["--load", Repository.data + "/sample/\(f).jsonl"] }
        let r = try ScoutProcess.serve(requests, arguments: args)
        #expect(r.status == 0 && r.lines.count == requests.count)
        let lines = try r.lines.map { try json($0) }
        for (i, l) in lines.enumerated() {
            guard let want = documented[i] else {
                Issue.record("\(requests[i]): no answer follows it in the docs (this build answers \(Self.text(l)))")
                continue
            }
            #expect(Self.sameJSON(l, want), "\(requests[i])\n  answers \(Self.text(l))\n  the docs \(Self.text(want))")
        }
    }
}

extension StrictProtocolTests {
    /// Two JSON values alike: object members in any order, numbers by value.
    static func sameJSON(_ a: JSONValue, _ b: JSONValue) -> Bool {
        switch (a, b) {
        case let (.object(x), .object(y)):
            // `index_bytes` (stats) counts allocated capacity, which differs by a few bytes
            // between machines: only its presence is compared.
            return x.count == y.count && x.allSatisfy { k, v in
                y.contains { $0.0 == k && (k == "index_bytes" ? v.double != nil && $0.1.double != nil : sameJSON(v, $0.1)) }
            }
        case let (.array(x), .array(y)): return x.count == y.count && zip(x, y).allSatisfy { sameJSON($0, $1) }
        case let (.number(x), .number(y)): return Double(x) == Double(y)
        default: return a == b
        }
    }

    /// A value written as JSON.
    static func text(_ v: JSONValue) -> String {
        var w = JSONWriter()
        w.value(v)
        return String(decoding: w.bytes, as: UTF8.self)
    }
}

/// A crash prints one fixed line and nothing from memory.
@Suite struct CrashReportTests {
    @Test func aCrashReportHoldsNoMemory() throws {
        let p = Process()
        p.executableURL = ScoutProcess.binary
        p.arguments = ["version"]
        p.environment = ["SCOUT_CRASH_TEST": "Biscuit the dachshund"]
        let err = Pipe()
        p.standardError = err
        p.standardOutput = FileHandle.nullDevice
        try p.run()
        let text = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        #expect(p.terminationStatus == 70)
        #expect(text == "scout: crashed; no request data is logged\n", "\(text)")
        #expect(!text.contains("Biscuit") && !text.contains("51.10794"))
    }
}
