import Foundation
import ScoutJSON
import ScoutTestSupport
import ScoutWorker
import Testing

/// The apps' own data, accepted as they send it: fields of a record's own named in `fields`
/// (a shelter's logo), a program's exercise instructions and session length, and the
/// activities of the catalogue by id with their benefits (the recommender app's debrief).
@Suite struct AppDataTests {
    static func answers(_ requests: [String]) throws -> [JSONValue] {
        let r = try ScoutProcess.serve(requests, arguments: ["--data", Repository.data])
        #expect(r.status == 0 && r.lines.count == requests.count)
        return try r.lines.map { try json($0) }
    }

    static let shelter = #"{"id":"s-1","kind":"shelter","lat":51.1,"lon":17.0,"name":"Azyl","type":"shelter","address":{"town":"Wrocław","country":"PL"},"logo":"https://example.org/azyl.png"}"#
    static let program = #"{"id":"p-1","kind":"program","name":"Kettlebell basics","goal":"strength","level":"beginner","weeks":4,"days_per_week":3,"session_minutes":45,"author":"u-1","exercises":[{"name":"Swing","sets":3,"reps":12,"instructions":"Hinge at the hips, arms loose."}]}"#

    @Test func aRecordsOwnFieldsCanBeAskedFor() throws {
        let a = try Self.answers([
            #"{"op":"upsert","records":[\#(Self.shelter)]}"#,
            #"{"op":"get","kind":"shelter","ids":["s-1"],"fields":["logo"]}"#,
            #"{"op":"get","kind":"shelter","ids":["s-1"],"fields":["nmae"]}"#,
        ])
        let hit = a[1]["result"]?["results"]?.array?.first
        #expect(hit?["fields"]?["logo"]?.string == "https://example.org/azyl.png" && hit?["fields"]?["name"] == nil)
        #expect(a[2]["error"]?["path"]?.string == "fields[0]" && a[2]["error"]?["message"]?.string?.contains("did you mean \"name\"") == true)
    }

    @Test func programsKeepInstructionsAndSessionLength() throws {
        let a = try Self.answers([
            #"{"op":"upsert","records":[\#(Self.program)]}"#,
            #"{"op":"get","kind":"program","ids":["p-1"],"fields":["session_minutes","exercises"]}"#,
            #"{"op":"upsert","records":[\#(Self.program.replacingOccurrences(of: "\"session_minutes\":45", with: "\"session_minutes\":2"))]}"#,
            #"{"op":"upsert","records":[\#(Self.program.replacingOccurrences(of: "\"instructions\"", with: "\"instruction\""))]}"#,
        ])
        let fields = a[1]["result"]?["results"]?.array?.first?["fields"]
        #expect(fields?["session_minutes"]?.double == 45)
        #expect(fields?["exercises"]?.array?.first?["instructions"]?.string == "Hinge at the hips, arms loose.")
        #expect(a[2]["error"]?["path"]?.string == "records[0].session_minutes")
        #expect(a[3]["error"]?["path"]?.string == "records[0].exercises[0].instruction")
        #expect(a[3]["error"]?["message"]?.string?.contains("did you mean \"instructions\"") == true)
    }

    @Test func activitiesByIDCarryTheirBenefits() throws {
        let a = try Self.answers([#"{"op":"activities","ids":["fetch","flying","sniff_walk"]}"#, #"{"op":"activities","ids":"fetch"}"#])
        let r = try #require(a[0]["result"])
        let catalogue = try JSONReader.parse(Array(FileManager.default.contents(atPath: Repository.data + "/activities.json")!))
        let fetch = try #require(catalogue["activities"]?.array?.first { $0["id"]?.string == "fetch" })
        #expect(r["results"]?.array?.compactMap { $0["activity"]?.string } == ["fetch", "sniff_walk"])
        #expect(r["results"]?.array?.first?["benefits"] == fetch["benefits"] && r["results"]?.array?.first?["how"] == fetch["how"])
        #expect(r["missing"]?.array == [.string("flying")])
        #expect(r["catalogue_version"] == catalogue["version"])
        #expect(a[1]["error"]?["path"]?.string == "ids")
    }
}
