// Bounded optimal-string-alignment distance and the typo-tolerance rule.

/// Bounded edit distances between folded words, and how many edits a word may carry.
///
/// The distance is the *optimal string alignment* (restricted Damerau–Levenshtein)
/// distance: insertions, deletions, substitutions and transpositions of two adjacent
/// symbols each cost 1, and no substring is edited twice ("ca" → "abc" is 3, not 2).
///
/// ```swift
/// EditDistance.within("wroclaw", "wrolcaw", maximum: 1)   // 1 (one transposition)
/// EditDistance.within("dublin", "berlin", maximum: 2)     // nil (3 edits)
/// ```
///
/// Strings are compared by Unicode scalars, so a Greek or Cyrillic letter is one symbol
/// exactly like a Latin one; callers pass words already folded by ``TextFolding``.
public enum EditDistance {
    /// The OSA distance between the Unicode scalars of `a` and `b` if it is at most `maximum`, else nil.
    ///
    /// - Complexity: O(*m* · (2·`maximum` + 1)) time for *m* symbols in `a`, with an early exit as soon as
    ///   no alignment can stay within `maximum`; the three DP rows live on the stack for words
    ///   up to about 80 scalars.
    public static func within(_ a: String, _ b: String, maximum: Int) -> Int? {
        within(Array(a.unicodeScalars.lazy.map(\.value)), Array(b.unicodeScalars.lazy.map(\.value)), maximum: maximum)
    }

    /// The OSA distance between two sequences of symbols (bytes, scalar values…) if it is at
    /// most `maximum`, else nil. A negative `maximum` always gives nil.
    ///
    /// - Complexity: O(*m* · (2·`maximum` + 1)) time for *m* symbols in `a`.
    public static func within<A: Collection, B: Collection>(_ a: A, _ b: B, maximum: Int) -> Int?
    where A.Element == B.Element, A.Element: Equatable {
        let x = ContiguousArray(a), y = ContiguousArray(b)
        return x.withUnsafeBufferPointer { xp in
            y.withUnsafeBufferPointer { yp in bounded(xp, yp, maximum: maximum) }
        }
    }

    /// The typo tolerance of a folded word of `n` scalars: 0 edits below 5, 1 for 5–8, 2 from 9.
    public static func allowedEdits(forLength n: Int) -> Int {
        n < 5 ? 0 : (n < 9 ? 1 : 2)
    }

    /// Banded OSA dynamic programme over rows of `a` and the diagonal band |i − j| ≤ k of `b`.
    static func bounded<T: Equatable>(_ a: UnsafeBufferPointer<T>, _ b: UnsafeBufferPointer<T>, maximum k: Int) -> Int? {
        guard k >= 0 else { return nil }
        let n = a.count, m = b.count
        if abs(n - m) > k { return nil }
        if n == 0 { return m }
        if m == 0 { return n }
        let k = min(k, max(n, m))  // no distance exceeds the longer length
        let inf = Int32(k + 1)
        let width = m + 1
        return withUnsafeTemporaryAllocation(of: Int32.self, capacity: 3 * width) { buf -> Int? in
            var prev2 = buf.baseAddress!, prev = prev2 + width, cur = prev + width
            // Row 0: D[0][j] = j inside the band, "too far" beyond it.
            for j in 0..<width { prev[j] = j <= k ? Int32(j) : inf }
            for i in 1...n {
                let lo = max(1, i - k), hi = min(m, i + k)
                cur[0] = i <= k ? Int32(i) : inf
                if lo > 1 { cur[lo - 1] = inf }
                if hi < m { cur[hi + 1] = inf }
                var rowMin = lo == 1 ? cur[0] : inf
                let ai = a[i - 1]
                for j in lo...hi {
                    let bj = b[j - 1]
                    var v = prev[j - 1] + (ai == bj ? 0 : 1)
                    v = min(v, prev[j] + 1, cur[j - 1] + 1)
                    if i > 1 && j > 1 && ai == b[j - 2] && a[i - 2] == bj {
                        v = min(v, prev2[j - 2] + 1)
                    }
                    v = min(v, inf)
                    cur[j] = v
                    rowMin = min(rowMin, v)
                }
                // Row minima never decrease (a transposition from row i−2 is matched by a
                // substitution in row i−1), so no later row can come back within k.
                if rowMin > Int32(k) { return nil }
                (prev2, prev, cur) = (prev, cur, prev2)
            }
            let d = Int(prev[m])
            return d <= k ? d : nil
        }
    }
}
