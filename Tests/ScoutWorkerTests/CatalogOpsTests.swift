import Foundation
import ScoutCore
import ScoutGeodesy
import ScoutJSON
import ScoutTestSupport
import Testing

/// The catalogue calls through the real `scout serve`: one call per app screen,
/// then the error cases with their exact codes and paths. Expectations come from the sample
/// files as Foundation reads them (`CatalogOracle`), never from an earlier answer.
@Suite(.serialized) struct CatalogOpsTests {
    typealias O = CatalogOracle

    static func lines(_ name: String) -> [String] {
        let text = try! String(contentsOfFile: "\(Repository.data)/sample/\(name).jsonl", encoding: .utf8)
        return text.split(separator: "\n").map(String.init)
    }

    /// The first 1,000 sample dogs, in a file of their own (a quick load in a debug build).
    static let dogs: (path: String, lines: [String]) = {
        Repository.ensureSampleDogs()
        let dogs = Array(lines("dogs").prefix(1000))
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("scout-catalog-ops-dogs-\(getpid()).jsonl").path
        _ = FileManager.default.createFile(atPath: path, contents: Data((dogs.joined(separator: "\n") + "\n").utf8))
        return (path, dogs)
    }()

    /// Runs `scout serve` over the sample catalogue; returns each answer as text and as JSON.
    static func serve(_ requests: [String]) throws -> [(text: String, json: JSONValue)] {
        var args = ["--data", Repository.data, "--load", dogs.path]
        for f in ["shelters", "animals", "articles", "programs", "lovers"] { args += ["--load", "\(Repository.data)/sample/\(f).jsonl"] }
        let r = try ScoutProcess.serve(requests, arguments: args)
        #expect(r.status == 0, "\(r.stderr.suffix(2000))")
        #expect(r.lines.count == requests.count)
        return try r.lines.map { ($0, try json($0)) }
    }

    static func raw(_ file: String, _ id: String) -> [String: Any] {
        O.object(lines(file).first { $0.contains("\"id\":\"\(id)\"") }!)
    }

    static func error(_ answer: JSONValue) -> (code: String?, path: String?, message: String) {
        (answer["error"]?["code"]?.string, answer["error"]?["path"]?.string, answer["error"]?["message"]?.string ?? "")
    }

    @Test func oneCallPerAppScreen() throws {
        let dog = O.object(Self.dogs.lines[7])
        let dogID = dog["id"] as! String
        let lover = Self.raw("lovers", "lover-00001")
        let loverReviews = lover["reviews"] as! [String: [String: Any]]
        // Programs by Wilson lower bound of their votes, best first (ties: folded name, id).
        let programs = Self.lines("programs").map(O.object)
        func programOrder(_ extraDown: [String: Int]) -> [String] {
            programs.map { p -> (Double, String, String) in
                let v = p["votes"] as! [String: Any], id = p["id"] as! String
                let up = Int(O.number(v["up"])!), down = Int(O.number(v["down"])!) + (extraDown[id] ?? 0)
                return (-O.wilson(up: up, down: down), O.fold(p["name"] as! String), id)
            }.sorted { $0.0 != $1.0 ? $0.0 < $1.0 : $0.1 != $1.1 ? O.bytesBefore($0.1, $1.1) : O.bytesBefore($0.2, $1.2) }.map(\.2)
        }
        let before = programOrder([:])
        let top = before[0]
        let downVoters = (0..<60).map { #"{"op":"vote","kind":"program","record":"\#(top)","voter":"critic-\#($0)","value":-1}"# }

        let requests = [
            // 0: dog profile
            #"{"id":0,"op":"get","kind":"dog","ids":["\#(dogID)"],"now":"2026-11-21T10:00:00Z"}"#,
            // 1-4: dog lover profile, an owner's review, the same review again, the profile after
            #"{"id":1,"op":"get","kind":"lover","ids":["lover-00001"]}"#,
            #"{"id":2,"op":"review","kind":"lover","record":"lover-00001","reviewer":"owner-77","ratings":{"care":2,"reliability":5},"text":"On time, but forgot the lead."}"#,
            #"{"id":3,"op":"review","kind":"lover","record":"lover-00001","reviewer":"owner-77","ratings":{"reliability":5,"care":2},"text":"On time, but forgot the lead."}"#,
            #"{"id":4,"op":"get","kind":"lover","ids":["lover-00001"],"fields":["reviews_by","name"]}"#,
            // 5-6: "Help! My pet just…"
            #"{"id":5,"op":"search","kind":"article","text":"threw up","limit":3,"fields":["title"]}"#,
            #"{"id":6,"op":"search","kind":"article","text":"chewed a sock","limit":3,"fields":["title"]}"#,
            // 7: gym programs, best first
            #"{"id":7,"op":"search","kind":"program","sort":"rating","limit":1000,"fields":false}"#,
        ] + downVoters + [
            #"{"id":8,"op":"search","kind":"program","sort":"rating","limit":1000,"fields":false}"#,
            // shelters A-Z: names only, then every field
            #"{"id":9,"op":"search","kind":"shelter","limit":1000,"fields":["name"]}"#,
            #"{"id":10,"op":"search","kind":"shelter","limit":1000}"#,
            // animals near Wrocław, in Polish
            #"{"id":11,"op":"search","kind":"animal","near":{"place":"Wrocław"},"radius_m":20000,"filter":{"species":"pies"},"limit":1000,"fields":["species"]}"#,
            // patch, then get
            #"{"id":12,"op":"patch","kind":"program","record":"program-0002","set":{"weeks":12,"level":"beginner","days_per_week":3},"unset":["description"],"fields":["weeks","level"]}"#,
            #"{"id":13,"op":"get","kind":"program","ids":["program-0002"]}"#,
            // fields with an unknown name
            #"{"id":14,"op":"get","kind":"shelter","ids":["shelter-0001"],"fields":["name","adress"]}"#,
            #"{"id":15,"op":"search","kind":"lover","limit":1,"fields":["nmae"]}"#,
        ]
        let answers = try Self.serve(requests)
        let a = answers.map(\.json)
        for (i, x) in a.enumerated() { #expect(x["ok"] == .bool(true) || i >= requests.count - 2, "\(requests[i]) → \(answers[i].text.prefix(300))") }

        // Dog profile: its fields, at its published cell (within the ~1 km cell, never the home).
        let d = try #require(a[0]["result"]?["results"]?.array?.first)
        let home = GeoPoint(lat: O.number(dog["lat"])!, lon: O.number(dog["lon"])!)
        let shown = GeoPoint(lat: d["lat"]!.double!, lon: d["lon"]!.double!)
        #expect(d["id"]?.string == dogID && d["approximate"] == .bool(true))
        #expect(shown != home && Geodesic.distance(shown, home) < 1_000)
        #expect(d["fields"]?["name"]?.string == dog["name"] as? String && d["fields"]?["breed"]?.string == dog["breed"] as? String)
        #expect(a[0]["result"]?["missing"]?.array == [])

        // Lover profile and review: the loaded aggregate plus this owner's stars, counted once.
        let l0 = try #require(a[1]["result"]?["results"]?.array?.first)
        #expect(l0["fields"]?["name"]?.string == lover["name"] as? String && l0["lat"] == nil)
        for (c, stars) in [("reliability", 5.0), ("care", 2.0)] {
            let base = loverReviews[c]!, n = Int(O.number(base["count"])!), m = O.number(base["mean"]) ?? 0
            let mean = (m * Double(n) + stars) / Double(n + 1)
            for answer in [a[2]["result"]!, a[3]["result"]!, a[4]["result"]!["results"]![0]!] {
                let r = try #require(answer["reviews"]?[c])
                #expect(r["count"]?.double == Double(n + 1), "\(c)")
                #expect(abs(r["mean"]!.double! - mean) <= 0.005 + 1e-9, "\(c): \(r) vs \(mean)")
                #expect(abs(r["wilson"]!.double! - O.wilson(mean: mean, count: n + 1)) <= 0.00005 + 1e-9, "\(c) wilson")
            }
            #expect(abs(l0["reviews"]![c]!["count"]!.double! - Double(n)) == 0)
        }
        #expect(a[2]["result"]?["replaced"] == .bool(false) && a[2]["result"]?["changed"] == .bool(true))
        #expect(a[3]["result"]?["replaced"] == .bool(true) && a[3]["result"]?["changed"] == .bool(false))
        let kept = try #require(a[4]["result"]?["results"]?[0]?["fields"])
        #expect(kept["reviews_by"]?["owner-77"]?["ratings"]?["care"]?.double == 2)
        #expect(kept["reviews_by"]?["owner-77"]?["text"]?.string == "On time, but forgot the lead.")
        #expect(kept.members?.map(\.0).sorted() == ["name", "reviews_by"])

        // "Help! My pet just…": the vomiting article first, the swallowed-object article first.
        #expect(a[5]["result"]?["results"]?[0]?["id"]?.string == "article-vomiting", "\(answers[5].text.prefix(400))")
        #expect(a[6]["result"]?["results"]?[0]?["id"]?.string == "article-swallowed-object", "\(answers[6].text.prefix(400))")

        // Programs best first; after 60 down-votes the former first sinks to where the oracle puts it.
        let listed = try #require(a[7]["result"]?["results"]?.array).map { $0["id"]!.string! }
        #expect(listed == before)
        let ratings = try #require(a[7]["result"]?["results"]?.array).map { $0["rating"]!.double! }
        #expect(zip(ratings, ratings.dropFirst()).allSatisfy { $0 >= $1 })
        let afterVotes = programOrder([top: 60])
        let relisted = try #require(a[8 + downVoters.count]["result"]?["results"]?.array)
        #expect(relisted.map { $0["id"]!.string! } == afterVotes)
        let newRank = try #require(relisted.firstIndex { $0["id"]?.string == top })
        #expect(newRank > 0 && newRank == afterVotes.firstIndex(of: top), "60 down-votes push the best program down (now \(newRank))")
        for (i, v) in a[8..<(8 + downVoters.count)].enumerated() {
            #expect(v["result"]?["votes"]?["down"]?.double == O.number((Self.raw("programs", top)["votes"] as! [String: Any])["down"])! + Double(i + 1))
        }
        let s = 8 + downVoters.count

        // Shelters A-Z; names only is a fraction of the bytes of every field.
        let names = try #require(a[s + 1]["result"]?["results"]?.array)
        let shelters = Self.lines("shelters").map(O.object)
        let az = shelters.map { (O.fold($0["name"] as! String), $0["id"] as! String) }
            .sorted { $0.0 != $1.0 ? O.bytesBefore($0.0, $1.0) : O.bytesBefore($0.1, $1.1) }.map(\.1)
        #expect(names.map { $0["id"]!.string! } == az)
        #expect(names.allSatisfy { $0["fields"]?.members?.map(\.0) == ["name"] })
        let full = try #require(a[s + 2]["result"]?["results"]?.array)
        #expect(full.map { $0["id"]!.string! } == az)
        let ratio = Double(answers[s + 2].text.utf8.count) / Double(answers[s + 1].text.utf8.count)
        #expect(ratio > 15, "every field is \(ratio)× the names-only answer")

        // Animals near Wrocław by "pies": exactly the dogs within 20 km of the place resolved.
        let near = try #require(a[s + 3]["result"])
        let centre = GeoPoint(lat: near["resolved"]!["near"]!["lat"]!.double!, lon: near["resolved"]!["near"]!["lon"]!.double!)
        #expect(near["resolved"]?["near"]?["name"]?.string == "Wrocław")
        let animals = Self.lines("animals").map(O.object).filter { a in
            a["species"] as? String == "dog" && Geodesic.distance(GeoPoint(lat: O.number(a["lat"])!, lon: O.number(a["lon"])!), centre) <= 20_000
        }
        let want = animals.map { a -> (Double, String) in
            ((Geodesic.distance(GeoPoint(lat: O.number(a["lat"])!, lon: O.number(a["lon"])!), centre) * 1000).rounded() / 1000, a["id"] as! String)
        }.sorted { $0.0 != $1.0 ? $0.0 < $1.0 : O.bytesBefore($0.1, $1.1) }
        #expect(want.count >= 5)
        #expect(near["total"]?.double == Double(want.count))
        #expect(near["results"]?.array?.map { $0["id"]!.string! } == want.map(\.1))
        #expect(near["results"]?.array?.allSatisfy { $0["fields"]?["species"]?.string == "dog" } == true)

        // Patch, then get: the change shows, everything else is as loaded.
        #expect(a[s + 4]["result"]?["patched"]?.string == "program-0002")
        #expect(a[s + 4]["result"]?["record"]?["fields"]?.members?.map(\.0).sorted() == ["level", "weeks"])
        let patched = try #require(a[s + 5]["result"]?["results"]?[0]?["fields"])
        var expected = Self.raw("programs", "program-0002")
        for k in ["id", "kind"] { expected.removeValue(forKey: k) }
        expected["weeks"] = 12; expected["level"] = "beginner"; expected["days_per_week"] = 3
        expected.removeValue(forKey: "description")
        var w = JSONWriter(); w.value(patched)
        #expect((O.object(String(decoding: w.bytes, as: UTF8.self)) as NSDictionary) == (expected as NSDictionary))

        // A field name the kind does not have: invalid_request naming the closest.
        for (i, (path, close)) in [(s + 6, ("fields[1]", "address")), (s + 7, ("fields[0]", "name"))] {
            let e = Self.error(a[i])
            #expect(e.code == "invalid_request" && e.path == path, "\(answers[i].text)")
            #expect(e.message.contains("did you mean \"\(close)\""), "\(e.message)")
        }
    }

    @Test func errorsNameTheirCodeAndPathAndChangeNothing() throws {
        let dog = O.object(Self.dogs.lines[3])["id"] as! String
        let cases: [(request: String, code: String, path: String)] = [
            (#"{"op":"review","kind":"dog","record":"\#(dog)","reviewer":"x","ratings":{"temprament":5}}"#, "invalid_request", "ratings.temprament"),
            (#"{"op":"review","kind":"dog","record":"\#(dog)","reviewer":"x","ratings":{"temperament":6,"excitability":2,"experience_needed":2}}"#, "invalid_request", "ratings.temperament"),
            (#"{"op":"review","kind":"dog","record":"\#(dog)","reviewer":"x","ratings":{"temperament":0,"excitability":2,"experience_needed":2}}"#, "invalid_request", "ratings.temperament"),
            (#"{"op":"review","kind":"dog","record":"\#(dog)","reviewer":"x","ratings":{"temperament":4.5,"excitability":2,"experience_needed":2}}"#, "invalid_request", "ratings.temperament"),
            (#"{"op":"review","kind":"dog","record":"\#(dog)","reviewer":"x","ratings":{}}"#, "invalid_request", "ratings"),
            (#"{"op":"review","kind":"dog","record":"\#(dog)","reviewer":"x","ratings":{"temperament":3,"experience_needed":2}}"#, "invalid_request", "ratings.excitability"),
            (#"{"op":"review","kind":"dog","record":"\#(dog)","ratings":{"temperament":3}}"#, "invalid_request", "reviewer"),
            (#"{"op":"vote","kind":"program","record":"program-0001","voter":"x","value":2}"#, "invalid_request", "value"),
            (#"{"op":"vote","kind":"program","record":"program-0001","voter":"x","value":-2}"#, "invalid_request", "value"),
            (#"{"op":"vote","kind":"program","record":"program-0001","voter":"x"}"#, "invalid_request", "value"),
            (#"{"op":"patch","kind":"program","record":"program-0001","set":{"id":"program-9"}}"#, "invalid_request", "set.id"),
            (#"{"op":"patch","kind":"lover","record":"lover-00001","set":{"reviews_by":{}}}"#, "invalid_request", "set.reviews_by"),
            (#"{"op":"patch","kind":"program","record":"program-0001","set":{"votes_by":{"x":1}}}"#, "invalid_request", "set.votes_by"),
            (#"{"op":"patch","kind":"program","record":"program-0001","unset":["id"]}"#, "invalid_request", "unset[0]"),
            (#"{"op":"patch","kind":"program","record":"program-0001","set":{"weeks":0}}"#, "invalid_request", "set.weeks"),
            (#"{"op":"patch","kind":"program","record":"program-0001","set":{"name":"Renamed","level":"expert"}}"#, "invalid_request", "set.level"),
            (#"{"op":"review","kind":"dog","reviewer":"x","ratings":{"temperament":3}}"#, "invalid_request", "record"),
            (#"{"op":"vote","kind":"program","voter":"x","value":1}"#, "invalid_request", "record"),
            (#"{"op":"patch","kind":"program","set":{"weeks":3}}"#, "invalid_request", "record"),
            (#"{"op":"review","kind":"program","record":"program-0001","reviewer":"x","ratings":{"care":3}}"#, "invalid_request", "kind"),
            (#"{"op":"review","kind":"shelter","record":"shelter-0001","reviewer":"x","ratings":{"care":3}}"#, "invalid_request", "kind"),
            (#"{"op":"vote","kind":"dog","record":"\#(dog)","voter":"x","value":1}"#, "invalid_request", "kind"),
            (#"{"op":"vote","kind":"lover","record":"lover-00001","voter":"x","value":1}"#, "invalid_request", "kind"),
            (#"{"op":"review","kind":"lover","record":"lover-99999","reviewer":"x","ratings":{"care":3,"reliability":3}}"#, "not_found", "record"),
            (#"{"op":"vote","kind":"program","record":"program-9999","voter":"x","value":1}"#, "not_found", "record"),
            (#"{"op":"patch","kind":"program","record":"program-9999","set":{"weeks":3}}"#, "not_found", "record"),
            (#"{"op":"get","kind":"gym","ids":["gym-00001"]}"#, "not_found", "kind"),
            (#"{"op":"get","kind":"program","ids":"program-0001"}"#, "invalid_request", "ids"),
            (#"{"op":"review","kind":"lover","record":"lover-00001","reviewer":"x","rating":{"care":3}}"#, "invalid_request", "rating"),
            (#"{"op":"search","kind":"program","sort":"distance"}"#, "invalid_request", "sort"),
            (#"{"op":"search","kind":"shelter","sort":"rating"}"#, "invalid_request", "sort"),
            (#"{"op":"search","kind":"article","sort":"relevance"}"#, "invalid_request", "sort"),
            (#"{"op":"search","kind":"shelter","from":{"lat":51.1,"lon":17.0}}"#, "invalid_request", "from"),
            (#"{"op":"search","kind":"shelter","after":"shelter-9999"}"#, "not_found", "after"),
            (#"{"op":"search","kind":"program","near":{"lat":51.1,"lon":17.0},"radius_m":1000,"sort":"name","fields":["nmae"]}"#, "invalid_request", "fields[0]"),
            (#"{"op":"search","kind":"animal","filter":{"species":"Kangur"}}"#, "not_found", "filter.species"),
            (#"{"op":"search","kind":"dog","filter":{"breed":"Labradore"}}"#, "not_found", "filter.breed"),
        ]
        let check = [#"{"op":"get","kind":"dog","ids":["\#(dog)"]}"#, #"{"op":"get","kind":"program","ids":["program-0001"]}"#,
                     #"{"op":"get","kind":"lover","ids":["lover-00001"]}"#]
        let answers = try Self.serve(check + cases.map(\.request) + check).map(\.json)
        for (i, c) in cases.enumerated() {
            let e = Self.error(answers[check.count + i])
            #expect(e.code == c.code && e.path == c.path, "\(c.request) → \(answers[check.count + i])")
        }
        let unknown = Self.error(answers[check.count])
        #expect(unknown.message.contains("did you mean \"temperament\""), "\(unknown.message)")
        // Nothing changed: the records read the same before and after, and as loaded.
        for i in 0..<check.count { #expect(answers[i] == answers[check.count + cases.count + i], "\(check[i])") }
        let program = try #require(answers[1]["result"]?["results"]?[0])
        let raw = Self.raw("programs", "program-0001"), votes = raw["votes"] as! [String: Any]
        #expect(program["votes"]?["up"]?.double == O.number(votes["up"]) && program["votes"]?["down"]?.double == O.number(votes["down"]))
        #expect(program["fields"]?["votes_by"] == nil && program["fields"]?["weeks"]?.double == O.number(raw["weeks"]))
    }
}

extension JSONValue {
    /// The i-th element of an array (`nil` past the end or for other values).
    fileprivate subscript(i: Int) -> JSONValue? {
        guard let a = array, a.indices.contains(i) else { return nil }
        return a[i]
    }

}

extension CatalogOpsTests {
    /// `"words"` on the wire: most (the default) and all, the matched words of each hit, the
    /// dropped words and the note, and the errors of a bad value or a value without text.
    @Test func textWordsOnTheWire() throws {
        let sentence = "my dog wolfed a whole bar of dark chocolate"
        let answers = try Self.serve([
            #"{"op":"search","kind":"article","text":"\#(sentence)","limit":3,"fields":false}"#,
            #"{"op":"search","kind":"article","text":"\#(sentence)","words":"all","fields":false}"#,
            #"{"op":"search","kind":"article","text":"the and of","fields":false}"#,
            #"{"op":"search","kind":"article","text":"dog","words":"moste"}"#,
            #"{"op":"search","kind":"article","words":"all"}"#,
            #"{"op":"nearest","kind":"animal","from":{"lat":52.2,"lon":21.0},"k":2,"text":"małe psy","fields":false}"#,
        ])
        let most = answers[0].json["result"]!
        let hits = most["results"]!.array!
        #expect(hits.contains { $0["id"]?.string == "article-ate-chocolate" }, "\(answers[0].text)")
        for h in hits { #expect(h["matched_words"]?.array?.isEmpty == false, "\(answers[0].text)") }
        #expect(most["dropped_words"]?.array?.compactMap(\.string).contains("my") == true)
        #expect(answers[1].json["result"]?["total"]?.double == 0, "strict AND: \(answers[1].text)")
        #expect(answers[2].json["result"]?["total"]?.double == 0)
        #expect(answers[2].json["result"]?["note"]?.string?.contains("only stop words") == true, "\(answers[2].text)")
        let bad = Self.error(answers[3].json)
        #expect(bad.code == "invalid_request" && bad.path == "words" && bad.message.contains("did you mean \"most\""), "\(answers[3].text)")
        let alone = Self.error(answers[4].json)
        #expect(alone.path == "words" && alone.message.contains("text"), "\(answers[4].text)")
        let near = answers[5].json["result"]!["results"]!.array!
        #expect(near.count == 2 && near.allSatisfy { $0["matched_words"]?.array?.isEmpty == false }, "\(answers[5].text)")
    }
}
