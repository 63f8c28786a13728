// A flat pre-order trie over the sorted vocabulary, walked with one OSA row per node to find
// every term within a few edits of a query word without comparing against every term.

/// The trie of the sorted terms, as flat arrays in pre-order: a node's subtree is the node
/// range `i ..< subtreeEnds[i]`, children follow their parent in ascending scalar order, so
/// the walk meets terms in vocabulary order. The root (empty prefix) is implicit.
struct TermTrie: Sendable {
    /// The scalar that each node appends to its parent's prefix.
    var scalars: [UInt32] = []
    /// Length of each node's prefix (≥ 1).
    var depths: [Int32] = []
    /// One past the last node of each node's subtree.
    var subtreeEnds: [Int32] = []
    /// The term spelled by each node, or −1.
    var terms: [Int32] = []
    /// Shortest and longest term in each node's subtree (the node's own term included).
    var minLengths: [Int32] = []
    var maxLengths: [Int32] = []

    var nodeCount: Int { scalars.count }

    /// Builds the trie of the terms `starts[t] ..< starts[t + 1]` of `vocabulary`, which must
    /// be sorted and distinct.
    init(vocabulary: UnsafeBufferPointer<UInt32>, starts: UnsafeBufferPointer<Int32>) {
        let termCount = starts.count - 1
        var path: [Int] = []  // node index at each depth of the current term
        var parents: [Int32] = []
        var previousStart = 0, previousLength = 0
        for t in 0..<max(0, termCount) {
            let s = Int(starts[t]), len = Int(starts[t + 1]) - s
            var lcp = 0
            let lim = min(len, previousLength)
            while lcp < lim && vocabulary[s + lcp] == vocabulary[previousStart + lcp] { lcp += 1 }
            while path.count > lcp { subtreeEnds[path.removeLast()] = Int32(scalars.count) }
            for d in lcp..<len {
                parents.append(path.last.map { Int32($0) } ?? -1)
                path.append(scalars.count)
                scalars.append(vocabulary[s + d])
                depths.append(Int32(d + 1))
                subtreeEnds.append(0)
                terms.append(-1)
            }
            // Sorted distinct terms: the previous term is never an extension of this one.
            assert(len > lcp, "TermTrie: terms must be sorted and distinct")
            terms[path[len - 1]] = Int32(t)
            previousStart = s
            previousLength = len
        }
        while let node = path.popLast() { subtreeEnds[node] = Int32(scalars.count) }
        // Term length ranges, children before parents (reverse pre-order).
        minLengths = [Int32](repeating: .max, count: scalars.count)
        maxLengths = [Int32](repeating: 0, count: scalars.count)
        for i in stride(from: scalars.count - 1, through: 0, by: -1) {
            if terms[i] >= 0 {
                minLengths[i] = min(minLengths[i], depths[i])
                maxLengths[i] = max(maxLengths[i], depths[i])
            }
            let p = Int(parents[i])
            if p >= 0 {
                minLengths[p] = min(minLengths[p], minLengths[i])
                maxLengths[p] = max(maxLengths[p], maxLengths[i])
            }
        }
    }

    /// Calls `body(term, distance)` for every term whose OSA distance to `w` is at most `k`,
    /// in ascending term order.
    ///
    /// Depth-first over the pre-order arrays, keeping one DP row per depth (the rows of the
    /// current node's ancestors), each computed only on the diagonal band |depth − j| ≤ k.
    /// A node's whole subtree is skipped when no cell can still lead within `k`: every term
    /// below has a length in the subtree's [shortest, longest], and from cell (d, j) a term
    /// of length L costs at least |(L − d) − (n − j)| more (a transposition that steps over
    /// row d is matched by a substitution through (d, j) on the same diagonal).
    ///
    /// - Complexity: O(*V* · (2*k* + 1)) for the *V* nodes visited (prefixes within `k` edits
    ///   of some prefix of `w`, and their children).
    func forEachTerm(within k: Int, of w: UnsafeBufferPointer<UInt32>, _ body: (Int, Int) -> Void) {
        let n = w.count
        guard n > 0, k >= 0, nodeCount > 0 else { return }
        let width = n + 1
        let maxDepth = n + k + 1  // a row this deep always exceeds k, so nothing goes deeper
        withUnsafeTemporaryAllocation(of: Int32.self, capacity: (maxDepth + 1) * width + maxDepth + 1) { buf in
            let rows = buf.baseAddress!
            let path = rows + (maxDepth + 1) * width  // scalar at each depth, as Int32 bits
            for j in 0...n { rows[j] = Int32(j) }
            let limit = Int32(k), inf = Int32(k + 1)
            scalars.withUnsafeBufferPointer { sc in
                depths.withUnsafeBufferPointer { dp in
                    subtreeEnds.withUnsafeBufferPointer { se in
                        terms.withUnsafeBufferPointer { tm in
                        minLengths.withUnsafeBufferPointer { mn in
                        maxLengths.withUnsafeBufferPointer { mx in
                            var i = 0
                            while i < sc.count {
                                let d = Int(dp[i]), c = sc[i]
                                // Base-form terms (``Tokenizer/formMarker`` first) are never typos of a word.
                                if d == 1 && c == Tokenizer.formMarker {
                                    i = Int(se[i])
                                    continue
                                }
                                path[d] = Int32(bitPattern: c)
                                let c2: UInt32 = d > 1 ? UInt32(bitPattern: path[d - 1]) : UInt32.max
                                let row = rows + d * width, up = row - width
                                // Only the band |d − j| ≤ k can hold values ≤ k; the cells
                                // just outside it read as "too far".
                                let lo = max(1, d - k), hi = min(n, d + k)
                                row[0] = d <= k ? Int32(d) : inf
                                if lo > 1 { row[lo - 1] = inf }
                                if hi < n { row[hi + 1] = inf }
                                // Lower bound of the distance of every term below: the
                                // cell's value plus the length mismatch still to pay on its
                                // diagonal, given the subtree's shortest and longest terms.
                                let shortTail = Int(mn[i]) - d - n, longTail = Int(mx[i]) - d - n
                                @inline(__always) func tail(_ j: Int) -> Int32 {
                                    Int32(truncatingIfNeeded: max(0, shortTail + j, -(longTail + j)))
                                }
                                var bound = lo == 1 ? row[0] + tail(0) : inf
                                var j = lo
                                while j <= hi {
                                    let q = w[j - 1]
                                    var v = up[j - 1] + (q == c ? 0 : 1)
                                    let del = up[j] + 1, ins = row[j - 1] + 1
                                    if del < v { v = del }
                                    if ins < v { v = ins }
                                    if d > 1 && j > 1 && q == c2 && w[j - 2] == c {
                                        let tr = up[j - 2 - width] + 1
                                        if tr < v { v = tr }
                                    }
                                    row[j] = v
                                    let b = v + tail(j)
                                    if b < bound { bound = b }
                                    j += 1
                                }
                                if bound > limit {
                                    i = Int(se[i])
                                    continue
                                }
                                let t = tm[i]
                                if t >= 0 && d + k >= n && row[n] <= limit { body(Int(t), Int(row[n])) }
                                i += 1
                            }
                        }
                        }
                        }
                    }
                }
            }
        }
    }
}
