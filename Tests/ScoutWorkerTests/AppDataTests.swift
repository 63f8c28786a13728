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

    /// The dog app's sign-up form asks for the name, about, birthday and breed (if known):
    /// that makes a dog, whose answers say what its owner did not give, and whom a filter on
    /// a field it lacks never keeps.
    @Test func theDogAppsSignUpFormMakesADog() throws {
        let form = #"{"id":"d-new","kind":"dog","lat":53.27,"lon":-9.05,"name":"Biscuit","about":"Shy at first.","birth_date":"2024-02-10"}"#
        let beagle = #"{"id":"d-beagle","kind":"dog","lat":53.27,"lon":-9.05,"name":"Bo","birth_date":"2023-05-01","breed":"Beagle"}"#
        let a = try Self.answers([
            #"{"op":"upsert","records":[\#(form),\#(beagle)]}"#,
            #"{"op":"get","kind":"dog","ids":["d-new","d-beagle"],"now":"2026-06-01T00:00:00Z","fields":false}"#,
            #"{"op":"search","kind":"dog","near":{"lat":53.27,"lon":-9.05},"radius_m":1000,"filter":{"sex":["male","female"]},"fields":false}"#,
            #"{"op":"search","kind":"dog","near":{"lat":53.27,"lon":-9.05},"radius_m":1000,"filter":{"size":["small","medium"]},"fields":false}"#,
            #"{"op":"search","kind":"dog","near":{"lat":53.27,"lon":-9.05},"radius_m":1000,"filter":{"weight_kg":{"min":0}},"fields":false}"#,
            #"{"op":"upsert","records":[{"id":"d-bad","kind":"dog","lat":53.27,"lon":-9.05,"name":"X","birth_date":"2024-02-10","sex":"it"}]}"#,
        ])
        let hits = try #require(a[1]["result"]?["results"]?.array)
        #expect(hits[0]["not_given"]?.array == ["breed", "sex", "weight_kg", "owner_id", "owner_experience"].map { .string($0) })
        #expect(hits[0]["breed_profile"]?.string == "Mixed" && hits[0]["size"] == nil && hits[0]["age_years"]?.double == 2.3)
        #expect(hits[1]["not_given"]?.array == ["sex", "weight_kg", "owner_id", "owner_experience"].map { .string($0) })
        #expect(hits[1]["size"] != nil, "a known breed gives the size")
        #expect(a[2]["result"]?["total"]?.double == 0 && a[4]["result"]?["total"]?.double == 0)
        #expect(a[3]["result"]?["results"]?.array?.compactMap { $0["id"]?.string } == ["d-beagle"])
        #expect(a[5]["error"]?["path"]?.string == "records[0].sex")
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
