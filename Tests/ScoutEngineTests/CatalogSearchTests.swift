import Foundation
import ScoutCatalog
import ScoutCatalogJSON
import ScoutCore
import ScoutEngine
import ScoutGeodesy
import ScoutJSON
import ScoutTestSupport
import ScoutText
import ScoutTime
import Testing

/// The sample catalogue, loaded once, with the raw JSON of every record for the oracles.
enum Sample {
    struct Raw { let id: String; let point: GeoPoint; let json: JSONValue }

    static let catalog = try! Catalog.load(dataDirectory: Repository.data)
    static let engine: Engine = {
        Repository.ensureSampleDogs()
        let e = Engine(catalog: catalog, privacy: .exact)
        for f in ["dogs", "gyms", "shelters", "animals"] { try! e.load(path: "\(Repository.data)/sample/\(f).jsonl") }
        return e
    }()
    static let raw: [String: [Raw]] = {
        Repository.ensureSampleDogs()
        var out: [String: [Raw]] = [:]
        for (kind, f) in [("dog", "dogs"), ("gym", "gyms"), ("shelter", "shelters"), ("animal", "animals")] {
            let text = try! String(contentsOfFile: "\(Repository.data)/sample/\(f).jsonl", encoding: .utf8)
            out[kind] = text.split(separator: "\n").map { line in
                let v = try! JSONReader.parse(Array(line.utf8))
                return Raw(id: v["id"]!.string!, point: GeoPoint(lat: v["lat"]!.double!, lon: v["lon"]!.double!), json: v)
            }
        }
        return out
    }()
    static let today = LocalDate(year: 2026, month: 11, day: 21)!

    static func json(_ s: String) -> JSONValue { try! JSONReader.parse(Array(s.utf8)) }
}

@Suite struct CatalogSearchTests {
    /// A random dog filter as JSON and the oracle that decides it from the raw record.
    static func dogFilter(_ rng: inout SplitMix64) -> (String, (JSONValue) -> Bool) {
        var parts: [String] = []
        var tests: [(JSONValue) -> Bool] = []
        let breeds = Sample.catalog.breeds
        func breed(_ v: JSONValue) -> Breed { breeds.breed(named: v["breed"]!.string!) ?? breeds.mixed }
        if rng.chance(0.4) {
            let sex = rng.chance(0.5) ? "male" : "female"
            parts.append(#""sex":"\#(sex)""#); tests.append { $0["sex"]!.string == sex }
        }
        if rng.chance(0.4) {
            let sizes = Array(["toy", "small", "medium", "large", "giant"].shuffled(using: &rng).prefix(rng.int(1...3)))
            parts.append(#""size":[\#(sizes.map { "\"\($0)\"" }.joined(separator: ","))]"#)
            tests.append { v in
                let b = breed(v)
                let w = v["weight_kg"]!.double!
                let size = b.isMixed || b.sizeClass == nil ? SizeClass(weightKg: w) : b.sizeClass!
                return sizes.contains(size.rawValue)
            }
        }
        if rng.chance(0.4) {
            let lo = Double(rng.int(0...6)), hi = lo + Double(rng.int(1...6))
            parts.append(#""age_years":{"min":\#(lo),"max":\#(hi)}"#)
            tests.append { v in
                let birth = try! LocalDate.parse(v["birth_date"]!.string!, path: "")
                let age = Double(Sample.today.daysSinceEpoch - birth.daysSinceEpoch) / 365.2425
                return age >= lo && age <= hi
            }
        }
        if rng.chance(0.4) {
            let min = rng.int(2...5)
            parts.append(#""good_with_dogs":{"min":\#(min)}"#); tests.append { breed($0)[.goodWithDogs] >= min }
        }
        if rng.chance(0.3) {
            let min = rng.uniform(2, 4.5), count = rng.int(0...5)
            parts.append(#""temperament":{"min":\#(min),"min_count":\#(count)}"#)
            tests.append { v in
                let r = v["reviews"]!["temperament"]!
                guard Int(r["count"]!.double!) >= count else { return false }
                guard let m = r["mean"]?.double else { return false }
                return m >= min
            }
        }
        if rng.chance(0.3) {
            let x = rng.int(1...5)
            parts.append(#""handler_experience":\#(x)"#)
            tests.append { v in
                let b = breed(v)
                let need = v["reviews"]!["experience_needed"]!["mean"]?.double
                    ?? Double((6 - b[.trainability]) + b[.energy] + (6 - b[.adaptability])) / 3
                return need <= Double(x)
            }
        }
        if rng.chance(0.3) {
            parts.append(#""available":true"#); tests.append { v in if case .bool(true) = v["available"]! { true } else { false } }
        }
        return ("{" + parts.joined(separator: ",") + "}", { v in tests.allSatisfy { $0(v) } })
    }

    static func center(_ rng: inout SplitMix64, kind: String) -> GeoPoint {
        let anchor = rng.pick(Sample.raw[kind]!).point
        return Scenario.near(anchor, spread: 5000, &rng)
    }

    @Test func filteredRadiusSearchEqualsBruteForceOverTheSample() throws {
        var rng = SplitMix64(seed: 301)
        for _ in 0..<TestScale.count(short: 15, full: 60) {
            let (filterText, oracle) = Self.dogFilter(&rng)
            let filter = try RecordFilter.parse(Sample.json(filterText), kind: "dog", today: Sample.today)
            let c = Self.center(&rng, kind: "dog")
            let r = rng.logUniform(500, 60_000)
            let got = try Sample.engine.search(SearchQuery(kind: "dog", area: .radius(center: c, meters: r), limit: 100_000, filter: filter))
            let want = Sample.raw["dog"]!.filter { Geodesic.distance($0.point, c) <= r && oracle($0.json) }
                .map { (Oracle.mm($0.point, c), $0.id) }.sorted { $0 < $1 }
            #expect(got.total == want.count, "filter \(filterText)")
            #expect(got.hits.map(\.id) == want.map(\.1), "filter \(filterText)")
        }
    }

    @Test func filteredNearestReturnsKMatchesWheneverKExist() throws {
        var rng = SplitMix64(seed: 302)
        for _ in 0..<TestScale.count(short: 12, full: 40) {
            let (filterText, oracle) = Self.dogFilter(&rng)
            let filter = try RecordFilter.parse(Sample.json(filterText), kind: "dog", today: Sample.today)
            let c = Self.center(&rng, kind: "dog")
            let k = rng.int(1...25)
            let got = try Sample.engine.nearest(NearestQuery(kind: "dog", from: c, k: k, filter: filter))
            let want = Sample.raw["dog"]!.filter { oracle($0.json) }.map { (Oracle.mm($0.point, c), $0.id) }.sorted { $0 < $1 }.prefix(k)
            #expect(got.hits.map(\.id) == want.map(\.1), "filter \(filterText)")
            #expect(got.hits.map { $0.distance! } == want.map(\.0))
        }
    }

    @Test func gymsOpenAtAnInstantInTheirOwnZone() throws {
        var rng = SplitMix64(seed: 303)
        for _ in 0..<30 {
            let day = rng.int(16...22), hour = rng.int(0...23), minute = rng.pick([0, 15, 59])
            let offset = rng.pick(["Z", "+01:00", "-05:00"])
            let instantText = String(format: "2026-11-%02dT%02d:%02d:00%@", day, hour, minute, offset)
            let instant = try Instant.parse(instantText, path: "")
            let type = rng.pick(Gym.types)
            let filter = try RecordFilter.parse(Sample.json(#"{"type":["\#(type)","gym"],"open_at":"\#(instantText)"}"#), kind: "gym", today: Sample.today)
            let c = Self.center(&rng, kind: "gym")
            let got = try Sample.engine.search(SearchQuery(kind: "gym", area: .radius(center: c, meters: 30_000), limit: 100_000, filter: filter))
            let want = try Sample.raw["gym"]!.filter { g in
                guard Geodesic.distance(g.point, c) <= 30_000, [type, "gym"].contains(g.json["type"]!.string!) else { return false }
                guard let text = g.json["opening_hours"]?.string else { return false }
                let zone = try Zone(identifier: g.json["timezone"]!.string!, path: "")
                return try OpeningHours(parsing: text, path: "").isOpen(at: instant, in: zone)
            }.map { (Oracle.mm($0.point, c), $0.id) }.sorted { $0 < $1 }
            #expect(got.hits.map(\.id) == want.map(\.1), "open_at \(instantText)")
        }
    }

    @Test func sheltersWithAnAnimalMatching() throws {
        var rng = SplitMix64(seed: 304)
        // A shelter's animals: the animal records that name it.
        let animalsOf = Dictionary(grouping: Sample.raw["animal"]!.map(\.json)) { $0["shelter_id"]!.string! }
        for _ in 0..<30 {
            let species = rng.pick(["cat", "dog", "rabbit", "horse"]), maxAge = rng.uniform(0.5, 6)
            let filter = try RecordFilter.parse(Sample.json(#"{"animal":{"species":"\#(species)","age_years":{"max":\#(maxAge)},"adoptable":true}}"#),
                                                kind: "shelter", today: Sample.today)
            let c = Self.center(&rng, kind: "shelter")
            let got = try Sample.engine.search(SearchQuery(kind: "shelter", area: .radius(center: c, meters: 150_000), limit: 100_000, filter: filter))
            let want = Sample.raw["shelter"]!.filter { s in
                Geodesic.distance(s.point, c) <= 150_000 && (animalsOf[s.id] ?? []).contains { a in
                    a["species"]!.string == species && a["age_years"]!.double! <= maxAge && a["adoptable"]! == .bool(true)
                }
            }.map { (Oracle.mm($0.point, c), $0.id) }.sorted { $0 < $1 }
            #expect(got.hits.map(\.id) == want.map(\.1))
        }
    }

    @Test func pagesWithAfterConcatenateToTheWholeResult() throws {
        var rng = SplitMix64(seed: 305)
        for sort in [SortOrder.distance, .id, .rating] {
            let c = Self.center(&rng, kind: "dog")
            let area = SearchArea.radius(center: c, meters: 6_000)
            let whole = try Sample.engine.search(SearchQuery(kind: "dog", area: area, limit: 100_000, sort: sort))
            var paged: [String] = []
            var after: String?
            repeat {
                let page = try Sample.engine.search(SearchQuery(kind: "dog", area: area, limit: 40, sort: sort, after: after))
                #expect(page.total == whole.total)
                paged += page.hits.map(\.id)
                after = page.nextAfter
            } while after != nil
            #expect(whole.total > 40, "the test needs several pages")
            #expect(paged == whole.hits.map(\.id), "sort \(sort)")
        }
    }

    /// Id order is the ids' UTF-8 bytes compared lexicographically, whatever the ids share:
    /// prefixes of eight bytes and more, one id a prefix of another, multi-byte characters,
    /// a NUL byte. Pages with `after` concatenate to the same order.
    @Test func idOrderIsUTF8ByteOrderForNastyIds() throws {
        var rng = SplitMix64(seed: 311)
        let stems = ["p0000001", "p000000", "p00000012", "dog-0273", "dog-02738", "ä", "Ä", "z\u{0}a", "z", "zz", "日本-1", "🐕"]
        var ids = Set<String>()
        while ids.count < 400 {
            var id = stems[Int(rng.next() % UInt64(stems.count))]
            for _ in 0..<Int(rng.next() % 4) { id += stems[Int(rng.next() % UInt64(stems.count))] }
            ids.insert(id)
        }
        let e = Engine(catalog: Sample.catalog)
        try e.upsert(ids.map { PointRecord(id: $0, kind: "poi", point: GeoPoint(lat: Double(rng.next() % 1000) / 1000, lon: Double(rng.next() % 1000) / 1000)) })
        let expected = ids.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        let area = SearchArea.box(GeoBox(west: 0, south: 0, east: 1, north: 1))
        let whole = try e.search(SearchQuery(kind: "poi", area: area, limit: 100_000, sort: .id))
        #expect(whole.hits.map(\.id) == expected)
        var paged: [String] = []
        var after: String?
        repeat {
            let page = try e.search(SearchQuery(kind: "poi", area: area, limit: 37, sort: .id, after: after))
            paged += page.hits.map(\.id)
            after = page.nextAfter
        } while after != nil
        #expect(paged == expected)
    }

    @Test func ratingOrderIsBayesianThenDistanceThenId() throws {
        let c = GeoPoint(lat: 53.3498, lon: -6.2603)
        let got = try Sample.engine.search(SearchQuery(kind: "dog", area: .radius(center: c, meters: 10_000), limit: 100_000, sort: .rating))
        let keys = got.hits.map { (-$0.rating!, $0.distance!, $0.id) }
        #expect(keys.count > 100)
        #expect(zip(keys, keys.dropFirst()).allSatisfy { $0 < $1 })
        for h in got.hits { if case .dog(let d) = h.record { #expect(h.rating == Rating.bayesian(d.temperament)) } }
    }

    @Test func textSearchCombinesWithAreaAndSortsByRelevance() throws {
        let wroclaw = try Sample.catalog.places.resolve("wroclaw").place.point
        let got = try Sample.engine.search(SearchQuery(kind: "shelter", area: .radius(center: wroclaw, meters: 200_000), limit: 100_000, text: "schronisko"))
        let raw = Dictionary(uniqueKeysWithValues: Sample.raw["shelter"]!.map { ($0.id, $0) })
        #expect(!got.hits.isEmpty)
        for h in got.hits {
            let r = raw[h.id]!
            #expect(Geodesic.distance(r.point, wroclaw) <= 200_000)
            let text = TextFolding.fold([r.json["name"]!.string!, r.json["description"]!.string!].joined(separator: " "))
            #expect(text.contains("schronisk"))
        }
        let scores = got.hits.map { $0.relevance! }
        #expect(zip(scores, scores.dropFirst()).allSatisfy { $0 >= $1 })
        // Every shelter in the area whose name holds the word is found.
        let named = Sample.raw["shelter"]!.filter {
            Geodesic.distance($0.point, wroclaw) <= 200_000 && TextFolding.words($0.json["name"]!.string!).contains("schronisko")
        }
        #expect(Set(named.map(\.id)).isSubset(of: Set(got.hits.map(\.id))))
    }

    @Test func dogsLeaveApproximatelyByDefault() throws {
        let e = Engine(catalog: Sample.catalog)
        try e.load(path: "\(Repository.data)/sample/dogs.jsonl")
        let c = GeoPoint(lat: 51.1079, lon: 17.0385)
        let shown = try e.search(SearchQuery(kind: "dog", area: .radius(center: c, meters: 8000), limit: 5000))
        // Oracle: membership and order are those of the dogs' cell centres, not their homes.
        let cells = Sample.raw["dog"]!.map { (id: $0.id, cell: try! Geohash($0.point, precision: LocationPrivacy.cellPrecision).center) }
        let expected = cells.map { (id: $0.id, d: DistanceBounds.millimetres($0.cell, c, ecefOfB: WGS84.ecef(c))) }
            .filter { $0.d <= 8000 }.sorted { ($0.d, $0.id) < ($1.d, $1.id) }
        #expect(shown.total == expected.count && shown.total > 100)
        #expect(shown.hits.map(\.id) == expected.map(\.id))
        let byID = Dictionary(uniqueKeysWithValues: cells.map { ($0.id, $0.cell) })
        for (s, x) in zip(shown.hits, expected) {
            #expect(s.isApproximate)
            #expect(s.point == byID[s.id]!)
            #expect(s.distance! == (x.d / 100).rounded() * 100)
        }
    }

    @Test func typedRecordsAreValidatedWithPaths() {
        let e = Engine(catalog: Sample.catalog)
        let good: [(String, JSONValue)] = Sample.raw["dog"]![0].json.members!.filter { !["id", "kind", "lat", "lon"].contains($0.0) }
        for (field, bad, code) in [("weight_kg", JSONValue.number("-3"), ScoutError.Code.invalidRequest), ("sex", .string("x"), .invalidRequest),
                                   ("birth_date", .string("2021-02-30"), .invalidRequest), ("owner_experience", .number("7"), .invalidRequest)] {
            let fields = good.map { $0.0 == field ? (field, bad) : $0 }
            let err = #expect(throws: ScoutError.self) {
                try e.upsert([PointRecord(id: "x", kind: "dog", point: GeoPoint(lat: 53, lon: -9), fields: fields)])
            }
            #expect(err?.code == code)
            #expect(err?.path == "records[0].\(field)")
        }
        #expect(e.pointSet(kind: "dog") == nil)
    }
}
