// Oracles for the catalogue's listings and ratings, written from the documentation
// (docs/data-model.md, docs/protocol.md) with Foundation alone, so that tests never judge
// Scout's folding, ratings or JSON reading by Scout's own code.
import Foundation

public enum CatalogOracle {
    /// Folding as documented: case and diacritics ignored, ł→l, ß→ss, æ→ae, œ→oe, ø→o,
    /// đ/ð→d, þ→th, ı→i; apostrophes dropped without a break; every other character that is
    /// not a letter or digit is a word break; single spaces between words.
    public static func fold(_ s: String) -> String {
        var t = s
        for a in ["'", "\u{2018}", "\u{2019}", "\u{02BC}"] { t = t.replacingOccurrences(of: a, with: "") }
        t = t.folding(options: [.diacriticInsensitive, .caseInsensitive], locale: Locale(identifier: "en_US_POSIX"))
        let special: [Character: String] = ["ł": "l", "ß": "ss", "æ": "ae", "œ": "oe", "ø": "o", "đ": "d", "ð": "d", "þ": "th", "ı": "i"]
        var out = ""
        for c in t.lowercased() {
            if let r = special[c] { out += r } else if c.isLetter || c.isWholeNumber { out.append(c) } else { out.append(" ") }
        }
        return out.split(separator: " ").joined(separator: " ")
    }

    /// Byte order of UTF-8 (how ids, and folded names, are compared).
    public static func bytesBefore(_ a: String, _ b: String) -> Bool { a.utf8.lexicographicallyPrecedes(b.utf8) }

    /// z of the 95% two-sided interval.
    public static let z = 1.959963984540054

    /// Lower bound of the 95% Wilson score interval of up/(up+down), from the textbook
    /// formula; 0 with no votes, and exactly 0 with no up-vote (the bound of a share of 0).
    public static func wilson(up: Int, down: Int) -> Double {
        let n = Double(up + down)
        guard n > 0, up > 0 else { return 0 }
        return wilsonLower(p: Double(up) / n, n: n)
    }

    /// The Wilson lower bound of a 1–5 mean over `count` ratings, on the 1–5 scale: the share
    /// (mean − 1) / 4 with `count` trials, and back; 1 with no ratings.
    public static func wilson(mean: Double?, count: Int) -> Double {
        guard let mean, count > 0 else { return 1 }
        return 1 + 4 * wilsonLower(p: (mean - 1) / 4, n: Double(count))
    }

    static func wilsonLower(p: Double, n: Double) -> Double {
        let z2 = z * z
        return max(0, (p + z2 / (2 * n) - z * ((p * (1 - p) + z2 / (4 * n)) / n).squareRoot()) / (1 + z2 / n))
    }

    /// Bayesian mean with prior mean 3 and prior weight 5 ratings.
    public static func bayesian(mean: Double?, count: Int) -> Double {
        (5 * 3 + Double(count) * (mean ?? 3)) / (5 + Double(count))
    }

    /// A JSON object as Foundation's JSONSerialization reads it.
    public static func object(_ text: String) -> [String: Any] {
        try! JSONSerialization.jsonObject(with: Data(text.utf8)) as! [String: Any]
    }

    /// A number of a Foundation JSON object.
    public static func number(_ v: Any?) -> Double? { (v as? NSNumber)?.doubleValue }
}
