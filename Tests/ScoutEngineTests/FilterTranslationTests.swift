import ScoutCatalog
import ScoutCatalogJSON
import ScoutCore
import ScoutEngine
import ScoutJSON
import ScoutTestSupport
import ScoutTime
import Testing

// A request's filter JSON and the same filter built in Swift are one value: every filter
// field of every kind in the kind table is translated here and compared with its typed
// condition; the matches of both over the sample records are the same records.

@Suite struct FilterTranslationTests {
    static let today = CallsSample.today
    static let catalog = CallsSample.catalog

    /// Per kind: a JSON filter and the same filter built in Swift, together naming every
    /// filter field of the kind.
    static func cases() throws -> [(kind: String, json: String, swift: RecordFilter)] {
        let t = today
        return [
            ("dog", #"{"breed": ["Lab", "pug"], "size": ["small", "medium"], "sex": "female", "age_years": {"min": 1, "max": 9},"#
                + #" "weight_kg": [8, 12.5], "available": true, "owner_id": "o-1", "owner_experience": {"min": 2}}"#,
             try .dogs(.breed(["Labrador Retriever", "Pug"]), .size([.small, .medium]), .sex(["female"]), .ageYears(.within(1...9), on: t),
                       .weightKg(.anyOf([8, 12.5])), .available, .owner(["o-1"]), .ownerExperience(.atLeast(2)), breeds: catalog.breeds)),
            ("dog", #"{"temperament": {"min": 3, "min_count": 2}, "excitability": {"max": 4}, "experience_needed": {"min_count": 0},"#
                + #" "handler_experience": 3.5, "energy": {"min": 3}, "mental_stimulation": 4, "playfulness": [2, 3], "good_with_dogs": {"min": 4},"#
                + #" "openness": {"max": 5}, "trainability": {"min": 1}, "adaptability": 3, "affectionate": {"min": 2},"#
                + #" "good_with_children": {"min": 3}, "barking": {"max": 3}, "shedding": {"max": 4}}"#,
             try .dogs(.review(.temperament, ReviewMatch(means: 3...5, minCount: 2)), .review(.excitability, ReviewMatch(means: 1...4)),
                       .review(.experienceNeeded, ReviewMatch(minCount: 0)), .handlerExperience(3.5), .trait(.energy, atLeast: 3),
                       .trait(.mentalStimulation, .exactly(4)), .trait(.playfulness, .anyOf([2, 3])), .goodWithDogs(atLeast: 4),
                       .trait(.openness, .atMost(5)), .trait(.trainability, atLeast: 1), .trait(.adaptability, .exactly(3)),
                       .trait(.affectionate, atLeast: 2), .trait(.goodWithChildren, atLeast: 3), .trait(.barking, .atMost(3)),
                       .trait(.shedding, .atMost(4)))),
            ("gym", #"{"type": ["gym", "yoga"], "open_at": "2026-11-21T18:30:00Z", "votes_up": {"min": 3}, "rating": {"min": 0.5}}"#,
             .gyms(.type(["gym", "yoga"]), .openAt(try Instant.parse("2026-11-21T18:30:00Z", path: "")), .votesUp(.atLeast(3)), .rating(atLeast: 0.5))),
            ("shelter", #"{"type": "rescue", "animal": {"species": "koty", "age_years": {"max": 2}, "adoptable": true, "marks": "Biała"}}"#,
             .shelters(.type(["rescue"]), .animal([.species(["cat"]), .ageYears(.atMost(2)), .adoptable, .marksContain("biala")]))),
            ("animal", #"{"shelter_id": ["s-1", "s-2"], "species": ["pies", "guinea pig"], "size": "large", "sex": ["unknown"],"#
                + #" "age_years": 3, "adoptable": false, "marks": true}"#,
             .animals(.shelter(["s-1", "s-2"]), .species(["dog", "guinea_pig"]), .size(["large"]), .sex(["unknown"]), .ageYears(.exactly(3)),
                      .adoptable(false), .hasMarks(true))),
            ("article", #"{"species": "cat", "urgency": ["emergency", "call_vet"], "rating": {"min": 0.2}}"#,
             .articles(.species(["cat"]), .urgency(["emergency", "call_vet"]), .rating(.atLeast(0.2)))),
            ("program", #"{"goal": "strength", "level": ["beginner"], "weeks": {"max": 8}, "days_per_week": [3, 4], "author": "u-7","#
                + #" "rating": {"min": 0.1}, "votes_up": {"min": 1}}"#,
             .programs(.goal(["strength"]), .level(["beginner"]), .weeks(atMost: 8), .daysPerWeek(.anyOf([3, 4])), .author(["u-7"]),
                       .rating(atLeast: 0.1), .votesUp(.atLeast(1)))),
            ("lover", #"{"experience": {"min": 3}, "activity_level": [4, 5], "vetted": true, "other_pets": ["psy"],"#
                + #" "reliability": {"min": 4}, "care": {"min_count": 2}, "country": "IE"}"#,
             .lovers(.experience(.atLeast(3)), .activityLevel(.anyOf([4, 5])), .vetted, .otherPets(["dog"]), .reliability(ReviewMatch(means: 4...5)),
                     .care(ReviewMatch(minCount: 2)), .country(["IE"]))),
            ("pet", #"{"species": ["pies", "kot"], "owner": ["u1", "u2"]}"#, .pets(.species(["dog", "cat"]), .owner(["u1", "u2"]))),
            ("care", #"{"pet_id": ["pet-1", "pet-2", "pet-3"], "type": ["walk", "feeding"], "start": {"from": "2026-11-15T00:00:00Z","#
                + #" "to": "2026-11-20T12:00:00Z"}, "logged_by": "u1", "verdict": ["enjoyed", "neutral"], "owner": "u2"}"#,
             .careEntries(.pet(["pet-1", "pet-2", "pet-3"]), .type(["walk", "feeding"]),
                          .start(try Instant.parse("2026-11-15T00:00:00Z", path: "").seconds ... Instant.parse("2026-11-20T12:00:00Z", path: "").seconds),
                          .loggedBy(["u1"]), .verdict(["enjoyed", "neutral"]), .petOwner(["u2"]))),
            ("list", #"{"owner": "u1", "item_kind": ["animal"]}"#, .lists(.owner(["u1"]), .itemKind(["animal"]))),
        ]
    }

    @Test func everyFilterFieldTranslatesToItsTypedCondition() throws {
        var named: [String: Set<String>] = [:]
        for (kind, text, swift) in try Self.cases() {
            let json = try JSONReader.parse(text)
            let parsed = try RecordFilter.parse(json, kind: kind, today: Self.today, breeds: Self.catalog.breeds, species: Self.catalog.species)
            #expect(parsed == swift, "\(kind) \(text)")
            #expect(parsed.hashValue == swift.hashValue && parsed.keys == swift.keys && parsed.ranges == swift.ranges, "\(kind)")
            named[kind, default: []].formUnion(json.members!.map(\.0))
            // Each field alone is one condition of the whole.
            for (key, value) in json.members! {
                let one = try RecordFilter.parse(.object([(key, value)]), kind: kind, today: Self.today, breeds: Self.catalog.breeds,
                                                 species: Self.catalog.species)
                #expect(one.conditions.count == 1 && swift.conditions.contains(one.conditions[0]), "\(kind).\(key)")
            }
        }
        // Every typed kind's every filter field (the kind table's) is among them.
        for kind in Catalog.typedKinds {
            let fields = try #require(RecordFilter.fields(kind: kind))
            #expect(Set(fields) == named[kind], "\(kind)")
        }
    }

    /// Over the sample records of every kind, one condition at a time (most select some
    /// records and leave others), the JSON filter and the Swift filter select the same records.
    @Test func bothSelectTheSameSampleRecords() throws {
        var selective: [String: Int] = [:]
        let gyms = Engine(catalog: Self.catalog)
        try gyms.load(path: "\(Repository.data)/sample/gyms.jsonl")
        // The users' own kinds have no sample file: a random world of them, every pet and
        // list made public so that a listing without a user sees them all.
        let own = try AccessTests.engine(AccessTests.world(seed: 1).map { r in
            var r = r
            if r.kind == .pet || r.kind == .list {
                // Those it was shared with become owners (they logged some of its care).
                let readers = r.fields.filter { $0.0 == "owners" || $0.0 == "shared_with" }.flatMap { $0.1.array ?? [] }
                r.fields = r.fields.filter { !["owners", "visibility", "shared_with"].contains($0.0) }
                    + [("owners", .array(readers)), ("visibility", .string("public"))]
            }
            return r
        })
        for (kind, text, swift) in try Self.cases() {
            let e = kind == "gym" ? gyms : ["pet", "care", "list"].contains(kind) ? own : CallsSample.engine
            let total = try #require(e.stats().first { $0.kind == kind }).count
            let json = try JSONReader.parse(text)
            for (key, value) in json.members! {
                let one = try RecordFilter.parse(.object([(key, value)]), kind: kind, today: Self.today, breeds: Self.catalog.breeds,
                                                 species: Self.catalog.species)
                let typed = RecordFilter(swift.conditions.filter { $0 == one.conditions[0] })
                let a = try e.search(SearchQuery(kind: RecordKind(kind), area: nil, limit: 100_000, filter: one)).hits.map(\.id)
                let b = try e.search(SearchQuery(kind: RecordKind(kind), area: nil, limit: 100_000, filter: typed)).hits.map(\.id)
                #expect(a == b, "\(kind).\(key)")
                selective[kind, default: 0] += a.isEmpty || a.count == total ? 0 : 1
            }
        }
        // Most conditions keep some records and leave others (the comparison means something).
        for kind in Catalog.typedKinds { #expect(selective[kind, default: 0] >= 2, "\(kind): \(selective[kind, default: 0])") }
    }

    /// Equality ignores the order of conditions; a condition's values decide it.
    @Test func conditionsInAnyOrderAreOneFilter() {
        let a = RecordFilter.gyms(.type(["gym"]), .votesUp(.atLeast(3)))
        let b = RecordFilter.gyms(.votesUp(.atLeast(3)), .type(["gym"]))
        #expect(a == b && a.hashValue == b.hashValue)
        #expect(a != RecordFilter.gyms(.votesUp(.atLeast(4)), .type(["gym"])))
        #expect(a != RecordFilter.gyms(.type(["gym"])))
        #expect(RecordFilter.gyms(.type(["gym"]), .type(["gym"])) != RecordFilter.gyms(.type(["gym"]), .votesUp(.atLeast(3))))
        #expect(RecordFilter([]) == .all)
    }
}
