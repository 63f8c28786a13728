import Foundation
import ScoutJSON
import ScoutRecommend
import ScoutTestSupport
import Testing

/// The `scout` command line end to end: exact help and error text, and `scout rank`
/// answering exactly as `scout serve` does, for any thread count.
@Suite(.serialized) struct CommandLineTests {
    /// Runs `scout` with arguments and stdin; returns stdout, stderr and the exit status.
    static func run(_ arguments: [String], stdin: String = "") throws -> (out: String, err: String, status: Int32) {
        let p = Process()
        p.executableURL = ScoutProcess.binary
        p.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        env["COLUMNS"] = nil
        p.environment = env
        let i = Pipe(), o = Pipe(), e = Pipe()
        p.standardInput = i; p.standardOutput = o; p.standardError = e
        try p.run()
        let writer = Thread { i.fileHandleForWriting.write(Data(stdin.utf8)); try? i.fileHandleForWriting.close() }
        writer.start()
        let out = o.fileHandleForReading.readDataToEndOfFile(), err = e.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return (String(decoding: out, as: UTF8.self), String(decoding: err, as: UTF8.self), p.terminationStatus)
    }

    @Test(arguments: [(["--help"], "scout-help.txt"), (["serve", "--help"], "serve-help.txt"), (["rank", "--help"], "rank-help.txt"),
                      (["snapshot", "--help"], "snapshot-help.txt"), (["state", "--help"], "state-help.txt")])
    func helpIsExactly(_ arguments: [String], _ fixture: String) throws {
        let expected = try String(contentsOfFile: Repository.root + "/Tests/Fixtures/cli/" + fixture, encoding: .utf8)
        let r = try Self.run(arguments)
        #expect(r.status == 0)
        #expect(r.out == expected)
    }

    @Test(arguments: [
        (["serve", "--bogus"], "Error: Unknown option '--bogus'\nUsage: scout serve <options>\n  See 'scout serve --help' for more information.\n"),
        (["serve", "--memory-limit", "2X"], "Error: --memory-limit must be a size such as 8G, 512M, 64K or a number of bytes, not '2X'\nUsage: scout serve <options>\n  See 'scout serve --help' for more information.\n"),
        (["rank", "--threads", "0"], "Error: --threads must be between 1 and 1024\nUsage: scout rank [--data <dir>] [--load <path[:kind]> ...] [--snapshot <file>] [--prior <file>] [--exact-dog-locations] [--deadline-ms <ms>] [--threads <n>] [--memory-limit <size>] [--input <file> ...] [--output <file>] [--quiet] [--fail-on-error]\n  See 'scout rank --help' for more information.\n"),
        (["serve", "--deadline-ms", "soon"], "Error: The value 'soon' is invalid for '--deadline-ms <ms>'\nHelp:  --deadline-ms <ms>  Longest a request's geometry work may run, in milliseconds; 0 for none.\nUsage: scout serve <options>\n  See 'scout serve --help' for more information.\n"),
        (["serve", "--fsync", "sometimes"], "Error: The value 'sometimes' is invalid for '--fsync <always|everysec|no>'. Please provide one of 'always', 'everysec' or 'no'.\nHelp:  --fsync <always|everysec|no>  With --state: flush the journal to disk before answering each write (always; writes waiting together share a flush), once a second (everysec, the default), or leave it to the kernel (no).\n\(serveUsage)"),
        (["serve", "--fsync", "everysec"], "Error: --fsync goes with --state, which is missing\n\(serveUsage)"),
        (["serve", "--state", "/tmp/unused", "--source", "postgresql://scout@/db"], "Error: --source and --state do not go together yet: with --source the database is the state\n\(serveUsage)"),
        (["serve", "--state", "/tmp/unused", "--compact-at", "12Q"], "Error: The value '12Q' is invalid for '--compact-at <size>'\nHelp:  --compact-at <size>  With --state: fold the journal into a new snapshot once it is this large (bytes, or with K, M or G; default 64M).\n\(serveUsage)"),
        (["fly"], "Error: Unexpected argument 'fly'\nUsage: scout <subcommand>\n  See 'scout --help' for more information.\n"),
    ])
    func usageErrorsNameTheOption(_ arguments: [String], _ expected: String) throws {
        let r = try Self.run(arguments)
        #expect(r.status == 64)
        #expect(r.out.isEmpty)
        #expect(r.err == expected)
    }

    /// The two lines every `serve` usage error ends with (argument-parser writes `<options>`
    /// when the full list would be too long).
    static let serveUsage = "Usage: scout serve <options>\n  See 'scout serve --help' for more information.\n"

    /// `serve --state` end to end: writes survive a restart; a damaged journal stops the
    /// start with its file and offset; `state check` reports it and exits 1; `state repair`
    /// cuts it off, and the writes before the damage come back.
    @Test func aStateDirectoryIsRecoveredCheckedAndRepaired() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("scout-cli-state-\(getpid())").path
        try? FileManager.default.removeItem(atPath: dir)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let writes = (1...3).map { #"{"id":\#($0),"op":"upsert","records":[{"id":"s\#($0)","kind":"spot","lat":1,"lon":\#($0)}]}"# }
        let first = try Self.run(["serve", "--state", dir, "--fsync", "always"], stdin: writes.joined(separator: "\n") + "\n")
        #expect(first.status == 0 && first.out.split(separator: "\n").count == 3)
        #expect(first.err.contains("state \(dir): created (no records)"))
        let stats = #"{"id":"s","op":"stats"}"# + "\n"
        let again = try Self.run(["serve", "--state", dir], stdin: stats)
        #expect(again.out.contains(#""spot":3"#))
        #expect(again.err.contains("3 journal records replayed"))
        // Damage the first record: the two after it make it damage, not a torn write.
        let path = dir + "/journal-0.log"
        var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        bytes[60] ^= 0xFF
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        let refused = try Self.run(["serve", "--state", dir], stdin: stats)
        #expect(refused.status == 1 && refused.out.isEmpty)
        #expect(refused.err.contains("journal-0.log at byte 40: a record's checksum does not match; nothing was changed"))
        let check = try Self.run(["state", "check", dir])
        #expect(check.status == 1)
        #expect(check.out.contains("journal-0.log: 0 records, damaged at byte 40: a record's checksum does not match"))
        let repair = try Self.run(["state", "repair", dir])
        #expect(repair.status == 0 && repair.out.contains("cut"))
        let clean = try Self.run(["state", "check", dir])
        #expect(clean.status == 0)
        #expect(clean.out == "snapshot-0.scout: 0 records, ok\njournal-0.log: 0 records, ok\n")
        let repaired = try Self.run(["serve", "--state", dir], stdin: stats)
        #expect(repaired.status == 0 && repaired.out.contains(#""total":0"#))
    }

    /// A `--load` that would pass `--memory-limit` stops the worker before it serves, with
    /// status 1 and a log line naming the file, the estimate and the room; the same load
    /// under a roomy limit serves.
    @Test func aLoadPastTheMemoryLimitStopsTheWorkerWithAClearError() throws {
        let file = Repository.data + "/sample/gyms.jsonl"
        let refused = try Self.run(["serve", "--memory-limit", "1M", "--load", file], stdin: #"{"op":"stats"}"# + "\n")
        #expect(refused.status == 1)
        #expect(refused.out.isEmpty)
        #expect(refused.err.contains("could not load \(file): limit_exceeded: loading this file"), "\(refused.err)")
        #expect(refused.err.contains("is left (the memory limit of 1.0 MiB less the"), "\(refused.err)")
        let served = try Self.run(["serve", "--memory-limit", "4G", "--load", file], stdin: #"{"op":"stats"}"# + "\n")
        #expect(served.status == 0)
        #expect(served.out.contains(#""gym":5000"#), "\(served.out)")
    }

    @Test func versionPrintsTheProtocolVersion() throws {
        let r = try Self.run(["version"])
        #expect(r.status == 0 && r.out == "0.1.0\n")
    }

    /// Seeded read-only requests of every kind, plus bad lines, for the rank/serve comparison.
    static let requests: [String] = {
        var rng = SplitMix64(seed: 13)
        let places = ["Galway", "Dublin", "Wrocław", "London", "Cork", "Kraków"]
        let breeds = ["Border Collie", "Labrador Retriever", "Beagle", "Mixed", "Pug", "Dachshund"]
        var out: [String] = []
        for i in 0..<400 {
            let place = rng.pick(places), breed = rng.pick(breeds)
            let hour = rng.int(0...23), temp = rng.int(-5...30)
            switch i % 8 {
            case 0, 1:
                out.append(#"{"id":\#(i),"op":"recommend_activities","pet":{"name":"P\#(i)","species":"dog","breed":"\#(breed)","birth_date":"201\#(rng.int(0...9))-0\#(rng.int(1...9))-1\#(rng.int(0...9))"},"now":"2026-06-1\#(rng.int(0...9))T\#(String(format: "%02d", hour)):05:00Z","location":{"place":"\#(place)"},"weather":{"temperature_c":\#(temp)}\#(i % 3 == 0 ? "" : #","seed":\#(rng.int(0...999))"#)}"#)
            case 2: out.append(#"{"id":\#(i),"op":"recommend_dogs","from":{"place":"\#(place)"},"radius_m":8000,"experience":\#(rng.int(1...5)),"limit":5}"#)
            case 3: out.append(#"{"id":\#(i),"op":"rank_gyms","from":{"place":"\#(place)"},"now":"2026-11-2\#(rng.int(0...9))T0\#(rng.int(6...9)):00:00+01:00","limit":4}"#)
            case 4: out.append(#"{"id":\#(i),"op":"search","kind":"gym","near":{"place":"\#(place)"},"radius_m":\#(rng.int(500...9000)),"limit":5}"#)
            case 5: out.append(#"{"id":\#(i),"op":"nearest","kind":"dog","from":{"place":"\#(place)"},"k":3,"filter":{"breed":"\#(breed)"}}"#)
            case 6: out.append(#"{"id":\#(i),"op":"progress","pet":{"species":"dog","breed":"\#(breed)","birth_date":"2020-01-01"},"now":"2026-06-10T12:00:00Z","log":[{"activity":"fetch","start":"2026-06-09T10:00:00Z","minutes":20}]}"#)
            default: out.append(i % 16 == 7 ? "not json \(i)" : #"{"id":\#(i),"op":"place","name":"\#(place)"}"#)
            }
        }
        return out
    }()

    static var catalogArguments: [String] {
        ["--data", Repository.data, "--load", CatalogServeTests.dogs.path, "--load", Repository.data + "/sample/gyms.jsonl"]
    }

    @Test func rankAnswersExactlyAsServeForAnyThreadCount() throws {
        let input = Self.requests.joined(separator: "\n") + "\n"
        let serve = try Self.run(["serve"] + Self.catalogArguments, stdin: input)
        #expect(serve.status == 0)
        #expect(serve.out.split(separator: "\n").count == Self.requests.count)
        for threads in ["1", "2", "5"] {
            let rank = try Self.run(["rank", "--threads", threads, "--quiet"] + Self.catalogArguments, stdin: input)
            #expect(rank.status == 0)
            #expect(rank.out == serve.out, "threads \(threads)")
        }
        let errors = serve.out.split(separator: "\n").filter { $0.contains(#""ok":false"#) }.count
        #expect(errors == 25, "the bad lines, and only they, are errors")
    }

    /// `serve`'s lanes parse and answer the reads that open a block, and the rest of the block
    /// from its first write on is parsed, then answered run by run; answers that are ready
    /// together go out in one call. With writes, bad lines and blank lines in the stream, every
    /// thread count answers byte for byte as one thread does, and each read sees exactly the
    /// writes before it.
    @Test func serveAnswersAsOneThreadForAnyThreadCountWithWritesInTheStream() throws {
        try checkMixedStream(seed: 29, count: 600, writesInHundred: 30)
    }

    /// Rare writes: long runs of reads that the lanes answer in groups, each ended by a write
    /// that may fall anywhere in a group, over several 64 KiB blocks.
    @Test func serveAnswersAsOneThreadWithRareWritesAcrossBlocks() throws {
        try checkMixedStream(seed: 37, count: 4000, writesInHundred: 1)
    }

    /// Runs a random stream of upserts, removes, gets, nearest searches, bad and blank lines
    /// (`writesInHundred` of every hundred lines a write) through `serve` on 1, 2 and 5 threads.
    func checkMixedStream(seed: Int, count: Int, writesInHundred: Int) throws {
        var rng = SplitMix64(seed: seed)
        var lines: [String] = []
        for i in 0..<count {
            let lat = 53.2 + Double(rng.int(0...400)) / 1000, lon = -6.4 + Double(rng.int(0...400)) / 1000
            let roll = rng.int(0...99)
            switch roll < writesInHundred ? roll % 3 : 3 + roll % 7 {
            case 0, 1: lines.append(#"{"id":\#(i),"op":"upsert","kind":"spot","records":[{"id":"g\#(rng.int(0...40))","lat":\#(lat),"lon":\#(lon)}]}"#)
            case 2: lines.append(#"{"id":\#(i),"op":"remove","kind":"spot","ids":["g\#(rng.int(0...40))"]}"#)
            case 3, 4: lines.append(#"{"id":\#(i),"op":"get","kind":"spot","ids":["g\#(rng.int(0...40))","g\#(rng.int(0...40))"]}"#)
            case 5: lines.append(i % 3 == 0 ? "" : "{not json \(i)")
            default: lines.append(#"{"id":\#(i),"op":"nearest","kind":"spot","from":{"lat":\#(lat),"lon":\#(lon)},"k":3}"#)
            }
        }
        let input = lines.joined(separator: "\n") + "\n"
        let one = try Self.run(["serve", "--threads", "1", "--data", Repository.data, "--load", Repository.data + "/sample/gyms.jsonl"], stdin: input)
        #expect(one.status == 0)
        let answers = one.out.split(separator: "\n")
        #expect(answers.count == lines.filter { !$0.isEmpty }.count)
        // The oracle for `get`: the last upsert or remove of each id before the read.
        var live: [String: Bool] = [:]
        var gets = 0, upserted = false
        for (line, answer) in zip(lines.filter { !$0.isEmpty }, answers) {
            guard let q = try? JSONReader.parse(Array(line.utf8)), let op = q["op"]?.string else { continue }
            let a = try JSONReader.parse(Array(answer.utf8))
            #expect(a["id"] == q["id"])
            // Before the first upsert the kind is unknown: a get of it is `not_found`.
            if op == "get" && !upserted {
                #expect(a["error"]?["code"] == .string("not_found"), "\(line)")
                continue
            }
            switch op {
            case "upsert":
                #expect(a["ok"] == .bool(true), "\(line)")
                live[q["records"]!.array![0]["id"]!.string!] = true
                upserted = true
            case "remove":
                #expect(a["ok"] == .bool(true), "\(line)")
                live[q["ids"]!.array![0].string!] = false
            case "get":
                gets += 1
                let missing = Set((a["result"]?["missing"]?.array ?? []).compactMap(\.string))
                for id in (q["ids"]?.array ?? []).compactMap(\.string) { #expect(missing.contains(id) == !(live[id] ?? false), "\(line)") }
            default: break
            }
        }
        #expect(gets > count / 30)
        for threads in ["2", "5"] {
            let many = try Self.run(["serve", "--threads", threads, "--data", Repository.data, "--load", Repository.data + "/sample/gyms.jsonl"],
                                    stdin: input)
            #expect(many.status == 0)
            #expect(many.out == one.out, "threads \(threads)")
        }
    }

    /// More than one 1 MiB block: the lanes of `rank` and `serve` take each block's lines in
    /// groups and write the answers themselves; the answers still come out in input order,
    /// as one thread's.
    @Test func rankAnswersInOrderAcrossManyBlocks() throws {
        var rng = SplitMix64(seed: 31)
        let places = ["Galway", "Dublin", "Wrocław", "London", "Cork", "Kraków"]
        var lines: [String] = []
        var bytes = 0
        var i = 0
        while bytes < 3 << 19 {   // 1.5 MiB: two blocks
            let line: String
            switch rng.int(0...9) {
            case 0: line = "{not json \(i) " + String(repeating: "x", count: rng.int(0...300))
            case 1, 2: line = #"{"id":\#(i),"op":"place","name":"\#(rng.pick(places))","pad":"\#(String(repeating: "p", count: rng.int(0...200)))"}"#
            default:
                line = #"{"id":\#(i),"op":"search","kind":"gym","near":{"place":"\#(rng.pick(places))"},"radius_m":\#(rng.int(500...9000)),"limit":2,"fields":false}"#
            }
            lines.append(line)
            bytes += line.utf8.count + 1
            i += 1
        }
        let input = lines.joined(separator: "\n") + "\n"
        let catalog = ["--data", Repository.data, "--load", Repository.data + "/sample/gyms.jsonl"]
        let serve = try Self.run(["serve", "--threads", "1"] + catalog, stdin: input)
        #expect(serve.status == 0)
        #expect(serve.out.split(separator: "\n").count == lines.count)
        // Lanes of 3 here; 2 and 5 in the full run.
        for threads in TestScale.isFull ? ["2", "5"] : ["3"] {
            let rank = try Self.run(["rank", "--threads", threads, "--quiet"] + catalog, stdin: input)
            #expect(rank.status == 0)
            let same = rank.out == serve.out
            #expect(same, "threads \(threads): \(lines.count) requests in \(bytes) bytes")
            let many = try Self.run(["serve", "--threads", threads] + catalog, stdin: input)
            let sameServe = many.out == serve.out
            #expect(sameServe, "serve --threads \(threads)")
        }
    }

    @Test func rankRefusesWritesReportsASummaryAndFailsOnlyWhenAsked() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("scout-rank-\(getpid())").path
        try? FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        let a = dir + "/a.jsonl", b = dir + "/b.jsonl", out = dir + "/out.jsonl"
        try (#"{"id":1,"op":"ping"}"# + "\n" + #"{"id":2,"op":"upsert","records":[{"id":"x","kind":"cafe","lat":1,"lon":1}]}"# + "\n")
            .write(toFile: a, atomically: true, encoding: .utf8)
        try (#"{"id":3,"op":"search","kind":"cafe","near":{"lat":1,"lon":1},"radius_m":5}"# + "\n" + "{oops\n").write(toFile: b, atomically: true, encoding: .utf8)
        let r = try Self.run(["rank", "--input", a, b, "--output", out])
        #expect(r.status == 0)
        let lines = try String(contentsOfFile: out, encoding: .utf8).split(separator: "\n").map { try json(String($0)) }
        #expect(lines.map { $0["id"] } == [.number("1"), .number("2"), .number("3"), .null])
        #expect(lines[1]["error"]?["code"] == .string("invalid_request") && lines[1]["error"]?["path"] == .string("op"))
        #expect(lines[2]["error"]?["code"] == .string("not_found"), "the refused upsert changed nothing")
        #expect(r.err.contains("scout rank: 4 requests, 3 errors (invalid_request 1, not_found 1, parse_error 1)"), "\(r.err)")
        let failing = try Self.run(["rank", "--input", a, "--output", out, "--fail-on-error", "--quiet"])
        #expect(failing.status == 3)
        #expect(!failing.err.contains("scout rank:"))
    }

    /// `scout fit-prior` reads the choices a log of two-offer answers implies (the rated
    /// offer's id names the other), and `--emit-examples` then `--examples` (the Spark
    /// path's map and fit) writes the same prior byte for byte.
    @Test func fitPriorReadsChoicesAlikeFromALogAndFromItsExamples() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("scout-fit-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        var lines: [String] = []
        for day in 1...12 {
            let m = Moment(mode: .outdoor, temperatureC: 10 + day, hour: 9 + day % 8, weekday: 1 + day % 7)
            var indoor = m
            indoor.mode = .indoor
            let fetch = OfferID(activity: "fetch", moment: m), puzzle = OfferID(activity: "puzzle_feeder", moment: indoor)
            let (taken, passed) = day % 3 == 0 ? (puzzle, fetch) : (fetch, puzzle)
            let takenID = OfferID(activity: taken.activity, moment: taken.moment, others: [passed])
            let passedID = OfferID(activity: passed.activity, moment: passed.moment, others: [taken])
            let request = #"{"pet":{"name":"Rex","species":"dog","breed":"Border Collie","birth_date":"2021-04-02"},"now":"2026-06-\#(String(format: "%02d", day))T10:00:00Z","location":{"lat":53.27,"lon":-9.05},"weather":{"temperature_c":14},"count":2}"#
            lines.append(#"{"request":\#(request),"offers":[{"id":"\#(takenID)","propensity":0.6},{"id":"\#(passedID)","propensity":0.5}],"ratings":[{"recommendation":"\#(takenID)","rating":"\#(day % 2 == 0 ? "enjoyed" : "neutral")"}]}"#)
        }
        let log = dir + "/log.jsonl"
        try (lines.joined(separator: "\n") + "\n").write(toFile: log, atomically: true, encoding: .utf8)
        let fromLog = try Self.run(["fit-prior", "--data", Repository.data, "--log", log, "--output", dir + "/a.json", "--version", "2026-11-29.1"])
        #expect(fromLog.status == 0, "\(fromLog.err)")
        #expect(fromLog.err.contains("12 rated offers, 12 choices"), "\(fromLog.err)")
        let emitted = try Self.run(["fit-prior", "--data", Repository.data, "--log", log, "--emit-examples"])
        #expect(emitted.status == 0 && emitted.out.split(separator: "\n").filter { $0.contains("\"over\"") }.count == 12, "\(emitted.out.prefix(400))")
        try emitted.out.write(toFile: dir + "/examples.jsonl", atomically: true, encoding: .utf8)
        let fromExamples = try Self.run(["fit-prior", "--data", Repository.data, "--examples", dir + "/examples.jsonl", "--output", dir + "/b.json",
                                         "--version", "2026-11-29.1"])
        #expect(fromExamples.status == 0, "\(fromExamples.err)")
        let a = FileManager.default.contents(atPath: dir + "/a.json"), b = FileManager.default.contents(atPath: dir + "/b.json")
        #expect(a != nil && a == b)
    }
}
