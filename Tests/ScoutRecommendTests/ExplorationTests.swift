import Foundation
import ScoutCore
@testable import ScoutRecommend
import ScoutRecommendJSON
import ScoutTestSupport
import ScoutTime
import Testing

/// Exploration's propensities, offer ids, the prior file, the prior fit and the offline
/// estimators (docs/recommender.md, "Exploration", "Offer ids", "Decision logs").
@Suite struct ExplorationTests {
    static let s = Situation.at(.dublin, 2026, 6, 15, 12, breed: "Border Collie", sky: Sky(temperatureC: 15, windKmh: 5))

    static func ago(_ days: Double) -> Instant { Instant(seconds: s.now - Int64(days * 86_400)) }

    /// Reported propensities against how often each activity is offered over many seeds.
    @Test(arguments: [1, 2, 3])
    func propensitiesMatchAMonteCarloEstimate(count: Int) {
        var s = Self.s
        s.sky = Sky(temperatureC: 9, precipitationMmH: 1, condition: .rain, windKmh: 10)
        let feedback = [Feedback(activity: "fetch", rating: .enjoyed, at: Self.ago(2)), Feedback(activity: "puzzle_feeder", rating: .disliked, at: Self.ago(1))]
        let request = s.request(count: count, mode: .explore, seed: 0, feedback: feedback)
        let exact = Fixture.recommender.offerProbabilities(request)
        let seeds = 1_500
        var seen = [Int](repeating: 0, count: exact.count)
        var reported = [Double?](repeating: nil, count: exact.count)
        // The sets offered together, against the policy's sets and their probabilities.
        let sets = Fixture.recommender.offerSets(request).sets
        let setProbability = Dictionary(uniqueKeysWithValues: sets.map { ($0.activities, $0.probability) })
        var seenSets: [[Int]: Int] = [:]
        for seed in 0..<seeds {
            var r = request
            r.seed = UInt64(seed) &* 0x9E37_79B9_7F4A_7C15
            let answer = Fixture.recommender.recommendActivities(r)
            #expect(answer.recommendations.count == count)
            let set = answer.recommendations.map { Fixture.recommender.catalog.index(of: $0.activity.id)! }.sorted()
            seenSets[set, default: 0] += 1
            #expect(abs(answer.setPropensity - (setProbability[set] ?? 0)) < 1e-12, "the answer's set propensity is the policy's")
            for rec in answer.recommendations {
                let i = Fixture.recommender.catalog.index(of: rec.activity.id)!
                seen[i] += 1
                if let p = reported[i] { #expect(p == rec.propensity) } else { reported[i] = rec.propensity }
                #expect(abs(rec.propensity - exact[i].probability) < 1e-12, "the answer's propensity is the policy's")
            }
        }
        var largest = 0.0
        for i in exact.indices {
            largest = max(largest, abs(Double(seen[i]) / Double(seeds) - exact[i].probability))
        }
        #expect(largest < 0.02, "largest gap to the Monte Carlo estimate: \(largest)")
        var largestSet = 0.0
        for (set, p) in setProbability { largestSet = max(largestSet, abs(Double(seenSets[set] ?? 0) / Double(seeds) - p)) }
        #expect(seenSets.keys.allSatisfy { setProbability[$0] != nil }, "every set offered is one of the policy's")
        #expect(largestSet < 0.02, "largest gap between a set's probability and its frequency: \(largestSet)")
        #expect(abs(sets.reduce(0) { $0 + $1.probability } - 1) < 1e-9, "the sets' probabilities sum to 1")
        // An activity's propensity is the sum over the sets that hold it.
        for i in exact.indices {
            let sum = sets.filter { $0.activities.contains(i) }.reduce(0) { $0 + $1.probability }
            #expect(abs(sum - exact[i].probability) < 1e-9, "inclusion of \(Fixture.recommender.catalog.activities[i].id)")
        }
        // Inclusion probabilities sum to the number of offers.
        #expect(abs(exact.reduce(0) { $0 + $1.probability } - Double(count)) < 1e-9)
        print(String(format: "exploration: %d offers, largest gap between propensity and %d-seed frequency %.4f, of a set %.4f (%d sets)",
                     count, seeds, largest, largestSet, sets.count))
    }

    @Test func explorationOffersOnlyEligibleActivities() {
        let answer = Fixture.recommender.recommendActivities(Self.s.request(count: 2, mode: .explore, seed: 3))
        let excluded = Set(answer.excluded.map(\.activity.id))
        let policy = Fixture.recommender.offerProbabilities(Self.s.request(count: 2, mode: .explore, seed: 3))
        for (i, p) in policy.enumerated() where excluded.contains(Fixture.recommender.catalog.activities[i].id) {
            #expect(p.probability == 0 && p.enjoyment == nil)
        }
        #expect(policy.contains { $0.probability > 0 && $0.probability < 1 })
    }

    @Test func offerIDsCarryTheirMoment() throws {
        let catalog = Fixture.recommender.catalog
        let answer = Fixture.recommender.recommendActivities(Self.s.request(count: 2, mode: .explore, seed: 5))
        for rec in answer.recommendations {
            let text = rec.id.description
            #expect(text.hasPrefix(rec.activity.id + "."))
            let back = try OfferID.parse(text, catalog: catalog, path: "feedback[0].recommendation")
            #expect(back == rec.id)
            #expect(back.moment.hour == 12 && back.moment.daylight == .day && back.moment.wet == false)
        }
        // Every moment survives the round trip.
        var rng = SplitMix64(seed: 77)
        for _ in 0..<2_000 {
            let m = Moment(mode: rng.chance(0.5) ? .indoor : .outdoor, wet: rng.chance(0.5), temperatureC: rng.int(-40...60),
                           daylight: rng.pick([.day, .twilight, .dark]), hour: rng.int(0...23), weekday: rng.int(1...7),
                           away: rng.chance(0.5), repeatedActivity: rng.chance(0.5), repeatedCategory: rng.chance(0.5))
            let id = OfferID(activity: rng.pick(catalog.activities).id, moment: m)
            #expect(try OfferID.parse(id.description, catalog: catalog, path: "x") == id)
        }
        // A changed digit, an unknown activity, a malformed id: not_found, with a suggestion for the activity.
        let good = answer.recommendations[0].id.description
        var digits = Array(good)
        digits[digits.count - 1] = digits.last == "0" ? "1" : "0"
        for (text, words) in [(String(digits), "unchanged"), ("fetchh.0206376bd0b2", "did you mean \"fetch\""), ("fetch", "ids look like"),
                              (String(repeating: "fetch.", count: 30) + "0206376bd0b2", "ids look like")] {
            #expect {
                _ = try OfferID.parse(text, catalog: catalog, path: "feedback[0].recommendation")
            } throws: { e in
                guard let e = e as? ScoutError else { return false }
                return e.code == .notFound && e.path == "feedback[0].recommendation" && e.message.contains(words)
            }
        }
    }

    /// In an answer of two each id names the other offer (its activity by a 16-bit tag, its
    /// mode and repeats); an id of one offer alone keeps the short form; the other's part is
    /// covered by the check; a tag that names no activity leaves the other out.
    @Test func theIdsOfTwoOffersNameEachOther() throws {
        let catalog = Fixture.recommender.catalog
        for seed: UInt64 in 0..<20 {
            let pair = Fixture.recommender.recommendActivities(Self.s.request(count: 2, mode: .explore, seed: seed)).recommendations
            try #require(pair.count == 2)
            for (a, b) in [(pair[0], pair[1]), (pair[1], pair[0])] {
                let text = a.id.description
                #expect(text.split(separator: ".").map(\.count).suffix(2) == [12, 5], "\(text)")
                let back = try OfferID.parse(text, catalog: catalog, path: "x")
                #expect(back == a.id)
                #expect(back.others.map(\.activity) == [b.activity.id])
                #expect(back.others.first?.moment == b.id.moment, "the other's moment, rebuilt from this one's and its own bits")
            }
        }
        let one = Fixture.recommender.recommendActivities(Self.s.request(count: 1, mode: .explore, seed: 1)).recommendations[0].id
        #expect(one.others.isEmpty && one.description.split(separator: ".").last?.count == 12)
        let three = Fixture.recommender.recommendActivities(Self.s.request(count: 3, mode: .best, seed: 1)).recommendations
        #expect(three.allSatisfy { $0.id.others.isEmpty })
        // Every pair of activities and moments survives the round trip.
        var rng = SplitMix64(seed: 78)
        for _ in 0..<2_000 {
            let m = Moment(mode: rng.chance(0.5) ? .indoor : .outdoor, wet: rng.chance(0.5), temperatureC: rng.int(-40...60),
                           daylight: rng.pick([.day, .twilight, .dark]), hour: rng.int(0...23), weekday: rng.int(1...7),
                           away: rng.chance(0.5), repeatedActivity: rng.chance(0.5), repeatedCategory: rng.chance(0.5))
            var o = m
            o.mode = rng.chance(0.5) ? .indoor : .outdoor; o.repeatedActivity = rng.chance(0.5); o.repeatedCategory = rng.chance(0.5)
            let (a, b) = (rng.pick(catalog.activities).id, rng.pick(catalog.activities).id)
            guard a != b else { continue }
            let id = OfferID(activity: a, moment: m, others: [OfferID(activity: b, moment: o)])
            #expect(try OfferID.parse(id.description, catalog: catalog, path: "x") == id)
        }
        // Any changed digit of the other's part fails the check; a tag no activity has is
        // left out, the offer itself still read.
        let text = Self.pair(catalog).description
        for i in text.indices.suffix(5) {
            var changed = text
            changed.replaceSubrange(i...i, with: changed[i] == "0" ? "1" : "0")
            #expect(throws: ScoutError.self) { try OfferID.parse(changed, catalog: catalog, path: "x") }
        }
        let fewer = try ActivityCatalog(version: "x", activities: catalog.activities.filter { $0.id != "puzzle_feeder" })
        let read = try OfferID.parse(text, catalog: fewer, path: "x")
        #expect(read.activity == "fetch" && read.others.isEmpty)
    }

    /// fetch taken over a puzzle feeder, as an answer of two would write it.
    static func pair(_ catalog: ActivityCatalog) -> OfferID {
        OfferID(activity: "fetch", moment: Moment(mode: .outdoor), others: [OfferID(activity: "puzzle_feeder", moment: Moment(mode: .indoor))])
    }

    @Test func thePriorFileIsChecked() throws {
        let text = try String(contentsOfFile: Repository.data + "/enjoyment_prior.json", encoding: .utf8)
        let prior = try EnjoymentPrior.parse(bytes: Array(text.utf8), source: "data/enjoyment_prior.json")
        #expect(prior.coefficients.count == EnjoymentFeature.allCases.count)
        #expect(prior.version == Fixture.recommender.prior.version)
        // What the fit writes reads back the same.
        let again = try EnjoymentPrior.parse(bytes: Array(prior.fileText(about: "test").utf8), source: "x")
        #expect(again == prior)
        let cases: [(String, String, String)] = [
            ("\"format\": \"scout-enjoyment-prior/1\"", "\"format\": \"scout-enjoyment-prior/2\"", "p.json: format"),
            ("\"outdoor_x_wet\": -0.8,", "", "p.json: features.outdoor_x_wet"),
            ("\"outdoor_x_wet\": -0.8,", "\"outdoor_x_wett\": -0.8,", "p.json: features.outdoor_x_wett"),
            ("\"outdoor_x_wet\": -0.8,", "\"outdoor_x_wet\": 80,", "p.json: features.outdoor_x_wet"),
            ("\"category_sd\": 0.8", "\"category_sd\": 0", "p.json: pet_effects.category_sd"),
        ]
        for (from, to, path) in cases {
            #expect(text.contains(from), "\(from)")
            #expect {
                _ = try EnjoymentPrior.parse(bytes: Array(text.replacingOccurrences(of: from, with: to).utf8), source: "p.json")
            } throws: { e in (e as? ScoutError).map { $0.code == .parseError && $0.path == path } ?? false }
        }
    }

    /// A seeded population for the fit's tests: coefficients drawn uniformly, each pet's own
    /// category (sd 0.5) and activity (sd 0.4) tastes, and offers of random dog activities
    /// with random features, each with its log-odds.
    struct SyntheticPopulation {
        var rng: SplitMix64, draws: SeededRandom
        let k = EnjoymentFeature.allCases.count
        let truth: [Double]
        let activities = Fixture.recommender.catalog.activities(for: .dog)
        var categoryTaste: [Double] = [], activityTaste: [String: Double] = [:]

        init(seed: UInt64) {
            rng = SplitMix64(seed: seed)
            draws = SeededRandom(seed: seed)
            var r = rng
            truth = (0..<EnjoymentFeature.allCases.count).map { _ in r.uniform(-1, 1) }
            rng = r
        }

        /// Fits `examples` from a prior of zeros (the spreads the tastes are drawn with) and
        /// returns the fit and each coefficient's error, `compared` as given (both sides).
        func fit(_ examples: [RatedExample], compared: ([Double]) -> [Double] = { $0 }) -> (fit: PriorFit.Result, errors: [Double], mean: Double) {
            let zero = EnjoymentPrior(version: "zero", coefficients: [Double](repeating: 0, count: k), categorySD: 0.5, activitySD: 0.4)
            let fit = PriorFit.fit(examples, start: zero, version: "fitted", ridge: 1)
            let errors = zip(compared(fit.prior.coefficients), compared(truth)).map { abs($0 - $1) }
            return (fit, errors, errors.reduce(0, +) / Double(errors.count))
        }

        /// The next pet: new tastes.
        mutating func nextPet() {
            categoryTaste = (0..<6).map { _ in draws.normal() * 0.5 }
            activityTaste = [:]
        }

        /// An offer to the current pet: the activity, its features and its log-odds.
        mutating func offer() -> (a: Activity, x: [Double], z: Double) {
            let a = rng.pick(activities)
            var x = [Double](repeating: 0, count: k)
            x[a.category.ordinal] = 1
            for j in 6..<k where rng.chance(0.3) { x[j] = rng.uniform(-1, 1) }
            let own = activityTaste[a.id] ?? draws.normal() * 0.4
            activityTaste[a.id] = own
            var z = categoryTaste[a.category.ordinal] + own
            for j in 0..<k { z += truth[j] * x[j] }
            return (a, x, z)
        }
    }

    /// The fit recovers a population's coefficients from ratings drawn from them (with each
    /// pet's own category and activity tastes on top).
    @Test func theFitRecoversAPopulationsCoefficients() {
        var world = SyntheticPopulation(seed: 2_026)
        var examples: [RatedExample] = []
        for pet in 0..<150 {
            world.nextPet()
            for _ in 0..<40 {
                let (a, x, z) = world.offer()
                let y: Double = world.rng.chance(1 / (1 + exp(-z))) ? 1 : 0
                examples.append(RatedExample(features: x, rating: y, pet: "pet\(pet)", category: a.category.ordinal, activity: a.id))
            }
        }
        let (fit, errors, mean) = world.fit(examples)
        print(String(format: "prior fit: %d examples, mean |error| %.3f, largest %.3f, log loss %.4f from %.4f", examples.count, mean,
                     errors.max()!, fit.logLoss, fit.startLogLoss))
        #expect(mean < 0.12, "\(errors)")
        #expect(errors.max()! < 0.35, "\(errors)")
        #expect(fit.logLoss < fit.startLogLoss)
        // Deterministic.
        #expect(world.fit(examples).fit.prior == fit.prior)
    }

    /// Choices alone (an offer taken over another, drawn Bradley–Terry from a population and
    /// each pet's tastes) recover the population's coefficients; a logged answer of two with
    /// one offer rated gives the rating and the choice.
    @Test func theFitReadsChoices() throws {
        var world = SyntheticPopulation(seed: 2_027)
        var examples: [RatedExample] = []
        for pet in 0..<150 {
            world.nextPet()
            for _ in 0..<40 {
                let (one, two) = (world.offer(), world.offer())
                guard one.a.id != two.a.id else { continue }
                let (taken, passed) = world.rng.chance(1 / (1 + exp(two.z - one.z))) ? (one, two) : (two, one)
                examples.append(RatedExample(features: taken.x, rating: 1, pet: "pet\(pet)", category: taken.a.category.ordinal, activity: taken.a.id,
                                             over: .init(features: passed.x, category: passed.a.category.ordinal, activity: passed.a.id)))
            }
        }
        // The six category coefficients are not identified by choices alone beyond their
        // differences: compare those, and every other coefficient as it is.
        let (fit, errors, mean) = world.fit(examples) { c in c.prefix(6).map { $0 - c[0] } + c.dropFirst(6) }
        print(String(format: "prior fit from choices: %d choices, mean |error| %.3f, largest %.3f", examples.count, mean, errors.max()!))
        #expect(mean < 0.15, "\(errors)")
        #expect(errors.max()! < 0.45, "\(errors)")
        #expect(fit.logLoss < fit.startLogLoss)

        // From a log: an answer of two, the taken offer rated.
        let request = Self.s.request(count: 2, mode: .explore, seed: 4)
        let pair = Fixture.recommender.recommendActivities(request).recommendations
        let decision = LoggedDecision(request: request, offers: pair.map { LoggedOffer(id: $0.id, propensity: $0.propensity) },
                                      ratings: [pair[1].activity.id: .disliked], line: 1)
        let read = PriorFit.examples(decision, recommender: Fixture.recommender)
        #expect(read.count == 2)
        #expect(read[0].over == nil && read[0].rating == 0 && read[0].activity == pair[1].activity.id)
        #expect(read[1].rating == 1 && read[1].activity == pair[1].activity.id && read[1].over?.activity == pair[0].activity.id)
    }

    /// `days` decisions of `explore`, one a day, each with `count` offers: one offer taken
    /// at random and rated at random.
    static func explored(days: Int, count: Int, seed: UInt64) -> [LoggedDecision] {
        var rng = SplitMix64(seed: seed)
        return (0..<days).map { day in
            var s = Self.s
            s.now += Int64(day) * 86_400
            let request = s.request(count: count, mode: .explore, seed: UInt64(day))
            let answer = Fixture.recommender.recommendActivities(request)
            let taken = rng.pick(answer.recommendations)
            return LoggedDecision(request: request, offers: answer.recommendations.map { LoggedOffer(id: $0.id, propensity: $0.propensity) },
                                  setPropensity: answer.setPropensity, ratings: [taken.activity.id: rng.pick(Enjoyment.allCases)], line: day + 1)
        }
    }

    @Test func theLoggingPolicyEstimatesItsOwnValue() throws {
        // A candidate equal to the logging policy: every weight is 1, and IPS = SNIPS = the logged mean.
        let decisions = Self.explored(days: 60, count: 1, seed: 5)
        #expect(decisions.allSatisfy { $0.offers.count == 1 && $0.setPropensity == $0.offers[0].propensity })
        let v = try OfflineEvaluation.estimate(decisions, recommender: Fixture.recommender) { $0 }
        #expect(v.decisions == 60 && v.unrated == 0)
        #expect(abs(v.ips.value - v.logged.value) < 1e-9 && abs(v.snips.value - v.logged.value) < 1e-9)
        #expect(abs(v.effectiveSampleSize - 60) < 1e-6)
        #expect(v.snips.low <= v.snips.value && v.snips.value <= v.snips.high)
        // A deterministic candidate puts weight only where it would offer the same.
        let best = try OfflineEvaluation.estimate(decisions, recommender: Fixture.recommender) { r in var r = r; r.mode = .best; return r }
        #expect(best.effectiveSampleSize < 60)
    }

    /// "This or that": a decision of two offers is valued by the rating of the one taken and
    /// weighed by the probability of offering that pair.
    @Test func pairDecisionsAreValuedByTheOfferTaken() throws {
        let decisions = Self.explored(days: 40, count: 2, seed: 6)
        #expect(decisions.allSatisfy { $0.offers.count == 2 })
        // The logging policy itself: every weight 1, every estimate the logged mean of the taken offers' ratings.
        let v = try OfflineEvaluation.estimate(decisions, recommender: Fixture.recommender) { $0 }
        let takenMean = decisions.map { OfflineEvaluation.reward($0.ratings.values.first!) }.reduce(0, +) / 40
        #expect(v.decisions == 40 && v.unrated == 0)
        #expect(abs(v.logged.value - takenMean) < 1e-12)
        #expect(abs(v.ips.value - takenMean) < 1e-9 && abs(v.snips.value - takenMean) < 1e-9)
        #expect(abs(v.effectiveSampleSize - 40) < 1e-6)
        // `best` offers one pair with certainty: weight 1 / (the logged pair's probability) where it is that pair, else 0.
        let best = try OfflineEvaluation.estimate(decisions, recommender: Fixture.recommender) { r in var r = r; r.mode = .best; return r }
        var want = 0.0
        for d in decisions {
            var r = d.request; r.mode = .best
            let pair = Fixture.recommender.recommendActivities(r).recommendations.map(\.activity.id).sorted()
            if pair == d.offers.map(\.id.activity).sorted() { want += OfflineEvaluation.reward(d.ratings.values.first!) / d.setPropensity! }
        }
        #expect(abs(best.ips.value - want / 40) < 1e-9)
        // Without the pair's probability a rated decision of two cannot be weighed: refused by its line.
        var bare = decisions
        bare[6].setPropensity = nil
        #expect {
            _ = try OfflineEvaluation.estimate(bare, recommender: Fixture.recommender) { $0 }
        } throws: { e in
            (e as? ScoutError)?.path == "line 7: set_propensity" && (e as? ScoutError)?.message.contains("set_propensity is required") == true
        }
    }
}
