import Foundation
import PropertyBased
import ScoutCatalog
import ScoutCore
import ScoutJSON
import ScoutRecommend
import ScoutRecommendJSON
import ScoutSchedule
import ScoutTestSupport
import ScoutTime
import Testing

/// Any pet: species without a profile get generic needs and say so, never a dog's;
/// care-log entries count toward the week; care goals against an oracle that counts entries
/// per local day with Foundation's `Calendar` and reads the goals from `data/weights.json`
/// with `JSONSerialization`.
@Suite struct AnyPetRecommendTests {
    // MARK: Species words

    /// The rule of docs/protocol.md, written out: 1–32 bytes of a-z and _.
    static func isSpeciesWord(_ s: String) -> Bool {
        let b = Array(s.utf8)
        return (1...32).contains(b.count) && b.allSatisfy { (UInt8(ascii: "a")...UInt8(ascii: "z")).contains($0) || $0 == UInt8(ascii: "_") }
    }

    @Test func speciesWordsFollowTheRule() async {
        let alphabet = Array("abcxyz_AZ09 -żé.".unicodeScalars).map(String.init)
        await propertyCheck(count: 300, input: Gen.int(in: 0...Int(Int32.max))) { seed in
            var rng = SplitMix64(seed: seed)
            let length = rng.chance(0.1) ? rng.int(30...40) : rng.int(0...8)
            let word = (0..<length).map { _ in rng.chance(0.85) ? rng.pick(Array(alphabet[0..<7])) : rng.pick(alphabet) }.joined()
            let s = Species(rawValue: word)
            #expect((s != nil) == Self.isSpeciesWord(word), "\(word.debugDescription)")
            if let s {
                #expect(s.rawValue == word)
                #expect(s.isKnown == ["dog", "cat", "rabbit", "guinea_pig", "bird"].contains(word))
            }
        }
    }

    @Test func knownWordsAreTheKnownSpecies() {
        #expect(Species(rawValue: "dog") == .dog)
        #expect(Species(rawValue: "guinea_pig") == .guineaPig)
        #expect(Species.known.map(\.rawValue) == ["dog", "cat", "rabbit", "guinea_pig", "bird"])
        #expect(Species.known.allSatisfy { $0.isKnown })
        for w in ["ferret", "horse", "fish", "reptile", "hamster", "other", "bearded_dragon", String(repeating: "a", count: 32)] {
            let s = Species(rawValue: w)
            #expect(s != nil && s?.isKnown == false, "\(w)")
            #expect(s != .dog)
        }
    }

    @Test(arguments: [
        ("ferret", "ferrets"), ("horse", "horses"), ("fish", "fish"), ("goldfish", "goldfish"), ("canary", "canaries"),
        ("bearded_dragon", "bearded dragons"), ("tortoise", "tortoises"), ("mouse", "mice"), ("box_turtle", "box turtles"),
        ("other", "pets of this kind"),
    ])
    func genericNotesNameTheSpecies(_ word: String, _ plural: String) throws {
        let s = try #require(Species(rawValue: word))
        #expect(s.pluralNoun == plural)
        #expect(s.genericNote == "Scout has no profile for \(plural) yet: general needs used")
    }

    /// Bad species words are `invalid_request` at the path; a pet's profile never falls back to a dog.
    @Test(arguments: ["Ferret", "DOG", "ferret2", "", "guinea pig", "żółw", String(repeating: "x", count: 33), "dog!"])
    func badSpeciesWordsAreRefusedWithThePath(_ word: String) throws {
        let text = String(decoding: try JSONSerialization.data(withJSONObject: ["species": word, "birth_date": "2020-01-01"]), as: UTF8.self)
        let pet = try JSONReader.parse(text)
        let e = #expect(throws: ScoutError.self) { try PetProfile.read(pet, breeds: Fixture.breeds, path: "pet") }
        #expect(e?.code == .invalidRequest)
        #expect(e?.path == "pet.species")
        #expect(word.isEmpty || e?.message.contains(word) == false, "the word is not repeated: \(String(describing: e))")
    }

    @Test func aSpeciesOtherThanAStringIsRefused() throws {
        let pet = try JSONReader.parse(#"{"species":7,"birth_date":"2020-01-01"}"#)
        #expect(throws: ScoutError.self) { try PetProfile.read(pet, breeds: Fixture.breeds, path: "pet") }
    }

    // MARK: Generic needs

    /// `other` in weights.json, read by hand.
    static var otherGoals: [Double] {
        let t = Fixture.spec.speciesGoals["other"]!
        return [t["physical_minutes"]!, t["mental_sessions"]!, t["social_minutes"]!, t["training_sessions"]!, t["care_sessions"]!, t["rest_sessions"]!]
    }

    @Test(arguments: ["ferret", "horse", "fish", "other"])
    func unknownSpeciesGetGenericNeedsAndSaySo(_ word: String) throws {
        let json = try JSONReader.parse(#"{"name":"Pip","species":"\#(word)","breed":"Labrador Retriever","birth_date":"2025-12-01","weight_kg":30}"#)
        let pet = try PetProfile.read(json, breeds: Fixture.breeds, path: "pet")
        #expect(pet.species.rawValue == word)
        #expect(pet.breed == nil, "a breed is a dog's: never read for a \(word)")
        #expect(pet.sizeClass == nil)
        for years in [0.05, 0.5, 3.0, 30.0] {
            var s = Situation.at(.dublin, 2026, 6, 10, 14, species: pet.species, breed: nil, years: years, sky: Sky(temperatureC: 16))
            s.weightKg = 30
            let needs = PetNeeds(pet: s.pet, on: s.context.localDate, weights: Fixture.recommender.weights)
            #expect(needs.isGeneric)
            #expect(needs.species == pet.species)
            #expect(needs.lifeStage.rawValue == NeedsOracle(s).stage)
            #expect(needs.lifeStage == .adult, "generic life stages: never a puppy or a senior (puppy until 0, senior from 100)")
            #expect(needs.weightStatus == .unknown)
            #expect(needs.goals == Self.otherGoals)
            #expect(needs.targetIntensity == 3)
            // The shipped catalogue has activities written for any animal (`other`): only those are offered.
            let answer = Fixture.recommender.recommendActivities(s.request(count: 3))
            #expect(answer.recommendations.count == 3)
            #expect(answer.recommendations.allSatisfy { Self.anyPetIDs.contains($0.activity.id) }, "\(answer.ids)")
            #expect(answer.notes == [try #require(pet.species.genericNote), "only activities written for any kind of pet are offered"])
            // A catalogue without them offers nothing, and says why.
            let none = Self.withoutGeneric.recommendActivities(s.request(count: 3))
            #expect(none.recommendations.isEmpty && none.excluded.isEmpty && none.nextWindow == nil)
            #expect(none.notes == [try #require(pet.species.genericNote), "the activity catalogue has no activities for \(pet.species.pluralNoun) yet"])
        }
        // A dog of the same profile is a dog: its own needs, no notes.
        let dog = Situation.at(.dublin, 2026, 6, 10, 14, sky: Sky(temperatureC: 16))
        #expect(Fixture.recommender.recommendActivities(dog.request()).notes.isEmpty)
        #expect(!PetNeeds(pet: dog.pet, on: dog.context.localDate, weights: Fixture.recommender.weights).isGeneric)
    }

    /// Ids of the shipped catalogue's activities for any animal (`other`), read with JSONSerialization.
    static let anyPetIDs = Set(Fixture.spec.activities(for: "other").map(\.id))

    /// The shipped catalogue with `other` taken out of every activity's species (an activity
    /// left with none is dropped), then `extra` appended.
    static func catalogueWithoutGeneric(plus extra: [[String: Any]] = []) -> ActivityCatalog {
        var doc = try! JSONSerialization.jsonObject(with: FileManager.default.contents(atPath: Repository.data + "/activities.json")!) as! [String: Any]
        var acts: [[String: Any]] = []
        for var a in doc["activities"] as! [[String: Any]] {
            let species = (a["species"] as! [String]).filter { $0 != "other" }
            if species.isEmpty { continue }
            a["species"] = species
            acts.append(a)
        }
        doc["activities"] = acts + extra
        let data = try! JSONSerialization.data(withJSONObject: doc)
        return try! ActivityCatalog.parse(try! JSONReader.parse(Array(data)))
    }

    /// A recommender whose catalogue has no activity for species without a profile.
    static let withoutGeneric = Recommender(catalog: catalogueWithoutGeneric(), weights: Fixture.recommender.weights, breeds: Fixture.breeds, prior: Fixture.recommender.prior)

    /// The catalogue with exactly one activity for every species without a profile (`other`).
    static let catalogueWithGeneric: ActivityCatalog = {
        catalogueWithoutGeneric(plus: [[
            "id": "look_over", "name": "Look your pet over", "species": ["other"], "category": "care", "setting": "indoor",
            "intensity": 1, "minutes": 5, "needs_daylight": false, "temperature_c": ["min": -50, "max": 50], "rain": "any",
            "max_wind_kmh": 200, "ages": ["puppy", "adult", "senior"], "place": NSNull(), "away_ok": true,
            "how": "Watch your pet eat, move and breathe for a few minutes.", "benefits": ["catches illness early"],
        ]])
    }()

    @Test func activitiesForOtherAreOfferedOnlyToSpeciesWithoutAProfile() throws {
        let r = Recommender(catalog: Self.catalogueWithGeneric, weights: Fixture.recommender.weights, breeds: Fixture.breeds, prior: Fixture.recommender.prior)
        let lookOver = try #require(r.catalog.index(of: "look_over"))
        for word in ["ferret", "horse", "fish", "other"] {
            let s = Situation.at(.dublin, 2026, 6, 10, 14, species: Species(rawValue: word)!, breed: nil, sky: Sky(temperatureC: 16))
            #expect(r.catalog.indices(for: s.species) == [lookOver])
            let answer = r.recommendActivities(s.request(count: 2))
            let rec = try #require(answer.recommendations.first)
            #expect(rec.activity.id == "look_over")
            #expect(rec.reasons.first == s.species.genericNote, "the first reason says generic needs were used")
            #expect(answer.notes == [s.species.genericNote!, "only activities written for any kind of pet are offered"])
        }
        for known in Species.known {
            #expect(!r.catalog.indices(for: known).contains(lookOver), "\(known)")
            #expect(r.catalog.activities(for: known).map(\.id) == Fixture.recommender.catalog.activities(for: known).map(\.id))
        }
    }

    /// The shipped activities for any animal: at least five (scripts/check_activities.py), the
    /// same set for every species without a profile, none of them for the five species.
    @Test func theShippedCatalogueHasActivitiesForAnyAnimal() throws {
        #expect(Self.anyPetIDs.count >= 5)
        for word in ["ferret", "horse", "fish", "tortoise", "parrot", "other"] {
            let ids = Fixture.recommender.catalog.activities(for: try #require(Species(rawValue: word))).map(\.id)
            #expect(Set(ids) == Self.anyPetIDs, "\(word)")
        }
        for known in Species.known {
            let ids = Fixture.recommender.catalog.activities(for: known).map(\.id)
            #expect(ids.allSatisfy { Fixture.spec.byID[$0]!.species.contains(known.rawValue) }, "\(known)")
            #expect(Set(ids).isDisjoint(with: Self.anyPetIDs.filter { !Fixture.spec.byID[$0]!.species.contains(known.rawValue) }), "\(known)")
        }
        // The version the answers name is the file's.
        let file = try JSONSerialization.jsonObject(with: FileManager.default.contents(atPath: Repository.data + "/activities.json")!) as! [String: Any]
        #expect(Fixture.recommender.catalog.version == file["version"] as? String)
    }

    /// A ferret (horse, fish, tortoise, parrot…) gets the activities written for any animal,
    /// each with "Scout has no profile for ferrets yet: general needs used" as its first
    /// reason; a dog (or a cat, rabbit, guinea pig, bird) never gets one. 2,000 situations of
    /// the safety sweep, each run for its own species and again for a species without a
    /// profile, both judged by ``RuleOracle`` (the eligible set, exclusions, next windows).
    @Test func aFerretGetsActivitiesForAnyAnimalAndADogNever() {
        let words = ["ferret", "horse", "fish", "tortoise", "parrot", "bearded_dragon", "other"]
        let anyPet = Fixture.spec.activities(for: "other").map(\.id)
        var log = FailureLog(limit: 8)
        var own = SafetySweepTests.Stats(), generic = SafetySweepTests.Stats()
        var dogs = 0
        for i in 0..<2_000 {
            let seed = 7_000_000 + i
            var c = SafetySweepTests.make(seed: seed)
            // Its own species: only its own activities, never one written for any animal alone.
            let species = c.situation.species
            if species == .dog { dogs += 1 }
            let mine = Fixture.recommender.recommendActivities(c.request)
            SafetySweepTests.check(c, mine, seed: seed, oracle: RuleOracle(c.situation), log: &log, stats: &own)
            let seen = mine.ids + mine.excluded.map(\.activity.id) + (mine.nextWindow?.recommendations.map(\.activity.id) ?? [])
            for id in seen {
                log.check(Fixture.spec.byID[id]!.species.contains(species.rawValue), "seed \(seed): a \(species) got \(id)")
            }
            log.check(mine.notes.isEmpty, "seed \(seed): notes for a \(species): \(mine.notes)")
            log.check(mine.recommendations.allSatisfy { $0.reasons.first?.contains("general needs") == false }, "seed \(seed): generic reasons for a \(species)")

            // The same situation for a species without a profile, its log and feedback on its own activities.
            var rng = SplitMix64(seed: UInt64(seed))
            c.situation.species = Species(rawValue: rng.pick(words))!
            c.situation.breed = nil
            c.log = c.log.enumerated().map { LogEntry(activity: anyPet[$0.offset % anyPet.count], start: $0.element.start, minutes: $0.element.minutes) }
            c.feedback = c.feedback.enumerated().map { Feedback(activity: anyPet[$0.offset % anyPet.count], rating: $0.element.rating!, at: $0.element.at) }
            let answer = Fixture.recommender.recommendActivities(c.request)
            SafetySweepTests.check(c, answer, seed: seed, oracle: RuleOracle(c.situation), log: &log, stats: &generic)
            let note = c.situation.species.genericNote!
            log.check(answer.notes == [note, "only activities written for any kind of pet are offered"], "seed \(seed): notes \(answer.notes)")
            for rec in answer.recommendations + (answer.nextWindow?.recommendations ?? []) {
                log.check(Self.anyPetIDs.contains(rec.activity.id), "seed \(seed): a \(c.situation.species) got \(rec.activity.id)")
                log.check(rec.reasons.first == note, "seed \(seed): first reason \(rec.reasons.first ?? "none")")
                log.check(rec.reasons.dropFirst().allSatisfy { $0 != note }, "seed \(seed): the note twice")
            }
            for e in answer.excluded {
                log.check(Self.anyPetIDs.contains(e.activity.id), "seed \(seed): a \(c.situation.species) had \(e.activity.id) excluded")
            }
            if log.full { break }
        }
        if !log.isEmpty { Issue.record("\(log.summary)") }
        #expect(dogs > 1_500 && own.species.count == 4, "dogs and the four other species with a profile")
        // Species without a profile are served: nearly always while awake, else at the next window.
        #expect(generic.contexts == 2_000 || !log.isEmpty)
        #expect(Double(generic.wakingWithRecommendation) > 0.8 * Double(generic.wakingContexts),
                "\(generic.wakingWithRecommendation) of \(generic.wakingContexts) waking contexts")
        #expect(generic.nextWindows > 100, "\(generic.nextWindows) next windows")
        #expect(generic.outdoorRecommendations == 0, "activities for any animal are done where the pet lives")
    }

    @Test func theCatalogueRefusesSpeciesWithoutAProfileByName() throws {
        var doc = try JSONSerialization.jsonObject(with: FileManager.default.contents(atPath: Repository.data + "/activities.json")!) as! [String: Any]
        var acts = doc["activities"] as! [[String: Any]]
        acts[3]["species"] = ["dog", "ferret"]
        doc["activities"] = acts
        let json = try JSONReader.parse(Array(try JSONSerialization.data(withJSONObject: doc)))
        let e = #expect(throws: ScoutError.self) { try ActivityCatalog.parse(json) }
        #expect(e?.path == "activities[3].species[1]")
    }

    // MARK: Care entries in the week's categories

    @Test func careEntriesCountTowardTheirCategory() {
        var s = Situation.at(.dublin, 2026, 6, 10, 14, breed: "Border Collie", sky: Sky(temperatureC: 16))
        s.useZone = true
        let t = s.now
        let log = [
            LogEntry(type: .care(.walk), start: Instant(seconds: t - 3600), minutes: 40),
            LogEntry(type: .care(.walk), start: Instant(seconds: t - 86_400), minutes: 25),
            LogEntry(type: .care(.grooming), start: Instant(seconds: t - 7200)),
            LogEntry(type: .care(.feeding), start: Instant(seconds: t - 600), minutes: 10),
            LogEntry(type: .care(.vetVisit), start: Instant(seconds: t - 5 * 86_400), minutes: 60),
            LogEntry(type: .care(.walk), start: Instant(seconds: t - 8 * 86_400), minutes: 90),   // last week
            LogEntry(type: .care(.walk), start: Instant(seconds: t + 600), minutes: 90),          // not yet
            LogEntry(activity: "fetch", start: Instant(seconds: t - 4000), minutes: 20),
        ]
        let answer = s.all(log: log)
        let oracle = NeedsOracle(s)
        #expect(oracle.done(log) == [85, 0, 0, 0, 1, 0], "walks are exercise minutes, grooming a care session")
        for (a, b) in zip(answer.gaps, oracle.gaps(log)) { #expect(abs(a - b) < 1e-12) }
    }

    // MARK: Care goals

    /// A care goal as the oracle reads it from weights.json.
    struct GoalSpec {
        var name: String
        var perDay: Bool
        var atLeast: Int
        var atMost: Int?
        var counts: Set<String>
    }

    /// `care_log.goals` of a species in file order (JSONSerialization does not keep key order:
    /// the order is taken from the file's text), with the pet's overrides applied.
    static func goalSpecs(species: String, stage: String, longCoat: Bool) -> [GoalSpec] {
        let url = URL(fileURLWithPath: Repository.data + "/weights.json")
        let text = try! String(contentsOf: url, encoding: .utf8)
        let w = try! JSONSerialization.jsonObject(with: Data(text.utf8)) as! [String: Any]
        let goals = ((w["care_log"] as! [String: Any])["goals"] as! [String: Any])
        guard let mine = goals[Spec.key(species)] as? [String: Any] else { return [] }
        let names = mine.keys.sorted { text.range(of: "\"\($0)\": {\"per\"")!.lowerBound < text.range(of: "\"\($1)\": {\"per\"")!.lowerBound }
        return names.map { name in
            let g = mine[name] as! [String: Any]
            var range = g
            if stage == "puppy", let o = g["puppy"] as? [String: Any] { range = o }
            if stage == "senior", let o = g["senior"] as? [String: Any] { range = o }
            if longCoat, let o = g["long_coat"] as? [String: Any] { range = o }
            return GoalSpec(name: name, perDay: g["per"] as! String == "day", atLeast: (range["at_least"] as! NSNumber).intValue,
                            atMost: (range["at_most"] as? NSNumber)?.intValue, counts: Set(g["counts"] as! [String]))
        }
    }

    struct GoalExpectation: Equatable {
        var name: String
        var atLeast: Int, atMost: Int?
        var days: [Int]
        var judged: Int
        var done: Int, missing: Int, extra: Int, met: Int
    }

    /// The care goals by hand: each entry's local day from Foundation's calendar in the zone;
    /// days judged are those whose date is on or before `now`'s local date.
    static func expectedGoals(_ s: Situation, log: [LogEntry], start: Int64, end: Int64, now: Int64?) -> [GoalExpectation] {
        var cal = Calendar(identifier: .gregorian)
        cal.timeZone = TimeZone(identifier: s.place.zone)!
        func day(_ t: Int64) -> Date { cal.startOfDay(for: Date(timeIntervalSince1970: Double(t))) }
        func days(_ a: Date, _ b: Date) -> Int { cal.dateComponents([.day], from: a, to: b).day! }
        let first = day(start)
        let count = days(first, day(end - 1)) + 1
        let judged = now.map { $0 < start ? 0 : min(count, days(first, day($0)) + 1) } ?? count
        var at = s
        at.now = start
        let stage = NeedsOracle(at).stage
        let longCoat = s.species == .dog && s.breed.map { !$0.isMixed && $0.coatLength == "Long" } == true
        return goalSpecs(species: s.species.rawValue, stage: stage, longCoat: longCoat).map { g in
            var perDay = [Int](repeating: 0, count: count)
            var done = 0
            for e in log where e.start.seconds >= start && e.start.seconds < end && g.counts.contains(e.type.word) {
                done += 1
                perDay[days(first, day(e.start.seconds))] += 1
            }
            var missing = 0, extra = 0, met = 0
            if g.perDay {
                for n in perDay.prefix(judged) {
                    missing += max(0, g.atLeast - n)
                    extra += g.atMost.map { max(0, n - $0) } ?? 0
                    if n >= g.atLeast && n <= (g.atMost ?? .max) { met += 1 }
                }
                return GoalExpectation(name: g.name, atLeast: g.atLeast, atMost: g.atMost, days: perDay, judged: judged, done: done,
                                       missing: missing, extra: extra, met: met)
            }
            let weekJudged = now.map { $0 >= start } ?? true
            if weekJudged {
                missing = max(0, g.atLeast - done)
                extra = g.atMost.map { max(0, done - $0) } ?? 0
                met = missing == 0 && extra == 0 ? 1 : 0
            }
            return GoalExpectation(name: g.name, atLeast: g.atLeast, atMost: g.atMost, days: [], judged: weekJudged ? 1 : 0, done: done,
                                   missing: missing, extra: extra, met: met)
        }
    }

    static func actual(_ p: WeeklyProgress) -> [GoalExpectation] {
        p.careGoals.map {
            GoalExpectation(name: $0.rule.name, atLeast: $0.expected.atLeast, atMost: $0.expected.atMost, days: $0.days.map(\.done),
                            judged: $0.judged, done: $0.done, missing: $0.missing, extra: $0.extra, met: $0.periodsMet)
        }
    }

    /// A random log around a week: every care type, the activities the species' goals count
    /// and others, at random instants and at the edges (the week's ends, local midnights ± 1 s).
    static func randomLog(_ rng: inout SplitMix64, _ s: Situation, start: Int64, end: Int64) -> [LogEntry] {
        var cal = Calendar(identifier: .gregorian)
        cal.timeZone = TimeZone(identifier: s.place.zone)!
        var midnights: [Int64] = []
        var d = Date(timeIntervalSince1970: Double(start))
        for _ in 0...7 {
            midnights.append(Int64(cal.startOfDay(for: d).timeIntervalSince1970))
            d = cal.date(byAdding: .day, value: 1, to: cal.startOfDay(for: d))!
        }
        let goalIDs = goalSpecs(species: s.species.rawValue, stage: "adult", longCoat: true).flatMap(\.counts)
            .filter { CareType(rawValue: $0) == nil }
        let ids = Fixture.spec.activities(for: s.species.rawValue).map(\.id) + goalIDs + ["fetch", "cat_brushing"]
        var log: [LogEntry] = []
        for _ in 0..<rng.int(0...60) {
            let type: LogType = rng.chance(0.6) ? .care(rng.pick(CareType.allCases)) : .activity(rng.pick(ids))
            let t: Int64
            switch rng.unit() {
            case ..<0.05: t = start
            case ..<0.1: t = end - 1
            case ..<0.13: t = end
            case ..<0.3: t = rng.pick(midnights) + Int64(rng.int(-1...0))
            default: t = start + rng.int64(-2 * 86_400...(9 * 86_400))
            }
            log.append(LogEntry(type: type, start: Instant(seconds: t, utcOffsetSeconds: 3600), minutes: Double(rng.int(0...90))))
        }
        return log
    }

    @Test func careGoalsMatchCountsPerLocalDay() async {
        await propertyCheck(count: 150, input: Gen.int(in: 0...Int(Int32.max))) { seed in
            var rng = SplitMix64(seed: seed)
            var s = SafetySweepTests.make(seed: rng.int(0...1_000_000)).situation
            s.useZone = true
            if rng.chance(0.3) { s.species = .dog; s.breed = rng.pick(Fixture.breeds.breeds.filter { $0.coatLength == "Long" }) }
            if rng.chance(0.15) { s.species = Species(rawValue: rng.pick(["ferret", "horse", "fish"]))!; s.breed = nil }
            // A week of local days from a local midnight near the case's date (DST weeks included).
            let d = LocalDate(daysSinceEpoch: RuleOracle.floorDiv(s.now + Int64(s.nowOffset), 86_400))
            let start = Clock.instant(s.place.zone, d.year, d.month, d.day, 0)
            let e7 = d.adding(days: 7)
            let end = Clock.instant(s.place.zone, e7.year, e7.month, e7.day, 0)
            let log = Self.randomLog(&rng, s, start: start.seconds, end: end.seconds)
            let now: Int64? = rng.chance(0.2) ? nil : start.seconds + rng.int64(-86_400...(8 * 86_400))
            let zone = try! Zone(identifier: s.place.zone, path: "zone")
            let p = Fixture.recommender.progress(pet: s.pet, log: log, from: start, to: end, zone: zone, now: now.map { Instant(seconds: $0) })
            let expected = Self.expectedGoals(s, log: log, start: start.seconds, end: end.seconds, now: now)
            #expect(Self.actual(p) == expected, "\(s.summary) now \(String(describing: now))")
            #expect(p.careGoals.allSatisfy { $0.met == ($0.missing == 0 && $0.extra == 0) })
            // Care entries per type in the week.
            for t in CareType.allCases {
                let n = log.filter { $0.type == .care(t) && $0.start.seconds >= start.seconds && $0.start.seconds < end.seconds }.count
                #expect(p.careLog[t] == n, "\(t)")
            }
            // Notes: generic needs, and no care goals when the species has none.
            #expect(p.notes.contains { $0.contains("general needs used") } == !s.species.isKnown)
            #expect(p.notes.contains { $0.hasPrefix("Scout has no care goals for") } == expected.isEmpty)
            #expect(expected.isEmpty == !s.species.isKnown, "the five species have care goals, the others none")
        }
    }

    /// The oracle can fail: a log shifted by a day disagrees with it.
    @Test func theCareGoalOracleNoticesAShiftedDay() {
        let s = Situation.at(.dublin, 2026, 6, 8, 9, breed: "Border Collie", sky: Sky(temperatureC: 15))
        let start = Clock.instant("Europe/Dublin", 2026, 6, 8, 0), end = Clock.instant("Europe/Dublin", 2026, 6, 15, 0)
        let log = [LogEntry(type: .care(.feeding), start: Instant(seconds: start.seconds + 3600))]
        let p = Fixture.recommender.progress(pet: s.pet, log: log, from: start, to: end)
        #expect(Self.actual(p) == Self.expectedGoals(s, log: log, start: start.seconds, end: end.seconds, now: nil))
        let shifted = [LogEntry(type: .care(.feeding), start: Instant(seconds: start.seconds + 86_400 + 3600))]
        #expect(Self.actual(p) != Self.expectedGoals(s, log: shifted, start: start.seconds, end: end.seconds, now: nil))
    }

    /// A puppy's meals, a long coat's grooming and the night the clocks go forward, by hand.
    @Test func aPuppyWithALongCoatAcrossTheSpringChange() throws {
        // Dublin: clocks go forward at 01:00 UTC on Sunday 29 March 2026.
        let start = Clock.instant("Europe/Dublin", 2026, 3, 23, 0), end = Clock.instant("Europe/Dublin", 2026, 3, 30, 0)
        var s = Situation.at(.dublin, 2026, 3, 23, 0, breed: "Shih Tzu", years: 0.4, sky: Sky(temperatureC: 10))
        s.useZone = true
        let zone = try Zone(identifier: "Europe/Dublin", path: "zone")
        func at(_ d: Int, _ h: Int, _ m: Int = 0) -> Instant { Clock.instant("Europe/Dublin", 2026, 3, d, h, m) }
        var log: [LogEntry] = []
        for d in 23...28 { for h in [7, 12, 18] { log.append(LogEntry(type: .care(.feeding), start: at(d, h))) } }   // 3 a day Mon–Sat
        log.append(LogEntry(type: .care(.feeding), start: at(28, 23, 59)))     // a 4th on Saturday: still in 3–4
        log.append(LogEntry(type: .care(.feeding), start: at(29, 0, 30)))      // Sunday 00:30 GMT
        log.append(LogEntry(type: .care(.feeding), start: at(29, 2, 30)))      // Sunday 02:30 IST (01:30 UTC)
        log.append(LogEntry(type: .care(.feeding), start: end))                // next week
        log.append(LogEntry(type: .care(.grooming), start: at(24, 19)))
        log.append(LogEntry(activity: "brushing", start: at(26, 19), minutes: 10))
        log.append(LogEntry(activity: "cat_brushing", start: at(27, 19), minutes: 10))   // a cat's: does not count
        let p = Fixture.recommender.progress(pet: s.pet, log: log, from: start, to: end, zone: zone, now: at(29, 20))
        #expect(p.needs.lifeStage == .puppy)
        let meals = try #require(p.careGoals.first { $0.rule.name == "meals" })
        #expect(meals.expected == CareRange(atLeast: 3, atMost: 4))
        #expect(meals.days.map(\.done) == [3, 3, 3, 3, 3, 4, 2])
        #expect(meals.missing == 1 && meals.extra == 0 && meals.periodsMet == 6 && !meals.met)
        let grooming = try #require(p.careGoals.first { $0.rule.name == "grooming" })
        #expect(grooming.expected == CareRange(atLeast: 3), "a long coat: 3 a week")
        #expect(grooming.done == 2 && grooming.missing == 1)
        #expect(p.careGoals.map(\.rule.name) == ["meals", "walks", "grooming"])
        #expect(Self.actual(p) == Self.expectedGoals(s, log: log, start: start.seconds, end: end.seconds, now: at(29, 20).seconds))
        // Mid-week, only the days begun are judged.
        let wednesday = Fixture.recommender.progress(pet: s.pet, log: log, from: start, to: end, zone: zone, now: at(25, 9))
        let m = try #require(wednesday.careGoals.first { $0.rule.name == "meals" })
        #expect(m.judged == 3 && m.missing == 0 && m.days.map(\.judged) == [true, true, true, false, false, false, false])
    }

    // MARK: The care_log section of weights.json

    @Test(arguments: [
        // (replace, with, path of the error, words)
        ("\"counts_toward\": {\"walk\": \"physical\"", "\"counts_toward\": {\"wlak\": \"physical\"", "care_log.counts_toward.wlak", "did you mean \"walk\""),
        ("{\"walk\": \"physical\", \"grooming\": \"care\"}", "{\"walk\": \"cardio\", \"grooming\": \"care\"}", "care_log.counts_toward.walk", "must be one of"),
        ("\"at_least\": 2, \"at_most\": 2, \"puppy\"", "\"at_least\": 2, \"at_most\": 1, \"puppy\"", "care_log.goals.dog.meals.at_most", "below at_least"),
        ("\"cat\": {\n        \"meals\": {\"per\": \"day\", \"at_least\": 2", "\"cat\": {\n        \"meals\": {\"per\": \"month\", \"at_least\": 2",
         "care_log.goals.cat.meals.per", "must be one of"),
        ("\"walks\": {\"per\": \"day\", \"at_least\": 2,", "\"walks\": {\"per\": \"day\", \"at_least\": 0,", "care_log.goals.dog.walks.at_least", "between"),
        ("\"fresh_food\": {\"per\": \"day\", \"at_least\": 1, \"counts\": [\"feeding\"]",
         "\"fresh_food\": {\"per\": \"day\", \"at_least\": 1, \"long_coat\": {\"at_least\": 2}, \"counts\": [\"feeding\"]",
         "care_log.goals.bird.fresh_food.long_coat", "dogs only"),
        ("\"counts\": [\"grooming\", \"brushing\", \"bath\"]", "\"counts\": [\"grooming\", \"Brushing\", \"bath\"]", "care_log.goals.dog.grooming.counts[1]", "care types"),
        ("\"counts\": [\"grooming\", \"brushing\", \"bath\"]", "\"counts\": []", "care_log.goals.dog.grooming.counts", "at least one"),
        ("\"bird\": {\n        \"fresh_food\"", "\"birds\": {\n        \"fresh_food\"", "care_log.goals.birds", "did you mean \"bird\""),
        (",\n    \"other\": {\"puppy_until_years\": 0, \"senior_from_years\": 100}", "", "life_stages.other", "required"),
        ("\"care_log\": {", "\"care_logs\": {\"counts_toward\": {}, \"goals\": {}}, \"x\": {", "care_logs", "did you mean \"care_log\""),
    ])
    func aBadCareLogEntryFailsTheLoadWithItsPath(_ find: String, _ replacement: String, _ path: String, _ words: String) throws {
        let text = WeightsValidationTests.text
        #expect(text.contains(find), "fixture text not found: \(find)")
        let e = try #require(WeightsValidationTests.load(text.replacingOccurrences(of: find, with: replacement)))
        #expect(e.path == path, "\(e)")
        #expect(e.message.contains(words), "\(e)")
    }

    @Test(arguments: [
        ("\"brisk_walk\", \"senior_stroll\"", "\"brisk_wlak\", \"senior_stroll\"", "care_log.goals.dog.walks.counts[1]", "did you mean \"brisk_walk\""),
        ("[\"grooming\", \"brushing\", \"bath\"]", "[\"grooming\", \"cat_brushing\", \"bath\"]", "care_log.goals.dog.grooming.counts[1]", "not for dogs"),
    ])
    func careGoalsNameActivitiesOfTheCatalogueForTheSpecies(_ find: String, _ replacement: String, _ path: String, _ words: String) throws {
        let text = WeightsValidationTests.text
        #expect(text.contains(find))
        let w = try RecommenderWeights.parse(try JSONReader.parse(text.replacingOccurrences(of: find, with: replacement)))
        let e = #expect(throws: ScoutError.self) { try w.checkCareGoals(against: Fixture.recommender.catalog) }
        #expect(e?.path == path, "\(String(describing: e))")
        #expect(e?.message.contains(words) == true, "\(String(describing: e))")
        #expect(e?.code == .parseError)
        // The shipped file passes.
        try Fixture.recommender.weights.checkCareGoals(against: Fixture.recommender.catalog)
    }

    @Test func theShippedCareLogIsTyped() {
        let w = Fixture.recommender.weights
        #expect(w.careLogCategories == [.walk: .physical, .grooming: .care])
        #expect(Set(w.careGoals.keys) == Set(Species.known), "every species with a profile has care goals; species without one have none")
        #expect(w.careGoalRules(of: Species(rawValue: "ferret")!).isEmpty)
        #expect(w.careGoalRules(of: .dog).map(\.name) == ["meals", "walks", "grooming"])
        let meals = w.careGoalRules(of: .dog)[0]
        #expect(meals.expected(lifeStage: .adult, longCoat: false) == CareRange(atLeast: 2, atMost: 2))
        #expect(meals.expected(lifeStage: .puppy, longCoat: false) == CareRange(atLeast: 3, atMost: 4))
        #expect(w.careGoalRules(of: .cat)[0].expected(lifeStage: .adult, longCoat: false) == CareRange(atLeast: 2, atMost: 4))
    }
}
