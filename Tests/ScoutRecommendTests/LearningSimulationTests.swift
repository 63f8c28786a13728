import Foundation
import ScoutRecommend
import ScoutTestSupport
import ScoutTime
import Testing

/// Does the recommender learn what a dog enjoys? 200 simulated dogs with a hidden chance of
/// enjoying each activity; 50 days, one activity a day, the outcome fed back. Regret of a
/// day = the best hidden chance among the activities eligible that day − the chance of the
/// one chosen. Arms: the recommender in `explore` mode with the feedback; a uniform random
/// choice; the rules alone (`best` mode with the enjoyment weight at 0).
@Suite struct LearningSimulationTests {
    static let dogs = 200
    static let rounds = 50

    enum Arm: String, CaseIterable { case explore, random, rulesOnly = "rules only" }

    struct Result {
        /// Mean regret per arm and round.
        var regret: [Arm: [Double]] = [:]
        func mean(_ arm: Arm, _ range: Range<Int>) -> Double { regret[arm]![range].reduce(0, +) / Double(range.count) }
    }

    static let result: Result = simulate()

    static func simulate() -> Result {
        var sums: [Arm: [Double]] = Dictionary(uniqueKeysWithValues: Arm.allCases.map { ($0, [Double](repeating: 0, count: rounds)) })
        let start = Clock.instant("Europe/Dublin", 2026, 6, 1, 12)
        var noEnjoyment = Fixture.recommender.weights
        noEnjoyment.activityTerms[.enjoyment] = 0
        for dog in 0..<dogs {
            var rng = SplitMix64(seed: 900_000 + dog)
            let breed = rng.pick(Fixture.breeds.breeds)
            var base = Situation.at(.dublin, 2026, 6, 1, 12, breed: breed.name, years: 4, sky: Sky(temperatureC: 15, windKmh: 5))
            base.breed = breed
            // Hidden enjoyment: Beta(2, 2) per activity plus an offset per category.
            var offset: [String: Double] = [:]
            for c in NeedsOracle.categories { offset[c] = rng.uniform(-0.25, 0.25) }
            var hidden: [String: Double] = [:]
            for a in Fixture.spec.activities(for: "dog") { hidden[a.id] = min(0.98, max(0.02, rng.beta22() + offset[a.category]!)) }

            for arm in Arm.allCases {
                var armRNG = SplitMix64(seed: 1_900_000 + dog)
                var log: [LogEntry] = [], feedback: [Feedback] = []
                for round in 0..<rounds {
                    var s = base
                    s.now = start.seconds + Int64(round) * 86_400
                    let oracle = RuleOracle(s)
                    let eligible = oracle.eligible(at: s.now).modes.keys.sorted()
                    precondition(!eligible.isEmpty)
                    let best = eligible.map { hidden[$0]! }.max()!
                    let chosen: String
                    switch arm {
                    case .explore:
                        let ans = Fixture.recommender.recommendActivities(
                            s.request(count: 1, mode: .explore, seed: UInt64(dog * 1_000 + round), log: log, feedback: feedback))
                        chosen = ans.ids[0]
                    case .rulesOnly:
                        let ans = Fixture.recommender.recommendActivities(
                            s.request(count: 1, mode: .best, seed: 1, log: log, feedback: feedback, weights: noEnjoyment))
                        chosen = ans.ids[0]
                    case .random:
                        chosen = armRNG.pick(eligible)
                    }
                    sums[arm]![round] += best - hidden[chosen]!
                    let enjoyed = armRNG.chance(hidden[chosen]!)
                    let at = Instant(seconds: s.now)
                    feedback.append(Feedback(activity: chosen, rating: enjoyed ? .enjoyed : .disliked, at: at))
                    log.append(LogEntry(activity: chosen, start: at, minutes: Double(Fixture.spec.byID[chosen]!.minutes)))
                }
            }
        }
        return Result(regret: sums.mapValues { $0.map { $0 / Double(dogs) } })
    }

    @Test func exploringLearnsWhatTheDogEnjoys() {
        let r = Self.result
        for arm in Arm.allCases {
            print(String(format: "learning simulation (%d dogs × %d days): %@ mean regret %.4f overall, %.4f in rounds 1–25, %.4f in rounds 26–50",
                         Self.dogs, Self.rounds, arm.rawValue, r.mean(arm, 0..<50), r.mean(arm, 0..<25), r.mean(arm, 25..<50)))
        }
        #expect(r.mean(.explore, 25..<50) < r.mean(.random, 25..<50))
        #expect(r.mean(.explore, 25..<50) < r.mean(.rulesOnly, 25..<50))
        // It learns: later days are better than the first ones.
        #expect(r.mean(.explore, 25..<50) < r.mean(.explore, 0..<10))
    }
}
