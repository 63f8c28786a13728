import Foundation
import ScoutJSON
import ScoutTestSupport
import Testing

/// `scout serve` over the sample catalogue: place names, filters, text, pages and privacy.
@Suite(.serialized) struct CatalogServeTests {
    /// The first 3,000 sample dogs (a quick load in debug builds) with their exact positions.
    static let dogs: (path: String, exact: [String: (lat: Double, lon: Double, latText: String, lonText: String)]) = {
        Repository.ensureSampleDogs()
        let text = try! String(contentsOfFile: Repository.data + "/sample/dogs.jsonl", encoding: .utf8)
        let lines = text.split(separator: "\n").prefix(3000)
        var exact: [String: (Double, Double, String, String)] = [:]
        for l in lines {
            let v = try! json(String(l))
            guard case .number(let la) = v["lat"]!, case .number(let lo) = v["lon"]! else { fatalError() }
            exact[v["id"]!.string!] = (Double(la)!, Double(lo)!, la, lo)
        }
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("scout-dogs-\(getpid()).jsonl").path
        _ = FileManager.default.createFile(atPath: path, contents: Data((lines.joined(separator: "\n") + "\n").utf8))
        return (path, exact)
    }()

    static func serve(_ requests: [String], exact: Bool = false) throws -> (lines: [JSONValue], stderr: String) {
        var args = ["--data", Repository.data, "--load", dogs.path,
                    "--load", Repository.data + "/sample/gyms.jsonl", "--load", Repository.data + "/sample/shelters.jsonl",
                    "--load", Repository.data + "/sample/animals.jsonl"]
        if exact { args.append("--exact-dog-locations") }
        let r = try ScoutProcess.serve(requests, arguments: args)
        #expect(r.status == 0)
        #expect(r.lines.count == requests.count)
        return (try r.lines.map { try json($0) }, r.stderr)
    }

    static let dogRequests = [
        #"{"id":1,"op":"search","kind":"dog","near":{"place":"London"},"radius_m":30000,"limit":200}"#,
        #"{"id":2,"op":"nearest","kind":"dog","from":{"place":"Galway","country":"IE"},"k":25,"filter":{"good_with_dogs":{"min":4}}}"#,
        #"{"id":3,"op":"search","kind":"dog","bbox":[-11,49,25,60],"limit":300,"sort":"rating","from":{"lat":52.2297,"lon":21.0122}}"#,
        #"{"id":4,"op":"search","kind":"dog","near":{"place":"wroclaw"},"radius_m":40000,"text":"labrador","limit":50}"#,
        #"{"id":5,"op":"upsert","records":[{"id":"x","kind":"dog","lat":95.123456,"lon":-9.654321,"name":"Rex"}]}"#,
        #"{"id":6,"op":"search","kind":"dog","near":{"lat":53.3498,"lon":-6.2603},"radius_m":1e9}"#,
    ]

    @Test func noResponseAndNoLogLineHoldsAnExactDogCoordinate() throws {
        let (lines, stderr) = try Self.serve(Self.dogRequests)
        var seen = 0
        for line in lines {
            for hit in line["result"]?["results"]?.array ?? [] {
                let id = hit["id"]!.string!
                let exact = try #require(Self.dogs.exact[id])
                #expect(hit["approximate"] == .bool(true))
                #expect(hit["lat"]!.double! != exact.lat && hit["lon"]!.double! != exact.lon)
                if let d = hit["distance_m"]?.double { #expect(d.truncatingRemainder(dividingBy: 100) == 0) }
                seen += 1
            }
            if let message = line["error"]?["message"]?.string {
                #expect(!message.contains("95.12") && !message.contains("9.654"))
            }
        }
        #expect(seen > 100)
        for (_, e) in Self.dogs.exact { #expect(!stderr.contains(e.latText) || !stderr.contains(e.lonText)) }
        #expect(!stderr.contains("95.123456"))
        #expect(lines[4]["error"]?["code"] == .string("invalid_request"))
    }

    @Test func theExactFlagShowsExactPoints() throws {
        let (lines, _) = try Self.serve([Self.dogRequests[0]], exact: true)
        let hits = try #require(lines[0]["result"]?["results"]?.array)
        #expect(!hits.isEmpty)
        for hit in hits {
            let e = Self.dogs.exact[hit["id"]!.string!]!
            #expect(hit["lat"]!.double! == e.lat && hit["lon"]!.double! == e.lon)
            #expect(hit["approximate"] == nil)
        }
    }

    @Test func placeNamesResolveWithAlternativesAndSuggestions() throws {
        let (lines, _) = try Self.serve([
            #"{"id":1,"op":"search","kind":"gym","near":{"place":"Dublin"},"radius_m":4000,"limit":3}"#,
            #"{"id":2,"op":"place","name":"Baile Átha Cliath"}"#,
            #"{"id":3,"op":"place","name":"Galwya"}"#,
            #"{"id":4,"op":"search","kind":"gym","near":{"place":""},"radius_m":4000}"#,
            #"{"id":5,"op":"breed","name":"labrador retriever"}"#,
            #"{"id":6,"op":"breed","name":"Atlantean Wolfhound"}"#,
        ])
        let resolved = try #require(lines[0]["result"]?["resolved"]?["near"])
        #expect(resolved["name"] == .string("Dublin") && resolved["country"] == .string("IE"))
        #expect(resolved["alternatives"]?.array?.contains { $0["country"] == .string("US") } == true)
        #expect(lines[0]["result"]?["results"]?.array?.count == 3)
        #expect(lines[1]["result"]?["name"] == .string("Dublin"))
        #expect(lines[2]["error"]?["code"] == .string("not_found"))
        #expect(lines[2]["error"]?["message"]?.string?.contains("Galway") == true)
        #expect(lines[3]["error"]?["path"] == .string("near.place"))
        #expect(lines[4]["result"]?["traits"]?["energy"] == .number("5"))
        #expect(lines[5]["error"]?["code"] == .string("not_found"))
    }

    @Test func filtersTextAndPagesWorkThroughThePipe() throws {
        let (lines, _) = try Self.serve([
            #"{"id":1,"op":"search","kind":"shelter","near":{"place":"Wrocław"},"radius_m":100000,"text":"schronisko","filter":{"animal":{"species":"cat","adoptable":true}},"limit":2}"#,
            #"{"id":2,"op":"search","kind":"gym","near":{"place":"Dublin"},"radius_m":4000,"sort":"rating","filter":{"open_at":"2026-11-23T07:30:00Z"},"fields":false}"#,
            #"{"id":3,"op":"search","kind":"gym","near":{"place":"Dublin"},"radius_m":4000,"filter":{"colour":"red"}}"#,
            #"{"id":4,"op":"search","kind":"gym","near":{"place":"Dublin"},"radius_m":4000,"filter":{"open_at":"Monday"}}"#,
            #"{"id":5,"op":"search","kind":"gym","near":{"place":"Dublin"},"radius_m":4000,"after":"no-such-gym"}"#,
            #"{"id":6,"op":"search","kind":"gym","near":{"place":"Dublin"},"radius_m":4000,"sort":"relevance"}"#,
        ])
        let shelters = try #require(lines[0]["result"])
        #expect(shelters["total"]!.double! >= 1)
        for h in shelters["results"]!.array! {
            #expect(h["relevance"]!.double! > 0)
            #expect(h["fields"]?["animals"]?.array?.contains { $0["species"] == .string("cat") && $0["adoptable"] == .bool(true) } == true)
        }
        if shelters["total"]!.double! > 2 { #expect(shelters["next_after"]?.string != nil) }
        let gyms = try #require(lines[1]["result"]?["results"]?.array)
        let ratings = gyms.map { $0["rating"]!.double! }
        #expect(!gyms.isEmpty && ratings == ratings.sorted(by: >))
        #expect(gyms.allSatisfy { $0["fields"] == nil })
        #expect(lines[2]["error"]?["path"] == .string("filter.colour"))
        #expect(lines[3]["error"]?["path"] == .string("filter.open_at"))
        #expect(lines[4]["error"]?["code"] == .string("not_found"))
        #expect(lines[4]["error"]?["path"] == .string("after"))
        #expect(lines[5]["error"]?["path"] == .string("sort"))
    }
}
