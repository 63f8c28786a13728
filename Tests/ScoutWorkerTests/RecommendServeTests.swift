import Dispatch
import Foundation
import ScoutCatalog
import ScoutEngine
import ScoutJSON
import ScoutRecommend
import ScoutRecommendJSON
import ScoutTestSupport
import ScoutWorker
import Synchronization
import Testing

/// The recommender's ops through real `scout serve` pipes: shapes, determinism, versions,
/// the next window, privacy of ranked dogs, and a clear error for every kind of bad input.
@Suite(.serialized) struct RecommendServeTests {
    static let weightsVersion: String = {
        let v = try! JSONReader.parse(Array(FileManager.default.contents(atPath: Repository.data + "/weights.json")!))
        return v["version"]!.string!
    }()
    static let priorVersion: String = {
        let v = try! JSONReader.parse(Array(FileManager.default.contents(atPath: Repository.data + "/enjoyment_prior.json")!))
        return v["version"]!.string!
    }()

    static func serve(_ requests: [String], data: Bool = true) throws -> [JSONValue] {
        let args = data ? ["--data", Repository.data, "--load", CatalogServeTests.dogs.path, "--load", Repository.data + "/sample/gyms.jsonl"] : []
        let r = try ScoutProcess.serve(requests, arguments: args)
        #expect(r.status == 0)
        #expect(r.lines.count == requests.count)
        return try r.lines.map { try json($0) }
    }

    static let rex = #""pet":{"name":"Rex","species":"dog","breed":"Border Collie","birth_date":"2021-04-02","weight_kg":19}"#
    static let afternoon = #"{"id":1,"op":"recommend_activities",\#(rex),"now":"2026-06-10T14:05:00+01:00","timezone":"Europe/Dublin","location":{"place":"Galway"},"weather":{"temperature_c":16,"precipitation_mm_h":0,"condition":"cloudy","wind_kmh":15},"feedback":[{"activity":"fetch","rating":"enjoyed","at":"2026-06-07T10:00:00Z"},{"activity":"fetch","rating":"enjoyed","at":"2026-06-08T10:00:00Z"},{"activity":"fetch","rating":"enjoyed","at":"2026-06-09T10:00:00Z"},{"activity":"flirt_pole","rating":"disliked","at":"2026-06-08T10:00:00Z"},{"activity":"flirt_pole","rating":"disliked","at":"2026-06-09T10:00:00Z"}],"mode":"best","count":3,"weights":{"individual_fit":0}}"#

    @Test func recommendationsCarryScoresTermsReasonsAndVersions() throws {
        let lines = try Self.serve([Self.afternoon, Self.afternoon])
        let r = try #require(lines[0]["result"])
        #expect(r["weights_version"]?.string == Self.weightsVersion)
        #expect(r["resolved"]?["location"]?["name"]?.string == "Galway")
        let recs = try #require(r["recommendations"]?.array)
        #expect(recs.count == 3)
        #expect(Set(recs.compactMap { $0["category"]?.string }).count == 3, "three categories")
        var previous = Double.infinity
        for rec in recs {
            let terms = try #require(rec["breakdown"]?.array)
            #expect(terms.compactMap { $0["term"]?.string } == ["needs_gap", "individual_fit", "enjoyment", "novelty", "context"])
            #expect(terms[1]["weight"]?.double == 0, "the request's weight override shows in the breakdown")
            let sum = terms.reduce(0.0) { $0 + ($1["contribution"]?.double ?? .nan) }
            let score = try #require(rec["score"]?.double)
            #expect(abs(sum - score) < 0.001)
            #expect(score <= previous + 1e-9 || rec["category"] != recs[0]["category"])
            previous = score
            #expect((rec["reasons"]?.array?.count ?? 0) >= 2)
        }
        // Three enjoyed fetches, two disliked flirt poles (the prior's favourite for a Border
        // Collie), and intensity fit switched off by the request's weights: fetch leads the
        // physical activities and says why.
        let fetch = try #require(recs.first { $0["category"]?.string == "physical" })
        #expect(fetch["activity"]?.string == "fetch")
        #expect(fetch["reasons"]?.array?.contains { $0.string?.contains("loved fetch the last 3 times") == true } == true)
        #expect(r["prior_version"]?.string == Self.priorVersion)
        #expect(r["next_window"] == .null)
        #expect((r["excluded"]?.array ?? []).allSatisfy { ($0["reasons"]?.array?.isEmpty == false) })
        // Same request, same bytes (best mode; explore is covered below).
        #expect(lines[0] == lines[1])
    }

    @Test func exploreIsSeededAndNightGetsANextWindow() throws {
        let explore = #"{"id":2,"op":"recommend_activities",\#(Self.rex),"now":"2026-06-10T14:05:00+01:00","location":{"lat":53.27,"lon":-9.05},"weather":{"temperature_c":16},"seed":SEED}"#
        let night = #"{"id":3,"op":"recommend_activities",\#(Self.rex),"now":"2026-06-10T03:10:00+01:00","timezone":"Europe/Dublin","location":{"lat":53.27,"lon":-9.05},"weather":{"temperature_c":12},"busy":[{"start":"2026-06-10T07:00:00+01:00","end":"2026-06-10T09:30:00+01:00"}]}"#
        let lines = try Self.serve((1...8).map { explore.replacingOccurrences(of: "SEED", with: String($0 % 4)) } + [night])
        for i in 0..<4 { #expect(lines[i] == lines[i + 4], "seed \(i) twice") }
        // Each offer says how likely it was; seeds draw by those chances (ExplorationTests
        // checks them against thousands of seeds).
        for i in 0..<4 {
            for rec in lines[i]["result"]?["recommendations"]?.array ?? [] {
                let p = try #require(rec["propensity"]?.double)
                #expect(p > 0 && p <= 1)
                #expect(rec["id"]?.string?.hasPrefix((rec["activity"]?.string ?? "?") + ".") == true)
            }
        }
        let n = try #require(lines[8]["result"])
        #expect(n["recommendations"]?.array?.isEmpty == true)
        // Waking hours start at 07:00 but the calendar is busy until 09:30 local.
        #expect(n["next_window"]?["at"]?.string == "2026-06-10T09:30:00+01:00")
        #expect((n["next_window"]?["recommendations"]?.array?.count ?? 0) == 2)
        let codes = Set(n["excluded"]?.array?.flatMap { $0["reasons"]?.array?.compactMap { $0["code"]?.string } ?? [] } ?? [])
        #expect(codes.contains("outside_waking_hours"))
    }

    @Test func progressScheduleAndPlaceRanking() throws {
        let lines = try Self.serve([
            #"{"id":4,"op":"progress",\#(Self.rex),"now":"2026-06-10T14:05:00+01:00","timezone":"Europe/Dublin","log":[{"activity":"brisk_walk","start":"2026-06-08T09:00:00+01:00","minutes":40},{"activity":"fetch","start":"2026-06-09T09:00:00+01:00","minutes":20},{"activity":"puzzle_feeder","start":"2026-06-09T19:00:00+01:00","minutes":15},{"activity":"brisk_walk","start":"2026-06-07T09:00:00+01:00","minutes":60}]}"#,
            #"{"id":5,"op":"schedule","timezone":"Europe/Dublin","now":"2026-01-15T12:00:00Z","reminders":[{"activity":"brushing","start":"2026-01-31T08:00","frequency":"monthly"}],"count":3}"#,
            #"{"id":6,"op":"recommend_dogs","from":{"place":"London"},"radius_m":20000,"experience":3,"has_dog":true,"activity_level":4,"limit":10,"fields":false}"#,
            #"{"id":7,"op":"rank_gyms","from":{"lat":53.3498,"lon":-6.2603},"now":"2026-06-10T14:05:00+01:00","limit":5}"#,
        ])
        let p = try #require(lines[0]["result"])
        #expect(p["week"]?["start"]?.string == "2026-06-08T00:00:00+01:00")
        let physical = try #require(p["categories"]?.array?.first)
        #expect(physical["done"]?.double == 60, "Monday's walk and Tuesday's fetch; Sunday's walk is last week")
        #expect(physical["goal"]?.double == 560)
        #expect(p["categories"]?.array?[1]["done"]?.double == 1)
        let s = try #require(lines[1]["result"]?["reminders"]?.array?.first?["next"]?.array)
        #expect(s.compactMap { $0["at"]?.string } == ["2026-01-31T08:00:00Z", "2026-02-28T08:00:00Z", "2026-03-31T08:00:00+01:00"])
        let dogs = try #require(lines[2]["result"]?["results"]?.array)
        #expect(!dogs.isEmpty)
        for d in dogs {
            #expect(d["approximate"] == .bool(true))
            #expect(d["breakdown"]?.array?.compactMap { $0["term"]?.string } == ["distance", "rating", "energy_match", "novelty"])
        }
        let scores = dogs.compactMap { $0["score"]?.double }
        #expect(scores == scores.sorted(by: >))
        let gyms = try #require(lines[3]["result"]?["results"]?.array)
        #expect(gyms.count == 5)
        #expect(lines[3]["result"]?["weights_version"]?.string == Self.weightsVersion)
    }

    static let badInputs: [(request: String, code: String, path: String)] = [
        (#"{"op":"recommend_activities","now":"2026-06-10T14:05:00Z","location":{"lat":53,"lon":-9},"weather":{"temperature_c":10}}"#, "invalid_request", "pet"),
        (#"{"op":"recommend_activities","pet":{"species":"Dragon","birth_date":"2020-01-01"},"now":"2026-06-10T14:05:00Z","location":{"lat":53,"lon":-9},"weather":{"temperature_c":10}}"#, "invalid_request", "pet.species"),
        (#"{"op":"recommend_activities","pet":{"species":"dog","birth_date":"2020-02-30"},"now":"2026-06-10T14:05:00Z","location":{"lat":53,"lon":-9},"weather":{"temperature_c":10}}"#, "invalid_request", "pet.birth_date"),
        (#"{"op":"recommend_activities","pet":{"species":"dog","birth_date":"2020-01-01","weight_kg":-3},"now":"2026-06-10T14:05:00Z","location":{"lat":53,"lon":-9},"weather":{"temperature_c":10}}"#, "invalid_request", "pet.weight_kg"),
        (#"{"op":"recommend_activities","pet":{"species":"dog","birth_date":"2020-01-01","conditions":["flu"]},"now":"2026-06-10T14:05:00Z","location":{"lat":53,"lon":-9},"weather":{"temperature_c":10}}"#, "invalid_request", "pet.conditions[0]"),
        (#"{"op":"recommend_activities","pet":{"species":"dog","birth_date":"2020-01-01"},"now":"yesterday","location":{"lat":53,"lon":-9},"weather":{"temperature_c":10}}"#, "invalid_request", "now"),
        (#"{"op":"recommend_activities","pet":{"species":"dog","birth_date":"2020-01-01"},"now":"2026-06-10T14:05:00Z","weather":{"temperature_c":10}}"#, "invalid_request", "location"),
        (#"{"op":"recommend_activities","pet":{"species":"dog","birth_date":"2020-01-01"},"now":"2026-06-10T14:05:00Z","location":{"lat":91,"lon":-9},"weather":{"temperature_c":10}}"#, "invalid_request", "location.lat"),
        (#"{"op":"recommend_activities","pet":{"species":"dog","birth_date":"2020-01-01"},"now":"2026-06-10T14:05:00Z","location":{"lat":53,"lon":-9},"weather":{"temperature_c":"warm"}}"#, "invalid_request", "weather.temperature_c"),
        (#"{"op":"recommend_activities","pet":{"species":"dog","birth_date":"2020-01-01"},"now":"2026-06-10T14:05:00Z","location":{"lat":53,"lon":-9},"weather":{"temperature_c":10,"condition":"meteors"}}"#, "invalid_request", "weather.condition"),
        (#"{"op":"recommend_activities","pet":{"species":"dog","birth_date":"2020-01-01"},"now":"2026-06-10T14:05:00Z","location":{"lat":53,"lon":-9},"weather":{"temperature_c":10},"log":[{"activity":"teleport","start":"2026-06-09T10:00:00Z","minutes":5}]}"#, "invalid_request", "log[0].activity"),
        (#"{"op":"recommend_activities","pet":{"species":"dog","birth_date":"2020-01-01"},"now":"2026-06-10T14:05:00Z","location":{"lat":53,"lon":-9},"weather":{"temperature_c":10},"feedback":[{"activity":"fetch","rating":"meh","at":"2026-06-09T10:00:00Z"}]}"#, "invalid_request", "feedback[0].rating"),
        (#"{"op":"recommend_activities","pet":{"species":"dog","birth_date":"2020-01-01"},"now":"2026-06-10T14:05:00Z","location":{"lat":53,"lon":-9},"weather":{"temperature_c":10},"waking_hours":{"start":"7am","end":"22:00"}}"#, "invalid_request", "waking_hours.start"),
        (#"{"op":"recommend_activities","pet":{"species":"dog","birth_date":"2020-01-01"},"now":"2026-06-10T14:05:00Z","location":{"lat":53,"lon":-9},"weather":{"temperature_c":10},"busy":[{"start":"2026-06-10T15:00:00Z","end":"2026-06-10T14:00:00Z"}]}"#, "invalid_request", "busy[0].end"),
        (#"{"op":"recommend_activities","pet":{"species":"dog","birth_date":"2020-01-01"},"now":"2026-06-10T14:05:00Z","location":{"lat":53,"lon":-9},"weather":{"temperature_c":10},"count":11}"#, "invalid_request", "count"),
        (#"{"op":"recommend_activities","pet":{"species":"dog","birth_date":"2020-01-01"},"now":"2026-06-10T14:05:00Z","location":{"lat":53,"lon":-9},"weather":{"temperature_c":10},"weights":{"luck":1}}"#, "invalid_request", "weights.luck"),
        (#"{"op":"recommend_activities","pet":{"species":"dog","birth_date":"2020-01-01"},"now":"2026-06-10T14:05:00Z","location":{"lat":53,"lon":-9},"weather":{"temperature_c":10},"timezone":"Mars/Olympus"}"#, "invalid_request", "timezone"),
        (#"{"op":"recommend_activities","pet":{"species":"dog","birth_date":"2020-01-01"},"now":"2026-06-10T14:05:00Z","location":{"place":"Atlantis City"},"weather":{"temperature_c":10}}"#, "not_found", "location.place"),
        (#"{"op":"progress","pet":{"species":"cat","birth_date":"2020-01-01"},"now":"2026-06-10T14:05:00Z","week_start":"June"}"#, "invalid_request", "week_start"),
        (#"{"op":"schedule","timezone":"Europe/Dublin","now":"2026-01-15T12:00:00Z","reminders":[{"activity":"brushing","start":"2026-01-31T08:00","frequency":"hourly"}]}"#, "invalid_request", "reminders[0].frequency"),
        (#"{"op":"recommend_dogs","from":{"lat":53,"lon":-9},"experience":9}"#, "invalid_request", "experience"),
        (#"{"op":"recommend_dogs","from":{"lat":53,"lon":-9},"experience":3,"radius_m":1e7}"#, "limit_exceeded", "radius_m"),
        (#"{"op":"rank_gyms","from":{"lat":53,"lon":-9}}"#, "invalid_request", "now"),
        (#"{"op":"rank_gyms","from":{"lat":53,"lon":-9},"now":"2026-06-10T14:05:00Z","limit":0}"#, "invalid_request", "limit"),
    ]

    /// "This or that" through the worker: `feedback[].over` lists the offers passed over for
    /// the one taken, with or without a rating; it moves the two activities apart, and every
    /// malformed use is refused at its path.
    @Test func feedbackSaysWhichOfferWasTakenOverWhich() throws {
        let puzzle = OfferID(activity: "puzzle_feeder", moment: Moment(mode: .indoor, temperatureC: 16, hour: 14, weekday: 3)).description
        let puzzleLater = OfferID(activity: "puzzle_feeder", moment: Moment(mode: .indoor, temperatureC: 12, hour: 9, weekday: 4)).description
        let fetch = OfferID(activity: "fetch", moment: Moment(mode: .outdoor, temperatureC: 16, hour: 14, weekday: 3)).description
        let paired = OfferID(activity: "puzzle_feeder", moment: Moment(mode: .indoor, temperatureC: 16, hour: 14, weekday: 3),
                             others: [OfferID(activity: "fetch", moment: Moment(mode: .outdoor, temperatureC: 16, hour: 14, weekday: 3))]).description
        let head = #"{"op":"recommend_activities",\#(Self.rex),"now":"2026-06-10T14:05:00+01:00","location":{"lat":53.27,"lon":-9.05},"weather":{"temperature_c":16},"mode":"best","count":10,"weights":{"needs_gap":0,"individual_fit":0,"novelty":0,"context":0},"feedback":"#
        func request(_ feedback: String) -> String { head + feedback + "}" }
        let choices = (1...5).map { #"{"recommendation":"\#(puzzle)","over":["\#(fetch)"],"at":"2026-06-0\#($0)T10:00:00Z"}"# }
        let bad: [(feedback: String, code: String, path: String)] = [
            (#"{"activity":"puzzle_feeder","over":["\#(fetch)"],"at":"2026-06-09T10:00:00Z"}"#, "invalid_request", "feedback[0].over"),
            (#"{"recommendation":"\#(puzzle)","over":["\#(puzzleLater)"],"at":"2026-06-09T10:00:00Z"}"#, "invalid_request", "feedback[0].over[0]"),
            (#"{"recommendation":"\#(puzzle)","over":["fetch.000000000000"],"at":"2026-06-09T10:00:00Z"}"#, "not_found", "feedback[0].over[0]"),
            (#"{"recommendation":"\#(puzzle)","over":[3],"at":"2026-06-09T10:00:00Z"}"#, "invalid_request", "feedback[0].over[0]"),
            (#"{"recommendation":"\#(puzzle)","over":["\#(String(repeating: "x", count: 200))"],"at":"2026-06-09T10:00:00Z"}"#, "not_found", "feedback[0].over[0]"),
            (#"{"recommendation":"\#(puzzle)","over":"\#(fetch)","at":"2026-06-09T10:00:00Z"}"#, "invalid_request", "feedback[0].over"),
            (#"{"recommendation":"\#(puzzle)","over":[\#(Array(repeating: "\"\(fetch)\"", count: 10).joined(separator: ","))],"at":"2026-06-09T10:00:00Z"}"#,
             "limit_exceeded", "feedback[0].over"),
            (#"{"recommendation":"\#(puzzle)","over":["\#(fetch)"],"rating":"meh","at":"2026-06-09T10:00:00Z"}"#, "invalid_request", "feedback[0].rating"),
            (#"{"recommendation":"\#(puzzle)","at":"2026-06-09T10:00:00Z"}"#, "invalid_request", "feedback[0].rating"),
            // An id of a two-offer answer names the other offer; `over: []` says neither was
            // taken over the other, and a rating is needed again.
            (#"{"recommendation":"\#(paired)","over":[],"at":"2026-06-09T10:00:00Z"}"#, "invalid_request", "feedback[0].rating"),
        ]
        // The same five choices said by the ids alone: the taken offer's id names the other.
        let implied = (1...5).map { #"{"recommendation":"\#(paired)","at":"2026-06-0\#($0)T10:00:00Z"}"# }
        let lines = try Self.serve([request("[]"), request("[" + choices.joined(separator: ",") + "]"),
                                    request(#"[{"recommendation":"\#(puzzle)","rating":"enjoyed","over":["\#(fetch)"],"at":"2026-06-09T10:00:00Z"}]"#),
                                    request("[" + implied.joined(separator: ",") + "]")]
                                   + bad.map { request("[" + $0.feedback + "]") })
        func enjoyment(_ line: JSONValue) throws -> [String: Double] {
            var out: [String: Double] = [:]
            for rec in try #require(line["result"]?["recommendations"]?.array) {
                out[rec["activity"]!.string!] = rec["breakdown"]?.array?.first { $0["term"]?.string == "enjoyment" }?["value"]?.double
            }
            return out
        }
        let before = try enjoyment(lines[0]), after = try enjoyment(lines[1])
        #expect(lines[2]["ok"] == .bool(true), "a rating and a choice together: \(lines[2])")
        // Scored by enjoyment alone, ten offers of six categories: the puzzle feeder leads
        // its category once taken five times over fetch, and fetch is no longer offered.
        #expect(try #require(after["puzzle_feeder"]) > before["puzzle_feeder"] ?? 0, "\(before) → \(after)")
        #expect(before["fetch"] != nil && after["fetch"] == nil, "\(before) → \(after)")
        #expect(try enjoyment(lines[3]) == after, "the ids' own pairs read as the explicit over")
        for (i, b) in bad.enumerated() {
            let v = lines[4 + i]
            #expect(v["error"]?["code"]?.string == b.code, "\(b.feedback) → \(v)")
            #expect(v["error"]?["path"]?.string == b.path, "\(b.feedback) → \(v)")
        }
    }

    /// Every bad request in one process (the gazetteer takes seconds to load in debug
    /// builds), each followed by a ping that must still be answered.
    @Test func badInputGetsAClearError() throws {
        let lines = try Self.serve(Self.badInputs.flatMap { [$0.request, #"{"id":"after","op":"ping"}"#] })
        for (i, bad) in Self.badInputs.enumerated() {
            let v = lines[2 * i]
            #expect(v["ok"] == .bool(false), "\(bad.request)")
            #expect(v["error"]?["code"]?.string == bad.code, "\(bad.request) → \(v)")
            #expect(v["error"]?["path"]?.string == bad.path, "\(bad.request) → \(v)")
            #expect(lines[2 * i + 1]["id"] == .string("after"))
        }
    }
}

/// A worker made without a recommender answers the recommending and ranking ops with a
/// `not_found` that says what is missing, and every other op as usual.
@Suite struct WorkerWithoutRecommenderTests {
    @Test func recommendingAndRankingOpsAreNotFound() throws {
        let worker = Worker(engine: Engine())
        for op in [#""op":"rank_gyms","from":{"lat":53.35,"lon":-6.26},"now":"2026-01-01T00:00:00Z""#,
                   #""op":"recommend_dogs","from":{"lat":53.35,"lon":-6.26},"experience":3"#,
                   #""op":"recommend_activities","pet":{"species":"dog"},"now":"2026-01-01T00:00:00Z""#] {
            let answer = try JSONReader.parse(worker.respond(to: ArraySlice(Array("{\"id\":1,\(op)}".utf8))))
            #expect(answer["error"]?["code"]?.string == "not_found", "\(op)")
            #expect(answer["error"]?["message"]?.string?.contains("--data") == true)
        }
        let ping = try JSONReader.parse(worker.respond(to: ArraySlice(Array(#"{"id":2,"op":"ping"}"#.utf8))))
        #expect(ping["result"] != nil)
    }
}

/// Per-thread copies of the recommender (`Worker(replicate:)`) answer byte for byte as the
/// shared one does, from any thread; each thread has its own copy.
@Suite struct RecommenderReplicaTests {
    static let recommender = try! Recommender.load(dataDirectory: Repository.data, breeds: Catalog.load(dataDirectory: Repository.data).breeds)

    @Test func copiesAnswerAsTheOriginalFromEveryThread() throws {
        let catalog = try Catalog.load(dataDirectory: Repository.data)
        let engine = Engine(catalog: catalog, privacy: .exact)
        try engine.load(path: Repository.data + "/sample/gyms.jsonl")
        let made = Mutex(0)
        let shared = Worker(engine: engine, recommender: Self.recommender)
        let copied = Worker(engine: engine, recommender: Self.recommender, replicate: {
            made.withLock { $0 += 1 }
            return try! Recommender.load(dataDirectory: Repository.data, breeds: catalog.breeds)
        })
        let requests = CommandLineTests.requests.filter { $0.contains("recommend_activities") || $0.contains("progress") || $0.contains("rank_gyms") }
        #expect(requests.count > 100)
        let want = requests.map { shared.respond(to: ArraySlice(Array($0.utf8))) }
        let got = Mutex([[UInt8]?](repeating: nil, count: requests.count))
        DispatchQueue.concurrentPerform(iterations: 4) { lane in
            for i in stride(from: lane, to: requests.count, by: 4) {
                let answer = copied.respond(to: ArraySlice(Array(requests[i].utf8)))
                got.withLock { $0[i] = answer }
            }
        }
        let answers = got.withLock { $0 }
        #expect(answers.map { $0! } == want, "copies answer as the shared recommender")
        #expect(made.withLock { $0 } >= 1 && made.withLock { $0 } <= 4, "at most one copy per thread")
        // One thread keeps its copy: a second pass on this thread makes no new one.
        let before = made.withLock { $0 }
        for r in requests.prefix(20) { _ = copied.respond(to: ArraySlice(Array(r.utf8))) }
        for r in requests.prefix(20) { _ = copied.respond(to: ArraySlice(Array(r.utf8))) }
        #expect(made.withLock { $0 } <= before + 1)
    }
}
