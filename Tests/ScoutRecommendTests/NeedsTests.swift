import Foundation
import ScoutCatalog
import ScoutRecommend
import ScoutTestSupport
import ScoutTime
import Testing

/// Weekly goals, weight status, target intensity and care gaps (docs/recommender.md,
/// "Needs"), computed in the test from the CSV row and the tables of the doc.
@Suite struct NeedsTests {
    /// data/breeds.csv, read here as text: breed name → column → cell.
    static let csv: [String: [String: String]] = {
        let text = try! String(contentsOfFile: Repository.data + "/breeds.csv", encoding: .utf8)
        let lines = text.split(separator: "\n").map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
        let header = lines[0]
        var out: [String: [String: String]] = [:]
        for cells in lines.dropFirst() { out[cells[0]] = Dictionary(uniqueKeysWithValues: zip(header, cells)) }
        return out
    }()

    // The tables of docs/recommender.md, "Weekly goals", typed in by hand.
    static let physicalByEnergy: [Double] = [150, 210, 300, 420, 560]
    static let mentalByStimulation: [Double] = [3, 5, 7, 10, 14]
    static let socialBySociability: [Double] = [30, 60, 90, 120, 150]
    static let trainingByTrainability: [Double] = [3, 4, 5, 5, 6]
    static let careByShedding: [Double] = [1, 2, 2, 3, 4]

    /// An adult's goals from a CSV row, by the doc's tables.
    static func adultGoals(_ breed: String) -> [Double] {
        let row = csv[breed]!
        func trait(_ name: String) -> Int { Int(row[name]!)! }
        // "round": halves go up ((5 + 4) / 2 = 4.5 → 5).
        let sociability = (trait("playfulness") + trait("good_with_dogs") + 1) / 2
        var care = careByShedding[trait("shedding") - 1]
        if row["coat_length"] == "Long" { care += 1 }
        return [physicalByEnergy[trait("energy") - 1], mentalByStimulation[trait("mental_stimulation") - 1],
                socialBySociability[sociability - 1], trainingByTrainability[trait("trainability") - 1], care, 3]
    }

    static func needs(_ breed: String?, years: Double, species: Species = .dog, weightKg: Double? = nil,
                      conditions: Set<PetCondition> = []) -> PetNeeds {
        let on = LocalDate(year: 2026, month: 6, day: 15)!
        let birth = LocalDate(daysSinceEpoch: on.daysSinceEpoch - Int64((years * 365.25).rounded()))
        let pet = PetProfile(species: species, breed: species == .dog ? (breed.map(Fixture.breed) ?? Fixture.breeds.mixed) : nil,
                             birthDate: birth, weightKg: weightKg, conditions: conditions)
        return PetNeeds(pet: pet, on: on, weights: Fixture.recommender.weights)
    }

    static func same(_ a: [Double], _ b: [Double]) -> Bool {
        a.count == b.count && zip(a, b).allSatisfy { abs($0 - $1) < 0.051 }   // goals are kept to 0.1
    }

    @Test func borderCollieGoalsByHand() {
        // Border Collie: energy 5, mental stimulation 5, playfulness 5 and good with dogs 3
        // (sociability 4), trainability 5, shedding 3, medium coat.
        #expect(Self.adultGoals("Border Collie") == [560, 14, 120, 6, 2, 3])
        #expect(Self.needs("Border Collie", years: 4).goals == [560, 14, 120, 6, 2, 3])
    }

    @Test(arguments: ["Labrador Retriever", "French Bulldog", "Yorkshire Terrier", "Bulldog", "Shih Tzu", "Great Dane",
                      "Chinese Crested", "Pug", "Beagle", "Poodle", "Mixed"])
    func adultGoalsFollowTheTraits(_ breed: String) {
        let n = Self.needs(breed == "Mixed" ? nil : breed, years: 4)
        #expect(n.lifeStage == .adult)
        #expect(n.goals == Self.adultGoals(breed), "\(breed)")
    }

    @Test func everyBreedRowGetsItsGoals() {
        var log = FailureLog(limit: 5)
        for b in Fixture.breeds.breeds {
            let n = Self.needs(b.isMixed ? nil : b.name, years: 4)
            log.check(n.goals == Self.adultGoals(b.name), "\(b.name): \(n.goals) vs \(Self.adultGoals(b.name))")
        }
        #expect(log.isEmpty, "\(log.summary)")
    }

    @Test func puppiesSeniorsAndOverweightDogs() {
        let adult = Self.adultGoals("Border Collie")
        // Puppy (0.5 years): × 0.6 physical, +5 training, +4 rest.
        let puppy = Self.needs("Border Collie", years: 0.5)
        #expect(puppy.lifeStage == .puppy)
        #expect(Self.same(puppy.goals, [adult[0] * 0.6, adult[1], adult[2], adult[3] + 5, adult[4], adult[5] + 4]))
        // Senior (14 years; 12–16, so from 12): × 0.7 physical, +3 mental, +4 rest.
        let senior = Self.needs("Border Collie", years: 14)
        #expect(senior.lifeStage == .senior)
        #expect(Self.same(senior.goals, [adult[0] * 0.7, adult[1] + 3, adult[2], adult[3], adult[4], adult[5] + 4]))
        // Labrador Retriever, 24.9–36.3 kg: overweight above 1.1 × 36.3 = 39.93 kg.
        let lab = Self.adultGoals("Labrador Retriever")
        let over = Self.needs("Labrador Retriever", years: 4, weightKg: 40.5)
        #expect(over.weightStatus == .over)
        #expect(Self.same(over.goals, [lab[0] * 1.2] + lab.dropFirst()))
        #expect(Self.needs("Labrador Retriever", years: 4, weightKg: 39.5).weightStatus == .healthy)
        #expect(Self.needs("Labrador Retriever", years: 4, weightKg: 21.5).weightStatus == .healthy)   // 0.85 × 24.9 = 21.165
        #expect(Self.needs("Labrador Retriever", years: 4, weightKg: 21).weightStatus == .under)
        #expect(Self.needs("Labrador Retriever", years: 4).weightStatus == .unknown)
        #expect(Self.needs(nil, years: 4, weightKg: 80).weightStatus == .unknown)   // mixed
        // An overweight senior: both factors on physical.
        let overSenior = Self.needs("Labrador Retriever", years: 11, weightKg: 45)
        #expect(overSenior.lifeStage == .senior && overSenior.weightStatus == .over)
        #expect(abs(overSenior.goals[0] - lab[0] * 0.7 * 1.2) < 0.051)
        // Puppies are not overweight, whatever they weigh.
        #expect(Self.needs("Labrador Retriever", years: 0.8, weightKg: 60).weightStatus != .over)
    }

    @Test func otherSpeciesHaveFixedGoals() throws {
        #expect(Self.needs(nil, years: 4, species: .cat).goals == [105, 7, 70, 2, 2, 7])
        let w = try JSONSerialization.jsonObject(with: FileManager.default.contents(atPath: Repository.data + "/weights.json")!) as! [String: Any]
        let goals = w["goals"] as! [String: [String: Any]]
        for species in [Species.rabbit, .guineaPig, .bird] {
            let g = goals[species.rawValue]!
            let expected = ["physical_minutes", "mental_sessions", "social_minutes", "training_sessions", "care_sessions", "rest_sessions"]
                .map { (g[$0] as! NSNumber).doubleValue }
            #expect(Self.needs(nil, years: 2, species: species).goals == expected, "\(species)")
        }
        let seniorCat = Self.needs(nil, years: 12, species: .cat)
        #expect(Self.same(seniorCat.goals, [105 * 0.7, 10, 70, 2, 2, 11]))
    }

    @Test func targetIntensityAndConditionCaps() {
        #expect(Self.needs("Border Collie", years: 4).targetIntensity == 5)
        #expect(Self.needs("Border Collie", years: 14).targetIntensity == 3.5)
        #expect(Self.needs("Border Collie", years: 0.5).targetIntensity == 4)
        #expect(Self.needs("Labrador Retriever", years: 4, weightKg: 45).targetIntensity == 3)
        let heart = Self.needs("Border Collie", years: 4, conditions: [.heartCondition, .arthritis])
        #expect(heart.targetIntensity == 2)
        #expect(heart.maxIntensity.value == 2 && heart.maxIntensity.because == .heartCondition)
        #expect(Self.needs(nil, years: 4, species: .cat).targetIntensity == 3)
        #expect(Self.needs(nil, years: 12, species: .cat).targetIntensity == 1.5)
        #expect(Self.needs("Border Collie", years: 4).maxIntensity.value == 5)
    }

    @Test func careGapsFromTheLog() throws {
        let s = Situation.at(.dublin, 2026, 6, 15, 12, breed: "Labrador Retriever", sky: Sky(temperatureC: 15))
        let now = s.now
        func ago(_ days: Double) -> Instant { Instant(seconds: now - Int64(days * 86_400)) }
        let log = [
            LogEntry(activity: "brisk_walk", start: ago(2), minutes: 45),
            LogEntry(activity: "jog", start: ago(6.99), minutes: 15),              // inside the week
            LogEntry(activity: "fetch", start: ago(7.01), minutes: 15),            // just outside
            LogEntry(activity: "dog_park_visit", start: ago(1), minutes: 30),
            LogEntry(activity: "brushing", start: ago(1), minutes: 10),
            LogEntry(activity: "nail_trim", start: ago(3), minutes: 10),
            LogEntry(activity: "teeth_brushing", start: ago(-1), minutes: 3),      // tomorrow: ignored
            LogEntry(activity: "no_such_activity", start: ago(1), minutes: 60),    // unknown: ignored
            LogEntry(activity: "puzzle_feeder", start: ago(0.5), minutes: 15),
            LogEntry(activity: "puzzle_feeder", start: ago(4), minutes: 15),
        ]
        let goals = Self.adultGoals("Labrador Retriever")   // [560, 10, 150, 6, 3, 3]
        let done: [Double] = [45 + 15, 2, 30, 0, 2, 0]
        let expected = zip(done, goals).map { max(0, 1 - $0 / $1) }
        let ans = s.all(log: log)
        #expect(zip(ans.gaps, expected).allSatisfy { abs($0 - $1) < 1e-9 }, "\(ans.gaps) vs \(expected)")
        // Each offered activity's needs_gap term is its category's gap.
        for r in ans.recommendations {
            let term = try #require(r.breakdown.terms.first { $0.name == "needs_gap" })
            #expect(abs(term.value - expected[r.activity.category.ordinal]) < 1e-9, "\(r.activity.id)")
        }
        // And the reason says so in numbers.
        let walk = try #require(ans.recommendation("brisk_walk"))
        #expect(walk.reasons.contains { $0.contains("60 of 560 exercise minutes this week") }, "\(walk.reasons)")
        // A goal met leaves no gap.
        let more = log + (0..<4).map { LogEntry(activity: "nail_trim", start: ago(Double($0) + 0.2), minutes: 5) }
        #expect(s.all(log: more).gaps[ActivityCategory.care.ordinal] == 0)
    }
}
