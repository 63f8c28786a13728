import Foundation
import ScoutJSON
import ScoutTestSupport
import Testing

/// `scripts/demo.sh`'s requests — one call per app screen — answer as the demo promises:
/// every one succeeds but the two that show errors (an unknown place, a latitude of 91).
@Suite struct DemoRequestsTests {
    @Test func everyAppScreenCallAnswers() throws {
        Repository.ensureSampleDogs()
        let requests = try String(contentsOfFile: Repository.root + "/scripts/demo-requests.jsonl", encoding: .utf8)
        let demo = try String(contentsOfFile: Repository.root + "/scripts/demo.sh", encoding: .utf8)
        // The same files the demo loads.
        var args = ["--data", Repository.data]
        for kind in ["dogs", "gyms", "shelters", "animals", "articles", "programs", "lovers"] {
            #expect(demo.contains("--load data/sample/\(kind).jsonl"), "demo.sh no longer loads \(kind)")
            args += ["--load", Repository.data + "/sample/\(kind).jsonl"]
        }
        let r = try ScoutProcess.serve(Array(requests.utf8), arguments: args)
        let lines = requests.split(separator: "\n")
        #expect(r.status == 0)
        #expect(r.lines.count == lines.count)
        var screens = 0
        for (request, line) in zip(lines, r.lines) {
            let q = try JSONReader.parse(Array(request.utf8)), a = try JSONReader.parse(Array(line.utf8))
            let expectedError = [.number("12"), .number("18")].contains(q["id"] ?? .null)
            #expect(a["ok"] == .bool(!expectedError), "\(request) → \(line)")
            if case .string = q["id"] { screens += 1 }
        }
        #expect(screens >= 16, "one call per app screen")
    }

    /// A pet whose breed is named the way people say it ("Lab") gets exactly the answer of
    /// the breed's own name, and `resolved` says how the name was read.
    @Test func petsByTheNamesPeopleUse() throws {
        func request(_ species: String, _ breed: String, op: String) -> String {
            let pet = #"{"species":"\#(species)","breed":"\#(breed)","birth_date":"2021-04-02","weight_kg":30}"#
            return op == "progress"
                ? #"{"op":"progress","pet":\#(pet),"now":"2026-06-10T18:30:00+01:00","timezone":"Europe/Dublin","log":[{"type":"feeding","start":"2026-06-10T08:00:00+01:00"}]}"#
                : #"{"op":"recommend_activities","pet":\#(pet),"now":"2026-06-10T14:05:00Z","location":{"place":"Galway"},"weather":{"temperature_c":16},"seed":7}"#
        }
        for op in ["recommend_activities", "progress"] {
            let lines = [request("dog", "Lab", op: op), request("dog", "Labrador Retriever", op: op)]
            let r = try ScoutProcess.serve(Array((lines.joined(separator: "\n") + "\n").utf8), arguments: ["--data", Repository.data])
            #expect(r.lines.count == 2)
            let popular = try JSONReader.parse(Array(r.lines[0].utf8)), canonical = try JSONReader.parse(Array(r.lines[1].utf8))
            #expect(popular["ok"] == .bool(true), "\(r.lines[0])")
            let resolved = popular["result"]?["resolved"]
            #expect(resolved?["pet.breed"]?["given"] == .string("Lab") && resolved?["pet.breed"]?["breed"] == .string("Labrador Retriever"))
            #expect(canonical["result"]?["resolved"]?["pet.breed"] == nil)
            // Everything else is the same answer.
            func withoutResolved(_ v: JSONValue) -> JSONValue {
                guard case .object(let m) = v["result"] ?? .null else { return v }
                return .object(m.map { key, value in
                    guard key == "resolved", case .object(let r) = value else { return (key, value) }
                    return (key, .object(r.filter { $0.0 != "pet.breed" }))
                }.filter { !($0.0 == "resolved" && $0.1 == .object([])) })
            }
            #expect(withoutResolved(popular) == withoutResolved(canonical), "\(op)")
        }
    }
}
