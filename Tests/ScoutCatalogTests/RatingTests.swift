import Testing
@testable import ScoutCatalog

@Suite struct RatingTests {
    // Reference values of the Wilson score lower bound (z = 1.96), from a separate Python
    // implementation of the interval; the first worked by hand:
    // 1 of 1: (1 + 1.9208 − 1.96·√(0.9604)) / 4.8416 = 0.20655.
    @Test(arguments: [(1, 0, 0.20655), (0, 1, 0.0), (5, 5, 0.23659), (50, 0, 0.92865), (67, 3, 0.88140)])
    func wilsonLowerBoundMatchesWorkedValues(_ up: Int, _ down: Int, _ expected: Double) {
        #expect(abs(Rating.wilsonLowerBound(up: up, down: down) - expected) < 5e-5)
    }

    @Test func wilsonPrefersMoreEvidenceAtTheSameShare() {
        #expect(Rating.wilsonLowerBound(up: 90, down: 10) > Rating.wilsonLowerBound(up: 9, down: 1))
        #expect(Rating.wilsonLowerBound(up: 0, down: 0) == 0)
    }

    @Test func bayesianAverageShrinksTowardThePrior() {
        #expect(Rating.bayesian(.none) == 3)
        // One 5-star rating: (5·3 + 5) / 6.
        #expect(abs(Rating.bayesian(ReviewAggregate(mean: 5, count: 1)) - 20.0 / 6) < 1e-12)
        // Many ratings: close to their mean.
        #expect(abs(Rating.bayesian(ReviewAggregate(mean: 4.5, count: 1000)) - 4.5) < 0.01)
        #expect(Rating.bayesian(ReviewAggregate(mean: 4.8, count: 40)) > Rating.bayesian(ReviewAggregate(mean: 5, count: 2)))
    }
}
