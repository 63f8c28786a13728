import Foundation
import ScoutJSON
import ScoutRecommend
import ScoutRecommendJSON
import ScoutTestSupport
import ScoutTime
import Testing

/// Scores, breakdowns and the pick (docs/recommender.md, "Pipeline" step 4 and "Score"),
/// over random contexts of the safety sweep's generator.
@Suite struct ScoringTests {
    static let names = ["needs_gap", "individual_fit", "enjoyment", "novelty", "context"]

    /// The pick by the doc: best first, then the best of a category not yet picked, ties by id.
    static func expectedPick(_ all: [ActivityRecommendation], count: Int) -> [String] {
        let sorted = all.sorted {
            $0.breakdown.score != $1.breakdown.score ? $0.breakdown.score > $1.breakdown.score : $0.activity.id < $1.activity.id
        }
        var out: [String] = []
        var used = Set<ActivityCategory>()
        while out.count < min(count, sorted.count) {
            let next = sorted.first { !out.contains($0.activity.id) && !used.contains($0.activity.category) }
                ?? sorted.first { !out.contains($0.activity.id) }!
            out.append(next.activity.id)
            used.insert(next.activity.category)
        }
        return out
    }

    @Test func countsOneToFourPickTheBestOfDifferentCategories() {
        var log = FailureLog(limit: 5)
        var checked = 0, twoCategories = 0
        for i in 0..<400 {
            let c = SafetySweepTests.make(seed: 7_000_000 + i)
            // The pick of best mode (explore draws its offers: ExplorationTests).
            let all = Fixture.recommender.recommendActivities(c.situation.request(count: 1_000, mode: .best, seed: c.seed, log: c.log, feedback: c.feedback))
            guard !all.recommendations.isEmpty else { continue }
            checked += 1
            let categories = Set(all.recommendations.map(\.activity.category))
            for k in 1...4 {
                let ans = Fixture.recommender.recommendActivities(c.situation.request(count: k, mode: .best, seed: c.seed, log: c.log, feedback: c.feedback))
                log.check(ans.ids == Self.expectedPick(all.recommendations, count: k),
                          "seed \(7_000_000 + i) count \(k): \(ans.ids) vs \(Self.expectedPick(all.recommendations, count: k))")
                let picked = ans.recommendations.map(\.activity.category)
                log.check(Set(picked).count == min(k, categories.count), "seed \(7_000_000 + i) count \(k): categories \(picked) of \(categories)")
                if k == 2 && categories.count >= 2 { twoCategories += 1 }
            }
        }
        #expect(log.isEmpty, "\(log.summary)")
        #expect(checked > 200 && twoCategories > 150, "\(checked) contexts, \(twoCategories) with two categories")
    }

    @Test func theBreakdownHasFiveTermsThatSumToTheScore() {
        var log = FailureLog(limit: 5)
        var seen = 0
        for i in 0..<200 {
            let c = SafetySweepTests.make(seed: 8_000_000 + i)
            let ans = Fixture.recommender.recommendActivities(c.request)
            #expect(ans.weightsVersion == Fixture.spec.weightsVersion)
            for r in ans.recommendations + (ans.nextWindow?.recommendations ?? []) {
                seen += 1
                let terms = r.breakdown.terms
                log.check(terms.map(\.name) == Self.names, "\(terms.map(\.name))")
                let enjoymentWeight = NeedsOracle(c.situation).enjoymentWeight(c.feedback, base: Fixture.spec.termWeights["enjoyment"]!)
                for t in terms {
                    let expected = t.name == "enjoyment" ? enjoymentWeight : Fixture.spec.termWeights[t.name]!
                    log.check(abs(t.weight - expected) < 1e-12, "\(t.name) weight \(t.weight) vs \(expected)")
                    log.check((0...1).contains(t.value), "seed \(8_000_000 + i) \(r.activity.id): \(t.name) = \(t.value)")
                    log.check(t.contribution == t.value * t.weight, "\(t.name) contribution")
                }
                log.check(abs(terms.map(\.contribution).reduce(0, +) - r.breakdown.score) < 1e-12, "sum")
            }
        }
        #expect(log.isEmpty, "\(log.summary)")
        #expect(seen > 200)
        // Best first within what was offered: scores do not rise after the first.
        let ans = Situation.at(.dublin, 2026, 6, 15, 12, sky: Sky(temperatureC: 15)).answer(count: 4, mode: .best)
        #expect(ans.recommendations.dropFirst().allSatisfy { $0.breakdown.score <= ans.recommendations[0].breakdown.score })
    }

    @Test func weightOverridesShowInTheBreakdown() throws {
        let s = Situation.at(.dublin, 2026, 6, 15, 12, sky: Sky(temperatureC: 15))
        var w = Fixture.recommender.weights
        w.activityTerms[.novelty] = 0.3
        w.activityTerms[.enjoyment] = 0
        let ans = Fixture.recommender.recommendActivities(s.request(count: 1_000, weights: w))
        #expect(ans.weightsVersion == Fixture.spec.weightsVersion)
        for r in ans.recommendations {
            let byName = Dictionary(uniqueKeysWithValues: r.breakdown.terms.map { ($0.name, $0) })
            #expect(byName["novelty"]?.weight == 0.3)
            #expect(byName["enjoyment"]?.weight == 0 && byName["enjoyment"]?.contribution == 0)
            #expect(byName["needs_gap"]?.weight == Fixture.spec.termWeights["needs_gap"])
        }
        // The recommender's own weights are untouched.
        let plain = s.answer()
        #expect(plain.recommendations.first?.breakdown.terms.first { $0.name == "novelty" }?.weight == Fixture.spec.termWeights["novelty"])
        // And the parsed override takes the same path (`"weights": {"novelty": 0.3}`).
        let parsed = try Fixture.recommender.weights.overriding(try JSONReader.parse(#"{"novelty": 0.3}"#), group: .activity, path: "weights")
        #expect(parsed.activityTerms[.novelty] == 0.3 && parsed.activityTerms[.context] == Fixture.spec.termWeights["context"])
    }

    /// Every term of every offer (best mode) against the doc's formulas.
    @Test func termsFollowTheDoc() {
        var log = FailureLog(limit: 8)
        var judged = 0
        for i in 0..<1_500 {
            let c = SafetySweepTests.make(seed: 9_000_000 + i)
            let ans = Fixture.recommender.recommendActivities(c.situation.request(count: c.count, mode: .best, seed: c.seed, log: c.log, feedback: c.feedback))
            let n = NeedsOracle(c.situation)
            let rules = RuleOracle(c.situation)
            let gaps = n.gaps(c.log)
            log.check(zip(ans.gaps, gaps).allSatisfy { abs($0 - $1) < 1e-6 }, "seed \(9_000_000 + i): gaps \(ans.gaps) vs \(gaps)")
            log.check(ans.needs.lifeStage.rawValue == n.stage && ans.needs.weightStatus.rawValue == n.weightStatus,
                      "seed \(9_000_000 + i): \(ans.needs.lifeStage) \(ans.needs.weightStatus) vs \(n.stage) \(n.weightStatus)")
            log.check(abs(ans.needs.targetIntensity - n.target) < 1e-9, "seed \(9_000_000 + i): target \(ans.needs.targetIntensity) vs \(n.target)")
            let offers = ans.recommendations.map { ($0, c.situation.now) } + (ans.nextWindow?.recommendations.map { ($0, ans.nextWindow!.at.seconds) } ?? [])
            for (r, t) in offers {
                let a = Fixture.spec.byID[r.activity.id]!
                let v = r.breakdown.terms.map(\.value)
                let cat = NeedsOracle.categories.firstIndex(of: a.category)!
                let tag = "seed \(9_000_000 + i) \(a.id) \(r.mode)"
                log.check(abs(v[0] - gaps[cat]) < 1e-6, "\(tag): needs_gap \(v[0]) vs \(gaps[cat])")
                log.check(abs(v[1] - n.fit(a)) < 1e-9, "\(tag): individual_fit \(v[1]) vs \(n.fit(a))")
                if c.feedback.isEmpty {
                    let e = n.priorEnjoyment(a, mode: r.mode, at: t, log: c.log, rules: rules)
                    log.check(abs(v[2] - e) < 1e-9, "\(tag): enjoyment \(v[2]) vs \(e) (\(c.situation.summary))")
                } else {
                    log.check(v[2] > 0 && v[2] < 1, "\(tag): enjoyment \(v[2]) outside (0, 1)")
                }
                let weight = n.enjoymentWeight(c.feedback, base: Fixture.spec.termWeights["enjoyment"]!)
                log.check(abs(r.breakdown.terms[2].weight - weight) < 1e-9, "\(tag): enjoyment weight \(r.breakdown.terms[2].weight) vs \(weight)")
                log.check(abs(v[3] - n.novelty(a, log: c.log, at: t)) < 1e-9, "\(tag): novelty \(v[3]) vs \(n.novelty(a, log: c.log, at: t))")
                if let ctx = n.context(a, mode: r.mode, at: t, rules: rules) {
                    log.check(abs(v[4] - ctx) < 1e-9, "\(tag): context \(v[4]) vs \(ctx) (\(c.situation.summary))")
                }
                judged += 1
            }
        }
        #expect(log.isEmpty, "\(log.summary)")
        #expect(judged > 1_000)
    }
}
