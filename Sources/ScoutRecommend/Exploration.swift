/// How `explore` picks among the eligible activities (`docs/recommender.md`, "Exploration"):
/// inverse-gap weighting over the final scores, as SquareCB does, with exact propensities.
///
/// With `K` activities to choose from, sorted best first, activity `i` other than the best
/// is drawn with `1 / (K + γ·(s_best − s_i))` and the best with what is left. The first offer
/// is drawn so from all the eligible activities; the second, the same way from those of
/// another category than the first's (any other when there is none). Further offers are the
/// best left, a new category first, as in `best` mode. ``inclusion(count:)`` gives each
/// activity's exact probability of being offered.
struct Exploration {
    /// Scores, best first.
    let scores: [Double]
    /// Category ordinals, by position.
    let categories: [Int]
    let gamma: Double
    /// First-draw probabilities, by position.
    let p: [Double]

    /// The policy over `scores` sorted best first, with their categories.
    init(scores: [Double], categories: [Int], gamma: Double) {
        self.scores = scores
        self.categories = categories
        self.gamma = gamma
        p = Exploration.weights(scores, gamma: gamma) { _ in true }
    }

    /// Inverse-gap probabilities over the positions `ok` admits (0 elsewhere).
    static func weights(_ scores: [Double], gamma: Double, where ok: (Int) -> Bool) -> [Double] {
        var out = [Double](repeating: 0, count: scores.count)
        var members: [Int] = []
        for i in scores.indices where ok(i) { members.append(i) }
        guard let best = members.first else { return out }
        let k = Double(members.count)
        var rest = 0.0
        for i in members.dropFirst() {
            out[i] = 1 / (k + gamma * max(0, scores[best] - scores[i]))
            rest += out[i]
        }
        out[best] = max(0, 1 - rest)
        return out
    }

    /// The second draw's probabilities after `first` was drawn.
    func second(after first: Int) -> [Double] {
        let other = categories.contains { $0 != categories[first] }
        return Exploration.weights(scores, gamma: gamma) { $0 != first && (!other || categories[$0] != categories[first]) }
    }

    /// Draws `count` offers (at most the number eligible), as positions, in offer order.
    func draw(count: Int, rng: inout SeededRandom) -> [Int] {
        let n = min(count, p.count)
        guard n > 0 else { return [] }
        var chosen = [Exploration.sample(p, rng.unit())]
        if n >= 2 { chosen.append(Exploration.sample(second(after: chosen[0]), rng.unit())) }
        fill(&chosen, upTo: n)
        return chosen
    }

    /// The position whose cumulative probability first passes `u`.
    static func sample(_ probabilities: [Double], _ u: Double) -> Int {
        var acc = 0.0, last = 0
        for (i, q) in probabilities.enumerated() where q > 0 {
            acc += q
            last = i
            if u < acc { return i }
        }
        return last
    }

    /// Adds the best positions left, a new category first, until `n` are chosen.
    func fill(_ chosen: inout [Int], upTo n: Int) {
        while chosen.count < n {
            let used = Set(chosen.map { categories[$0] })
            let next = scores.indices.first { !chosen.contains($0) && !used.contains(categories[$0]) } ?? scores.indices.first { !chosen.contains($0) }!
            chosen.append(next)
        }
    }

    /// Every set of positions the policy may offer as its `count` offers (any order), with
    /// its probability, exact: for two offers, `{i, j}` has `p_i·q_i(j) + p_j·q_j(i)`, where
    /// `q_i` is the second draw's after `i`; past two, each (first, second) pair adds to the
    /// set its fill makes. The probabilities sum to 1.
    /// - Complexity: O(K·C + S) for two offers of C categories and S sets (O(K²) with one
    ///   category), O(K²·count·K) for more.
    func sets(count: Int) -> [(positions: [Int], probability: Double)] {
        let k = p.count, n = min(count, k)
        guard n > 0 else { return [] }
        if n == k { return [(positions: Array(0..<k), probability: 1)] }
        if n == 1 { return p.indices.filter { p[$0] > 0 }.map { (positions: [$0], probability: p[$0]) } }
        var out: [[Int]: Double] = [:]
        forEachDraw { j, i, w in
            var chosen = [j, i]
            fill(&chosen, upTo: n)
            out[chosen.sorted(), default: 0] += w
        }
        return out.map { (positions: $0.key, probability: $0.value) }.sorted { $0.positions.lexicographicallyPrecedes($1.positions) }
    }

    /// The probability of offering exactly `positions` (any order) as the `count` offers:
    /// the entry of ``sets(count:)`` for them, without listing the others.
    /// - Complexity: O(K) for two offers, O(n²·count·K) for n > 2 offers.
    func setProbability(_ positions: [Int], count: Int) -> Double {
        let n = min(count, p.count)
        guard positions.count == n, n > 0, Set(positions).count == n else { return 0 }
        if n == p.count { return 1 }
        if n == 1 { return p[positions[0]] }
        let target = positions.sorted()
        var total = 0.0
        // The first and second draws are both among the offers; the rest is the fill.
        for j in positions where p[j] > 0 {
            let q = second(after: j)
            for i in positions where i != j && q[i] > 0 {
                if n == 2 { total += p[j] * q[i]; continue }
                var chosen = [j, i]
                fill(&chosen, upTo: n)
                if chosen.sorted() == target { total += p[j] * q[i] }
            }
        }
        return total
    }

    /// Each position's probability of being among `count` offers, exact: `p` for one offer;
    /// for more, a sum over the first draw (and, past two, over the second).
    /// - Complexity: O(K·C) for two offers of C categories (O(K²) with one category), O(K²·count·K) for more.
    func inclusion(count: Int) -> [Double] {
        let k = p.count, n = min(count, k)
        guard n > 0 else { return [Double](repeating: 0, count: k) }
        if n == k { return [Double](repeating: 1, count: k) }
        if n == 1 { return p }
        var out = [Double](repeating: 0, count: k)
        forEachDraw(first: { out[$0] += p[$0] }) { j, i, w in
            if n == 2 {
                out[i] += w
            } else {
                var chosen = [j, i]
                fill(&chosen, upTo: n)
                for c in chosen.dropFirst() { out[c] += w }
            }
        }
        return out
    }

    /// Calls `body(j, i, p_j·q_j(i))` for every first draw `j` and second draw `i` of
    /// nonzero probability, in order of `j` then `i` (`first(j)` before `j`'s second draws).
    /// With several categories the second draw depends only on the first's category, so it
    /// is worked out once a category.
    private func forEachDraw(first: (Int) -> Void = { _ in }, _ body: (Int, Int, Double) -> Void) {
        let several = categories.contains { $0 != categories[0] }
        var byCategory: [Int: [Double]] = [:]
        for j in p.indices where p[j] > 0 {
            first(j)
            let q: [Double]
            if several, let known = byCategory[categories[j]] { q = known } else {
                q = second(after: j)
                if several { byCategory[categories[j]] = q }
            }
            for i in q.indices where q[i] > 0 { body(j, i, p[j] * q[i]) }
        }
    }
}
