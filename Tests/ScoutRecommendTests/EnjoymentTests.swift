import Foundation
import ScoutRecommend
import ScoutTestSupport
import ScoutTime
import Testing

/// Enjoyment: Beta posteriors shrunk toward the category, Thompson draws seeded by the
/// request (docs/recommender.md, "Enjoyment").
@Suite struct EnjoymentTests {
    /// A Border Collie at home on a fine June noon in Dublin: nearly everything is eligible.
    static let s = Situation.at(.dublin, 2026, 6, 15, 12, breed: "Border Collie", sky: Sky(temperatureC: 15, windKmh: 5))

    static func ago(_ days: Double) -> Instant { Instant(seconds: s.now - Int64(days * 86_400)) }

    static func term(_ r: ActivityRecommendation, _ name: String) -> Double {
        r.breakdown.terms.first { $0.name == name }!.value
    }

    static func run(count: Int = 2, mode: ActivityRequest.Mode, seed: UInt64?, feedback: [Feedback] = []) -> ActivityRecommendations {
        Fixture.recommender.recommendActivities(s.request(count: count, mode: mode, seed: seed, feedback: feedback))
    }

    @Test func theSameSeedGivesTheSameAnswer() {
        for seed: UInt64 in [0, 1, 42, .max] {
            let a = Self.run(count: 1_000, mode: .explore, seed: seed), b = Self.run(count: 1_000, mode: .explore, seed: seed)
            #expect(a.ids == b.ids)
            #expect(a.recommendations.map(\.breakdown) == b.recommendations.map(\.breakdown))
            #expect(a.recommendations.map(\.reasons) == b.recommendations.map(\.reasons))
            #expect(a.seed == seed)
        }
        // Without a seed, one is derived from the minute and the name: still replayable.
        let a = Self.run(mode: .explore, seed: nil), b = Self.run(mode: .explore, seed: nil)
        #expect(a.seed == b.seed && a.ids == b.ids)
    }

    @Test func differentSeedsExploreDifferentChoices() {
        var choices = Set<[String]>()
        var enjoyment = Set<Double>()
        for seed in 0..<50 {
            let a = Self.run(mode: .explore, seed: UInt64(seed))
            choices.insert(a.ids)
            if let r = a.recommendation("puzzle_feeder") ?? a.recommendations.first { enjoyment.insert(Self.term(r, "enjoyment")) }
        }
        #expect(choices.count >= 3, "\(choices)")
        #expect(enjoyment.count >= 10)
    }

    @Test func bestModeDoesNotDependOnTheSeed() {
        let fb = [Feedback(activity: "fetch", rating: .enjoyed, at: Self.ago(2)), Feedback(activity: "jog", rating: .disliked, at: Self.ago(3))]
        let first = Self.run(count: 1_000, mode: .best, seed: 0, feedback: fb)
        for seed: UInt64 in [1, 7, 99, 123_456, .max] {
            let a = Self.run(count: 1_000, mode: .best, seed: seed, feedback: fb)
            #expect(a.ids == first.ids)
            #expect(a.recommendations.map(\.breakdown) == first.recommendations.map(\.breakdown))
        }
        // Without feedback every mean is 1/2.
        for r in Self.run(count: 1_000, mode: .best, seed: 3).recommendations { #expect(Self.term(r, "enjoyment") == 0.5) }
    }

    @Test func fiveEnjoyedBeatFiveDisliked() throws {
        // Two activities of one category (physical): fetch enjoyed five times, brisk walk disliked five times.
        let fb = (1...5).map { Feedback(activity: "fetch", rating: .enjoyed, at: Self.ago(Double($0))) }
            + (1...5).map { Feedback(activity: "brisk_walk", rating: .disliked, at: Self.ago(Double($0) + 0.5)) }
        let best = Self.run(count: 1_000, mode: .best, seed: 1, feedback: fb)
        let fetch = try #require(best.recommendation("fetch")), walk = try #require(best.recommendation("brisk_walk"))
        #expect(Self.term(fetch, "enjoyment") > Self.term(walk, "enjoyment"))
        // The means, by the formulas of the doc.
        let o = NeedsOracle(Self.s)
        for id in ["fetch", "brisk_walk", "jog", "puzzle_feeder"] {
            let r = try #require(best.recommendation(id))
            let expected = o.enjoymentMean(Fixture.spec.byID[id]!, feedback: fb)
            #expect(abs(Self.term(r, "enjoyment") - expected) < 1e-12, "\(id): \(Self.term(r, "enjoyment")) vs \(expected)")
        }
        // Untried jog starts at the category's mean; untried mental work at 1/2.
        let decay = { (d: Double) in pow(0.5, d / Fixture.spec.halfLifeDays) }
        let successes = (1...5).map { decay(Double($0)) }.reduce(0, +), failures = (1...5).map { decay(Double($0) + 0.5) }.reduce(0, +)
        let m = (1 + successes) / (2 + successes + failures)
        #expect(abs(Self.term(try #require(best.recommendation("jog")), "enjoyment") - m) < 1e-12)
        #expect(Self.term(try #require(best.recommendation("puzzle_feeder")), "enjoyment") == 0.5)
        // Thompson draws agree most of the time.
        var wins = 0
        for seed in 0..<30 {
            let a = Self.run(count: 1_000, mode: .explore, seed: UInt64(seed), feedback: fb)
            if Self.term(a.recommendation("fetch")!, "enjoyment") > Self.term(a.recommendation("brisk_walk")!, "enjoyment") { wins += 1 }
        }
        #expect(wins >= 27, "\(wins) of 30")
    }

    @Test func oldFeedbackWeighsLessAndNeutralCountsHalf() throws {
        let fb = [Feedback(activity: "fetch", rating: .enjoyed, at: Self.ago(240)),     // weight 1/4
                  Feedback(activity: "jog", rating: .neutral, at: Self.ago(0)),
                  Feedback(activity: "puzzle_feeder", rating: .disliked, at: Self.ago(-1))]   // in the future: ignored
        let best = Self.run(count: 1_000, mode: .best, seed: 1, feedback: fb)
        // Physical: successes 1/4 + 1/2, failures 1/2; m = 1.75 / 3.25.
        let m = 1.75 / 3.25
        let fetch = (2 * m + 0.25) / (2 + 0.25), jog = (2 * m + 0.5) / 3
        #expect(abs(Self.term(try #require(best.recommendation("fetch")), "enjoyment") - fetch) < 1e-12)
        #expect(abs(Self.term(try #require(best.recommendation("jog")), "enjoyment") - jog) < 1e-12)
        #expect(Self.term(try #require(best.recommendation("puzzle_feeder")), "enjoyment") == 0.5)
    }

    @Test func reasonsSayItWasLovedTheLastThreeTimes() throws {
        let fb = [Feedback(activity: "fetch", rating: .disliked, at: Self.ago(10)),
                  Feedback(activity: "fetch", rating: .enjoyed, at: Self.ago(3)),
                  Feedback(activity: "fetch", rating: .enjoyed, at: Self.ago(2)),
                  Feedback(activity: "fetch", rating: .enjoyed, at: Self.ago(1)),
                  Feedback(activity: "jog", rating: .disliked, at: Self.ago(1))]
        var s = Self.s
        s.breed = Fixture.breed("Border Collie")
        let ans = Fixture.recommender.recommendActivities(
            ActivityRequest(pet: PetProfile(name: "Rex", species: .dog, breed: s.breed, birthDate: s.birth), context: s.context,
                            feedback: fb, count: 1_000, mode: .best, seed: 1))
        let loved = try Regex("Rex loved .+ the last 3 times")
        let fetch = try #require(ans.recommendation("fetch"))
        #expect(fetch.reasons.contains { $0.firstMatch(of: loved) != nil }, "\(fetch.reasons)")
        let jog = try #require(ans.recommendation("jog"))
        let disliked = try Regex("Rex did not enjoy .+ last time")
        #expect(jog.reasons.contains { $0.firstMatch(of: disliked) != nil }, "\(jog.reasons)")
        // Two in a row is "the last 2 times", not 3.
        let two = Fixture.recommender.recommendActivities(s.request(count: 1_000, mode: .best, feedback: Array(fb.dropFirst(2))))
        #expect(!(two.recommendation("fetch")?.reasons.contains { $0.contains("the last 3 times") } ?? true))
        #expect(two.recommendation("fetch")?.reasons.contains { $0.contains("the last 2 times") } == true)
    }
}
