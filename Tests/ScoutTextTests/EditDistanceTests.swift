import PropertyBased
@testable import ScoutText
import Testing

/// The full (unbanded) optimal-string-alignment DP, the textbook recurrence.
func fullOSA<T: Equatable>(_ a: [T], _ b: [T]) -> Int {
    let n = a.count, m = b.count
    var d = [[Int]](repeating: [Int](repeating: 0, count: m + 1), count: n + 1)
    for i in 0...n { d[i][0] = i }
    for j in 0...m { d[0][j] = j }
    if n == 0 || m == 0 { return d[n][m] }
    for i in 1...n {
        for j in 1...m {
            let cost = a[i - 1] == b[j - 1] ? 0 : 1
            d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost)
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1)
            }
        }
    }
    return d[n][m]
}

func fullOSA(_ a: String, _ b: String) -> Int {
    fullOSA(Array(a.unicodeScalars), Array(b.unicodeScalars))
}

@Suite struct EditDistanceTests {
    @Test(arguments: [
        ("", "", 0), ("abc", "abc", 0), ("", "abcd", 4), ("abcd", "", 4),
        ("abc", "acb", 1), ("ab", "ba", 1), ("abc", "abd", 1), ("abc", "abcd", 1), ("abcd", "abc", 1),
        ("ca", "abc", 3),  // OSA, not unrestricted Damerau (which would say 2)
        ("kitten", "sitting", 3), ("wroclaw", "wrolcaw", 1), ("dublin", "berlin", 3),
        ("schronisko", "schroniska", 1), ("schronisko", "shcronsiko", 2),
        ("αβγ", "αγβ", 1), ("москва", "моксва", 1), ("żółw", "zolw", 3),
    ])
    func knownDistances(_ a: String, _ b: String, _ expected: Int) {
        #expect(EditDistance.within(a, b, maximum: expected) == expected)
        #expect(EditDistance.within(a, b, maximum: expected + 3) == expected)
        #expect(EditDistance.within(b, a, maximum: expected) == expected)
        if expected > 0 { #expect(EditDistance.within(a, b, maximum: expected - 1) == nil) }
    }

    @Test func bytesAndExtremeBounds() {
        #expect(EditDistance.within(Array("abc".utf8), Array("acb".utf8), maximum: 1) == 1)
        #expect(EditDistance.within("abc", "abc", maximum: -1) == nil)
        #expect(EditDistance.within("abc", "xyz", maximum: Int.max) == 3)
        #expect(EditDistance.within("", "", maximum: 0) == 0)
        // A Greek letter is one symbol as a scalar, two as UTF-8 bytes.
        #expect(EditDistance.within("α", "β", maximum: 1) == 1)
        #expect(EditDistance.within(Array("α".utf8), Array("β".utf8), maximum: 2) == 1)
        #expect(EditDistance.within(Array("α".utf8), Array("ω".utf8), maximum: 2) == 2)
    }

    @Test func matchesTheFullDynamicProgramme() async {
        let word = Gen.character(in: "a"..."c").string(of: 0...8)
        await propertyCheck(count: 2000, input: word, word, Gen.int(in: 0...4)) { a, b, k in
            let full = fullOSA(a, b)
            #expect(EditDistance.within(a, b, maximum: k) == (full <= k ? full : nil), "\(a) vs \(b) within \(k): full \(full)")
        }
    }

    @Test func longerWordsOverALargerAlphabet() async {
        let word = Gen.character(in: "a"..."f").string(of: 0...20)
        await propertyCheck(count: 500, input: word, word, Gen.int(in: 0...3)) { a, b, k in
            let full = fullOSA(a, b)
            #expect(EditDistance.within(a, b, maximum: k) == (full <= k ? full : nil), "\(a) vs \(b) within \(k): full \(full)")
        }
    }

    @Test(arguments: [(0, 0), (1, 0), (4, 0), (5, 1), (8, 1), (9, 2), (30, 2)])
    func allowedEdits(_ length: Int, _ edits: Int) {
        #expect(EditDistance.allowedEdits(forLength: length) == edits)
    }
}
