import Foundation
import ScoutCatalog
import ScoutCatalogJSON
import ScoutCore
import ScoutEngine
import ScoutJSON
import ScoutRecommend
import ScoutRecommendJSON
import ScoutTestSupport
import ScoutWorker
import Testing

/// Decision-log lines (docs/recommender.md, "Decision logs"): a logged answer reads back as the
/// decision it was, and a bad line is refused with its line number and field.
@Suite struct DecisionLogTests {
    static let catalog = try! Catalog.load(dataDirectory: Repository.data)
    static let recommender = try! Recommender.load(dataDirectory: Repository.data, breeds: catalog.breeds)
    static let worker = Worker(engine: Engine(catalog: catalog), recommender: recommender)

    static let request = #"{"pet":{"name":"Rex","species":"dog","breed":"Border Collie","birth_date":"2021-04-02"},"now":"2026-06-10T14:05:00+01:00","timezone":"Europe/Dublin","location":{"lat":53.27,"lon":-9.05},"weather":{"temperature_c":16},"count":1,"seed":4}"#

    /// The answer the worker gives to `request`.
    static func offer() throws -> (id: String, propensity: Double) {
        let line = "{\"id\":1,\"op\":\"recommend_activities\"," + request.dropFirst()
        let answer = try JSONReader.parse(worker.respond(to: ArraySlice(Array(line.utf8))))
        let rec = try #require(answer["result"]?["recommendations"]?.array?.first)
        return (try #require(rec["id"]?.string), try #require(rec["propensity"]?.double))
    }

    @Test func aLoggedAnswerReadsBackAsItsDecision() throws {
        let (id, p) = try Self.offer()
        let line = #"{"request":\#(Self.request),"offers":[{"id":"\#(id)","propensity":\#(p)}],"ratings":[{"recommendation":"\#(id)","rating":"enjoyed"}]}"#
        let d = try Self.worker.loggedDecision(Array(line.utf8), line: 7)
        #expect(d.line == 7 && d.offers.count == 1 && d.offers[0].id.description == id && d.offers[0].propensity == p)
        #expect(d.ratings == [String(id.split(separator: ".")[0]): .enjoyed])
        // The logging policy gives the logged offer the logged propensity.
        let policy = Self.recommender.offerProbabilities(d.request)
        let i = try #require(Self.recommender.catalog.index(of: d.offers[0].id.activity))
        #expect(abs(policy[i].probability - p) < 1e-6)
    }

    @Test(arguments: [
        (#""offers":[{"id":"OFFER"}]"#, "line 3: offers[0].propensity", "propensity is required"),
        (#""offers":[{"id":"OFFER","propensity":0}]"#, "line 3: offers[0].propensity", "above 0"),
        (#""offers":[{"id":"OFFER","propensity":1.5}]"#, "line 3: offers[0].propensity", "between"),
        (#""offers":[{"id":"fetchh.000000000000","propensity":0.5}]"#, "line 3: offers[0].id", "did you mean \"fetch\""),
        (#""offers":[]"#, "line 3: offers", "offers is required"),
        (#""offers":[{"id":"OFFER","propensity":0.5}],"ratings":[{"activity":"jog","rating":"enjoyed"}]"#, "line 3: ratings[0].activity", "not offered"),
        (#""offers":[{"id":"OFFER","propensity":0.5}],"ratings":[{"recommendation":"OFFER","rating":"great"}]"#, "line 3: ratings[0].rating", "enjoyed"),
        (#""offers":[{"id":"OFFER","propensity":0.5}],"set_propensity":0"#, "line 3: set_propensity", "above 0"),
        (#""offers":[{"id":"OFFER","propensity":0.5}],"set_propensity":0.25"#, "line 3: set_propensity", "its propensity"),
    ])
    func aBadLineIsRefusedWithItsLineAndField(_ offers: String, _ path: String, _ words: String) throws {
        let (id, _) = try Self.offer()
        let line = #"{"request":\#(Self.request),\#(offers.replacingOccurrences(of: "OFFER", with: id))}"#
        #expect {
            _ = try Self.worker.loggedDecision(Array(line.utf8), line: 3)
        } throws: { e in
            guard let e = e as? ScoutError else { return false }
            return e.path == path && e.message.contains(words)
        }
    }

    /// "This or that": the answer's pair and its set propensity read back, and the pair is the
    /// policy's with that probability.
    @Test func aLoggedPairReadsBackWithItsSetPropensity() throws {
        let request = Self.request.replacingOccurrences(of: #""count":1"#, with: #""count":2,"mode":"explore""#)
        let line = "{\"id\":1,\"op\":\"recommend_activities\"," + request.dropFirst()
        let answer = try JSONReader.parse(Self.worker.respond(to: ArraySlice(Array(line.utf8))))
        let recs = try #require(answer["result"]?["recommendations"]?.array)
        let set = try #require(answer["result"]?["set_propensity"]?.double)
        #expect(recs.count == 2 && set > 0 && set <= 1)
        let offers = try recs.map { r in #"{"id":"\#(try #require(r["id"]?.string))","propensity":\#(try #require(r["propensity"]?.double))}"# }
        let logged = #"{"request":\#(request),"offers":[\#(offers.joined(separator: ","))],"set_propensity":\#(set),"#
            + #""ratings":[{"recommendation":"\#(try #require(recs[1]["id"]?.string))","rating":"enjoyed"}]}"#
        let d = try Self.worker.loggedDecision(Array(logged.utf8), line: 2)
        #expect(d.setPropensity == set && d.offers.count == 2 && d.ratings.count == 1)
        let pair = try d.offers.map { try #require(Self.recommender.catalog.index(of: $0.id.activity)) }.sorted()
        let policy = Self.recommender.offerSets(d.request).sets
        #expect(abs((policy.first { $0.activities == pair }?.probability ?? 0) - set) < 1e-12)
    }

    @Test func aLoggedRequestIsReadAsTheWorkerReadsIt() throws {
        // A request field wrong inside the log: its path under `request`.
        let line = #"{"request":{"pet":{"species":"dog","birth_date":"2021-04-02"},"now":"yesterday","location":{"lat":53,"lon":-9},"weather":{"temperature_c":16}},"offers":[{"id":"fetch.000000000000","propensity":0.5}]}"#
        #expect {
            _ = try Self.worker.loggedDecision(Array(line.utf8), line: 12)
        } throws: { e in (e as? ScoutError)?.path == "line 12: request.now" }
        let byID = #"{"request":{"pet_id":"pet-rex","now":"2026-06-10T14:05:00Z"},"offers":[{"id":"fetch.000000000000","propensity":0.5}]}"#
        #expect {
            _ = try Self.worker.loggedDecision(Array(byID.utf8), line: 1)
        } throws: { e in (e as? ScoutError)?.message.contains("inline") == true }
    }
}
