/// "Did you mean" for names a caller got wrong: the known names closest to a misspelt one.
///
/// ```swift
/// Suggestions.closest(to: "limt", among: ["limit", "kind", "near"])   // ["limit"]
/// Suggestions.hint(for: "gyms", among: ["dog", "gym"])                // " (did you mean \"gym\"?)"
/// ```
/// Names are compared case-insensitively by edit distance (insertions, deletions,
/// substitutions and swaps of neighbours); a name counts as close when at most a third of
/// its characters (at least one, at most three) differ, or when one name is a prefix of
/// the other. The misspelt name itself never appears in the text: only known names do.
public enum Suggestions {
    /// The known names closest to `name`, best first (ties in the given order); at most `limit`.
    /// - Complexity: O(n · m²) for n known names of length about m (names longer than 64 bytes are not compared).
    public static func closest(to name: String, among known: [String], limit: Int = 3) -> [String] {
        let a = Array(name.lowercased().utf8.prefix(64))
        guard !a.isEmpty else { return [] }
        var scored: [(distance: Int, index: Int)] = []
        for (i, k) in known.enumerated() {
            let b = Array(k.lowercased().utf8.prefix(64))
            guard !b.isEmpty else { continue }
            let d = distance(a, b)
            let allowed = min(3, max(1, min(a.count, b.count) / 3))
            let prefix = min(a.count, b.count) >= 3 && (a.starts(with: b) || b.starts(with: a))
            if d <= allowed || prefix { scored.append((prefix ? min(d, allowed) : d, i)) }
        }
        scored.sort { ($0.distance, $0.index) < ($1.distance, $1.index) }
        return scored.prefix(limit).map { known[$0.index] }
    }

    /// `" (did you mean "x"?)"` or `" (did you mean "x" or "y"?)"`; empty when nothing is close.
    public static func hint(for name: String, among known: [String]) -> String {
        let c = closest(to: name, among: known, limit: 2)
        switch c.count {
        case 0: return ""
        case 1: return " (did you mean \"\(c[0])\"?)"
        default: return " (did you mean \"\(c[0])\" or \"\(c[1])\"?)"
        }
    }

    /// Optimal string alignment distance between two byte strings.
    static func distance(_ a: [UInt8], _ b: [UInt8]) -> Int {
        if a == b { return 0 }
        var previous2 = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                var d = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] { d = min(d, previous2[j - 2] + 1) }
                current[j] = d
            }
            (previous2, previous, current) = (previous, current, previous2)
        }
        return previous[b.count]
    }
}
