import Foundation
import ScoutRecommend
import ScoutTestSupport
import ScoutTime
import Testing

/// Enjoyment: the population prior and the pet's own effects learnt from its ratings, read
/// in the moment of their offer; exploration seeded by the request (docs/recommender.md,
/// "Enjoyment", "Exploration").
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
        var choices = [[String]: Int]()
        for seed in 0..<200 { choices[Self.run(mode: .explore, seed: UInt64(seed)).ids, default: 0] += 1 }
        #expect(choices.count >= 3, "\(choices)")
        // Mostly the best pair, as best mode offers it.
        let best = Self.run(mode: .best, seed: 0).ids
        #expect(choices[best, default: 0] == choices.values.max(), "\(choices)")
    }

    @Test func bestModeDoesNotDependOnTheSeed() {
        let fb = [Feedback(activity: "fetch", rating: .enjoyed, at: Self.ago(2)), Feedback(activity: "jog", rating: .disliked, at: Self.ago(3))]
        let first = Self.run(count: 1_000, mode: .best, seed: 0, feedback: fb)
        for seed: UInt64 in [1, 7, 99, 123_456, .max] {
            let a = Self.run(count: 1_000, mode: .best, seed: seed, feedback: fb)
            #expect(a.ids == first.ids)
            #expect(a.recommendations.map(\.breakdown) == first.recommendations.map(\.breakdown))
            #expect(a.recommendations.allSatisfy { $0.propensity == 1 })
        }
    }

    /// The enjoyment term of every activity, by id, in best mode.
    static func enjoyment(_ feedback: [Feedback], situation: Situation = s) -> [String: Double] {
        let a = Fixture.recommender.recommendActivities(situation.request(count: 1_000, mode: .best, seed: 1, feedback: feedback))
        return Dictionary(uniqueKeysWithValues: a.recommendations.map { ($0.activity.id, term($0, "enjoyment")) })
    }

    @Test func fiveEnjoyedBeatFiveDisliked() throws {
        // Two activities of one category (physical): fetch enjoyed five times, brisk walk disliked five times.
        let fb = (1...5).map { Feedback(activity: "fetch", rating: .enjoyed, at: Self.ago(Double($0))) }
            + (1...5).map { Feedback(activity: "brisk_walk", rating: .disliked, at: Self.ago(Double($0) + 0.5)) }
        let before = Self.enjoyment([]), after = Self.enjoyment(fb)
        #expect(try #require(after["fetch"]) > before["fetch"]! + 0.05)
        #expect(try #require(after["brisk_walk"]) < before["brisk_walk"]! - 0.05)
        #expect(after["fetch"]! > after["brisk_walk"]!)
        // Untried mental work keeps the prior's prediction: the ratings were about physical activities.
        #expect(abs(after["puzzle_feeder"]! - before["puzzle_feeder"]!) < 1e-12)
    }

    @Test func oldFeedbackWeighsLessAndNeutralCountsHalf() throws {
        let before = Self.enjoyment([])
        let fresh = Self.enjoyment([Feedback(activity: "puzzle_feeder", rating: .enjoyed, at: Self.ago(1))])
        let old = Self.enjoyment([Feedback(activity: "puzzle_feeder", rating: .enjoyed, at: Self.ago(240))])
        let neutral = Self.enjoyment([Feedback(activity: "puzzle_feeder", rating: .neutral, at: Self.ago(1))])
        let future = Self.enjoyment([Feedback(activity: "puzzle_feeder", rating: .disliked, at: Self.ago(-1))])
        let id = "puzzle_feeder"
        #expect(fresh[id]! > old[id]! && old[id]! > before[id]!, "\(fresh[id]!) \(old[id]!) \(before[id]!)")
        // A neutral rating pulls toward ½: between an enjoyed and a disliked one.
        let disliked = Self.enjoyment([Feedback(activity: id, rating: .disliked, at: Self.ago(1))])
        #expect(neutral[id]! < fresh[id]! && neutral[id]! > disliked[id]!)
        // A rating dated after now is not read.
        #expect(future[id] == before[id])
    }

    @Test func ratingsAreReadInTheMomentOfTheirOffer() throws {
        // Three dislikes of a brisk walk: in the rain, or on fine days. The rain explains a
        // dislike (the prior expects less fun outdoors in the rain), so the fine-day dislikes
        // say more about the dog and lower its walks more, for a fine day now.
        func offer(wet: Bool) -> OfferID {
            OfferID(activity: "brisk_walk", moment: Moment(mode: .outdoor, wet: wet, temperatureC: 14, hour: 10, weekday: 2))
        }
        let wet = (1...3).map { Feedback(offer: offer(wet: true), rating: .disliked, at: Self.ago(Double($0))) }
        let dry = (1...3).map { Feedback(offer: offer(wet: false), rating: .disliked, at: Self.ago(Double($0))) }
        let plain = (1...3).map { Feedback(activity: "brisk_walk", rating: .disliked, at: Self.ago(Double($0))) }
        let afterWet = Self.enjoyment(wet)["brisk_walk"]!, afterDry = Self.enjoyment(dry)["brisk_walk"]!
        #expect(afterWet > afterDry + 0.02, "\(afterWet) vs \(afterDry)")
        // Without an offer id a rating is read in the neutral moment: a dry noon, like `dry`'s.
        #expect(abs(Self.enjoyment(plain)["brisk_walk"]! - afterDry) < 0.05)
    }

    /// "This or that": the offer taken over another says the pet was expected to enjoy it
    /// more. Five puzzle feeders (mental) taken over fetch (physical), none rated: the
    /// puzzle feeder and, through its category, the other mental work rise; fetch and the
    /// other physical activities fall; the enjoyment weight grows with the choices.
    @Test func anOfferTakenOverAnotherTeachesWhichThePetPrefers() throws {
        let indoor = Moment(mode: .indoor, temperatureC: 15, hour: 12, weekday: 3)
        let puzzle = OfferID(activity: "puzzle_feeder", moment: indoor), fetch = OfferID(activity: "fetch", moment: Moment(mode: .outdoor))
        let took = (1...5).map { Feedback(offer: puzzle, over: [fetch], at: Self.ago(Double($0))) }
        let before = Self.enjoyment([]), after = Self.enjoyment(took)
        for id in ["puzzle_feeder", "snuffle_mat"] { #expect(try #require(after[id]) > before[id]! + 0.02, "\(id)") }
        for id in ["fetch", "jog"] { #expect(try #require(after[id]) < before[id]! - 0.02, "\(id)") }
        // The reverse choices move them the other way.
        let reverse = Self.enjoyment((1...5).map { Feedback(offer: fetch, over: [puzzle], at: Self.ago(Double($0))) })
        #expect(reverse["fetch"]! > before["fetch"]! && reverse["puzzle_feeder"]! < before["puzzle_feeder"]!)
        // Choices are evidence: the enjoyment weight grows as with ratings.
        let weight = { (fb: [Feedback]) in Self.run(count: 1, mode: .best, seed: 1, feedback: fb).recommendations[0].breakdown.terms[2].weight }
        #expect(weight(took) > weight([]))
        // A rating and a choice in one piece of feedback: both are read.
        let both = Self.enjoyment((1...5).map { Feedback(offer: puzzle, rating: .enjoyed, over: [fetch], at: Self.ago(Double($0))) })
        #expect(both["puzzle_feeder"]! > after["puzzle_feeder"]!)
        // Feedback that neither rates nor passes anything over says nothing.
        #expect(Self.enjoyment([Feedback(offer: puzzle, at: Self.ago(1))]) == before)
        // The id of an offer of a two-offer answer names the other: a rating of it says it
        // was taken over that one, unless the feedback says otherwise (`over: []`).
        let named = OfferID(activity: "puzzle_feeder", moment: indoor, others: [fetch])
        #expect(Feedback(offer: named, rating: .enjoyed, at: Self.ago(1)).over == [fetch])
        let implied = Self.enjoyment((1...5).map { Feedback(offer: named, rating: .neutral, at: Self.ago(Double($0))) })
        let neither = Self.enjoyment((1...5).map { Feedback(offer: named, rating: .neutral, over: [], at: Self.ago(Double($0))) })
        let plain = Self.enjoyment((1...5).map { Feedback(offer: puzzle, rating: .neutral, at: Self.ago(Double($0))) })
        #expect(neither == plain)
        #expect(implied["fetch"]! < plain["fetch"]! - 0.02 && implied["puzzle_feeder"]! > plain["puzzle_feeder"]! + 0.02)
    }

    @Test func theEnjoymentWeightGrowsWithEvidence() {
        var last = 0.0
        for n in [0, 1, 3, 10, 40] {
            let fb = (0..<n).map { Feedback(activity: "fetch", rating: .enjoyed, at: Self.ago(Double($0) / 10)) }
            let a = Self.run(count: 1, mode: .best, seed: 1, feedback: fb)
            let w = a.recommendations[0].breakdown.terms[2].weight
            #expect(w > last, "\(n) ratings: weight \(w)")
            #expect(w <= Fixture.spec.termWeights["enjoyment"]! * Fixture.spec.evidenceMaxFactor + 1e-12)
            last = w
        }
        // Rules only (weight 0) stays 0 whatever the evidence.
        var w = Fixture.recommender.weights
        w.activityTerms[.enjoyment] = 0
        let fb = (0..<10).map { Feedback(activity: "fetch", rating: .enjoyed, at: Self.ago(Double($0))) }
        let a = Fixture.recommender.recommendActivities(Self.s.request(count: 1, mode: .best, seed: 1, feedback: fb, weights: w))
        #expect(a.recommendations[0].breakdown.terms[2].weight == 0)
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
