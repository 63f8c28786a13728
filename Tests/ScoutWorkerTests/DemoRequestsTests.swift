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
}
