import Foundation
import PropertyBased
@testable import ScoutText
import ScoutTestSupport
import Testing

// MARK: - Oracle

/// A brute-force reading of TextIndex's documented semantics: every query word is compared
/// with every word of every document, and BM25F is computed from scratch per query.
struct BruteForceSearch {
    let weights: [Double]
    let ids: [Int32]
    /// Folded words per document, per field (missing fields empty).
    let fields: [[[String]]]

    init(fieldWeights: [Double], documents: [(id: Int32, fields: [String])]) {
        weights = fieldWeights
        ids = documents.map(\.id)
        fields = documents.map { doc in
            (0..<fieldWeights.count).map { f in f < doc.fields.count ? TextFolding.words(doc.fields[f]) : [] }
        }
    }

    /// Match quality of term `t` for query word `q`, or nil when it does not match.
    static func quality(_ q: String, _ t: String, prefixAllowed: Bool) -> Double? {
        let qs = Array(q.unicodeScalars), ts = Array(t.unicodeScalars)
        if qs == ts { return 1.0 }
        var best: Double?
        if prefixAllowed && ts.starts(with: qs) { best = 0.6 + 0.3 * Double(qs.count) / Double(ts.count) }
        let budget = qs.count < 5 ? 0 : (qs.count < 9 ? 1 : 2)
        let d = fullOSA(qs, ts)
        if d <= budget {
            let typo = d == 1 ? 0.7 : 0.5
            best = max(best ?? 0, typo)
        }
        return best
    }

    /// Matching ids with their scores.
    func search(_ query: String) -> [Int32: Double] {
        let words = TextFolding.words(query)
        guard !words.isEmpty else { return [:] }
        let prefixOK = !(query.unicodeScalars.last?.properties.isWhitespace ?? true)

        var out: [Int32: Double] = [:]
        for (i, doc) in fields.enumerated() {
            let terms = Set(doc.joined())
            var total = 0.0, all = true
            for (w, q) in words.enumerated() {
                var best: Double?
                for t in terms {
                    guard let quality = Self.quality(q, t, prefixAllowed: prefixOK && w == words.count - 1) else { continue }
                    best = max(best ?? -1, bm25f(t, doc) * quality)
                }
                guard let b = best else { all = false; break }
                total += b
            }
            if all { out[ids[i]] = total }
        }
        return out
    }
}

extension BruteForceSearch {
    /// The documented ``WordMatching/most`` rule, from scratch: the words that count are the
    /// query's words that are not stop words, each once; every document matching at least
    /// one of them, scored by the sum of its best values for the words it matches, ranked by
    /// that sum times the square root of its IDF-weighted coverage (df: the documents that
    /// match the word). Ranks and the matched words by id.
    func searchMost(_ query: String, stopWords: Set<String>) -> [Int32: (relevance: Double, rank: Double, matched: Set<String>)] {
        let words = TextFolding.words(query)
        let prefixOK = !(query.unicodeScalars.last?.properties.isWhitespace ?? true)
        var counted: [Int] = []
        for (i, w) in words.enumerated() where !stopWords.contains(w) && !counted.contains(where: { words[$0] == w }) { counted.append(i) }
        guard !counted.isEmpty else { return [:] }
        var out: [Int32: (relevance: Double, rank: Double, matched: Set<String>)] = [:]
        var best: [[Int: Double]] = []
        for (d, doc) in fields.enumerated() {
            _ = d
            let terms = Set(doc.joined())
            var values: [Int: Double] = [:]
            for r in counted {
                for t in terms {
                    guard let q = Self.quality(words[r], t, prefixAllowed: prefixOK && r == words.count - 1) else { continue }
                    values[r] = max(values[r] ?? -1, bm25f(t, doc) * q)
                }
            }
            best.append(values)
        }
        let n = Double(ids.count)
        var weight: [Int: Double] = [:]
        for r in counted {
            let df = Double(best.filter { $0[r] != nil }.count)
            weight[r] = log(1 + (n - df + 0.5) / (df + 0.5))
        }
        let total = counted.reduce(0.0) { $0 + weight[$1]! }
        for (d, values) in best.enumerated() where !values.isEmpty {
            let sum = counted.compactMap { values[$0] }.reduce(0, +)
            let coverage = values.keys.reduce(0.0) { $0 + weight[$1]! } / total
            out[ids[d]] = (sum, sum * coverage.squareRoot(), Set(values.keys.map { words[$0] }))
        }
        return out
    }

    /// BM25F of term `t` in a document (fields of folded words), from scratch.
    func bm25f(_ t: String, _ doc: [[String]]) -> Double {
        let n = Double(ids.count)
        let df = Double(fields.filter { d in d.contains { $0.contains(t) } }.count)
        var avg = [Double](repeating: 0, count: weights.count)
        for d in fields { for f in weights.indices { avg[f] += Double(d[f].count) / n } }
        var tf = 0.0
        for f in weights.indices {
            let c = doc[f].filter { Array($0.unicodeScalars) == Array(t.unicodeScalars) }.count
            if c > 0 { tf += weights[f] * Double(c) / (1 - 0.75 + 0.75 * Double(doc[f].count) / avg[f]) }
        }
        let idf = log(1 + (n - df + 0.5) / (df + 0.5))
        return tf == 0 ? 0 : idf * 2.2 * tf / (1.2 + tf)
    }
}

func nearlyEqual(_ a: Double, _ b: Double) -> Bool { abs(a - b) <= 1e-6 * max(1, abs(a), abs(b)) }

// MARK: - Hand-written corpus

@Suite struct TextIndexTests {
    static let shelters: [(id: Int32, fields: [String])] = [
        (1, ["Schronisko dla Zwierząt we Wrocławiu", "Miejskie schronisko: psy i koty do adopcji"]),
        (2, ["Schronisko Na Paluchu", "Warszawa, największe schronisko dla psów w Polsce"]),
        (3, ["Dogs Trust Dublin", "Rehoming dogs and puppies across Ireland"]),
        (4, ["DSPCA", "Dublin Society for Prevention of Cruelty to Animals, Rathfarnham"]),
        (5, ["Cats Protection Cork", "Cat rescue and rehoming in Cork city"]),
        (6, ["Paws Animal Rescue", "Dogs and cats in Wicklow; fostering around Dublin"]),
        (7, ["Sligo Dog Pound", "O'Brien family's dog sanctuary"]),
        (8, ["Ashton Dogs Home", "Seán's rescue in Łódź"]),
    ]
    static let index = TextIndex(fieldWeights: [3, 1], documents: shelters)

    func ids(_ query: String) -> [Int32] { Self.index.search(query).map(\.id) }

    @Test func documentationExamplesHold() {
        let index = TextIndex(fieldWeights: [3, 1], documents: [
            (id: 7, fields: ["Schronisko dla Zwierząt we Wrocławiu", "Psy i koty do adopcji"]),
            (id: 9, fields: ["Dogs Trust Dublin", "Rehoming dogs across Ireland"]),
        ])
        #expect(index.search("dogs dubln").map(\.id) == [9])
        #expect(index.search("schronisko wroc").map(\.id) == [7])
        #expect(TextFolding.words("O'Brien's Dogs-Trust, Łódź") == ["obriens", "dogs", "trust", "lodz"])
        #expect(EditDistance.within("wroclaw", "wrolcaw", maximum: 1) == 1)
        #expect(EditDistance.within("dublin", "berlin", maximum: 2) == nil)
        #expect(index.description == "TextIndex(2 fields, 2 documents, 16 terms)")
    }

    @Test func everyQueryWordMustMatch() {
        #expect(Set(ids("dogs dublin")) == [3, 6])
        #expect(ids("dogs dublin").first == 3, "both words in the heavier name field")
        #expect(Set(ids("rescue")) == [5, 6, 8])
        #expect(ids("dogs zebra").isEmpty)
        #expect(ids("zebra").isEmpty)
    }

    @Test func onlyTheLastWordCompletesAsAPrefix() {
        #expect(Set(ids("schron")) == [1, 2])
        #expect(ids("schron ").isEmpty, "a trailing space ends the word")
        #expect(ids("schron wroclawiu").isEmpty, "not the last word")
        #expect(ids("wroclawiu schron") == [1])
        #expect(Set(ids("d")) == [1, 2, 3, 4, 6, 7, 8], "dla, do, dogs, dog, dublin, dspca")
    }

    /// "wroclaw" is 2 edits from "wroclawiu" (beyond its budget of 1), so only prefix
    /// completion reaches the folded "Wrocławiu".
    @Test func wroclawReachesWroclawiuOnlyByPrefix() {
        #expect(ids("wroclaw") == [1])
        #expect(ids("Wrocław") == [1])
        #expect(ids("wroclaw ").isEmpty)
        #expect(ids("wroclaw schronisko").isEmpty)
    }

    @Test func typoToleranceFollowsWordLength() {
        #expect(ids("slgio dog") == [7], "5 letters: one transposition allowed")
        #expect(ids("dgos sligo").isEmpty, "4 letters: no typo allowed")
        #expect(ids("cta cork").isEmpty)
        #expect(ids("rheoming cork") == [5], "8 letters: one edit")
        #expect(ids("rheomign cork").isEmpty, "8 letters: two edits are too many")
        #expect(ids("wrolcawui schronisko") == [1], "9 letters: two edits")
        #expect(ids("rahtfarnam dublin") == [4], "10 letters: transposition and deletion")
    }

    @Test func foldingAppliesToQueries() {
        #expect(ids("lodz") == [8])
        #expect(ids("ŁÓDŹ ") == [8])
        #expect(ids("Sean") == [8], "prefix of \"seans\"")
        #expect(ids("O’Brien") == [7])
        #expect(ids("zwierzat") == [1])
    }

    @Test func emptyQueriesMatchNothing() {
        for q in ["", "   ", "?!", "—"] {
            #expect(Self.index.search(q).isEmpty)
            #expect(Self.index.scores(q).isEmpty)
        }
    }

    @Test func limitKeepsTheBestInOrder() {
        let all = Self.index.search("d")
        #expect(all.count == 7)
        for limit in 0...(all.count + 1) {
            #expect(Self.index.search("d", limit: limit) == Array(all.prefix(limit)))
        }
        #expect(Self.index.search("d", limit: -3).isEmpty)
    }

    @Test func scoresAgreeWithSearch() {
        for q in ["dogs", "d", "rescue", "schron", "dublin", "slgio dog"] {
            let fromSearch = Dictionary(uniqueKeysWithValues: Self.index.search(q).map { ($0.id, $0.score) })
            #expect(Self.index.scores(q) == fromSearch)
            var seen: [Int32: Double] = [:]
            Self.index.forEachMatch(q) { seen[$0.id] = $0.score }
            #expect(seen == fromSearch)
        }
    }

    @Test func scoresFollowTheBruteForceOracle() {
        let oracle = BruteForceSearch(fieldWeights: [3, 1], documents: Self.shelters)
        for q in ["dogs dublin", "rescue", "d", "schron", "slgio dog", "rheoming cork", "wroclaw", "sean", "dublin "] {
            let expected = oracle.search(q), got = Self.index.scores(q)
            #expect(Set(got.keys) == Set(expected.keys), "\(q)")
            for (id, s) in expected { #expect(nearlyEqual(got[id] ?? .nan, s), "\(q): id \(id) scored \(got[id] ?? .nan), expected \(s)") }
        }
    }

    @Test func explanationsAddUpToTheScore() throws {
        let index = Self.index, dogsDublin = index.explain("dogs dublin", id: 3)
        let e = try #require(dogsDublin)
        #expect(e.words.map(\.word) == ["dogs", "dublin"])
        #expect(e.words.map(\.term) == ["dogs", "dublin"])
        #expect(e.words.map(\.kind) == [.exact, .exact])
        let searched = index.search("dogs dublin").first { $0.id == 3 }?.score
        #expect(e.score == searched)
        let slgio = index.explain("slgio dog", id: 7), wroc = index.explain("wroc", id: 1)
        let typo = try #require(slgio)
        #expect(typo.words.map(\.kind) == [.typo(edits: 1), .exact])
        #expect(typo.words[0].term == "sligo" && typo.words[0].quality == 0.7)
        let prefix = try #require(wroc)
        #expect(prefix.words[0].kind == .prefix && prefix.words[0].term == "wroclawiu")
        #expect(nearlyEqual(prefix.words[0].quality, 0.6 + 0.3 * 4 / 9))
        let notMatching = Self.index.explain("dogs dublin", id: 4), unknown = Self.index.explain("dogs", id: 999)
        #expect(notMatching == nil && unknown == nil)
    }

    // MARK: Relevance numbers

    /// Equal BM25F everywhere (each word occurs once, all names two words long), so score
    /// ratios are exactly the documented quality factors.
    @Test func exactBeatsPrefixBeatsTypoByTheDocumentedFactors() throws {
        let index = TextIndex(fieldWeights: [1], documents: [
            (1, ["Dublin Rescue"]), (2, ["Dublni Rescue"]), (3, ["Dubliners Rescue"]),
            (4, ["Wroclawiu Rescue"]), (5, ["Wrolcawui Rescue"]),
        ])
        let r = Dictionary(uniqueKeysWithValues: index.search("dublin").map { ($0.id, $0.score) })
        #expect(index.search("dublin").map(\.id) == [1, 3, 2])
        let exact = try #require(r[1]), typo = try #require(r[2]), prefix = try #require(r[3])
        #expect(nearlyEqual(typo / exact, 0.7))
        #expect(nearlyEqual(prefix / exact, 0.6 + 0.3 * 6 / 9))
        let w = Dictionary(uniqueKeysWithValues: index.search("wroclawiu ").map { ($0.id, $0.score) })
        #expect(nearlyEqual(try #require(w[5]) / (try #require(w[4])), 0.5))
    }

    @Test func fieldWeightsDecide() {
        let docs: [(id: Int32, fields: [String])] = [(1, ["Rescue Centre", "Cats"]), (2, ["Cats Centre", "Rescue"])]
        #expect(TextIndex(fieldWeights: [3, 1], documents: docs).search("rescue").map(\.id) == [1, 2])
        #expect(TextIndex(fieldWeights: [1, 3], documents: docs).search("rescue").map(\.id) == [2, 1])
    }

    @Test func bm25fByHand() throws {
        let index = TextIndex(fieldWeights: [1], documents: [(1, ["a b"]), (2, ["a"]), (3, ["c"])])
        // N = 3, df(b) = 1, mean length 4/3, document 1 has length 2.
        let idf = log(1 + (3 - 1 + 0.5) / (1 + 0.5))
        let tf = 1 / (0.25 + 0.75 * 2 / (4.0 / 3))
        let expected = idf * 2.2 * tf / (1.2 + tf)
        let got = try #require(index.search("b").first)
        #expect(got.id == 1 && nearlyEqual(got.score, expected))
        // A word in every document still scores (idf stays positive), shorter documents higher.
        #expect(index.search("a ").map(\.id) == [2, 1])
    }

    @Test func tiesBreakByIdAndZeroWeightFieldsStillMatch() {
        let index = TextIndex(fieldWeights: [1, 0], documents: [
            (20, ["Dog Home", ""]), (10, ["Dog Home", ""]), (-5, ["Dog Home", ""]), (7, ["Cat", "dog"]),
        ])
        let r = index.search("dog ")
        #expect(r.map(\.id) == [-5, 10, 20, 7])
        #expect(r[0].score == r[1].score && r[1].score == r[2].score)
        #expect(r[3].score == 0)
    }

    @Test func missingFieldsAreEmptyAndCountsAreReported() {
        let index = TextIndex(fieldWeights: [1, 1], documents: [(1, ["only name"]), (2, [])])
        #expect(index.search("name").map(\.id) == [1])
        #expect(index.documentCount == 2 && index.termCount == 2)
        let empty = TextIndex(fieldWeights: [1], documents: [])
        #expect(empty.search("anything").isEmpty && empty.documentCount == 0 && empty.termCount == 0)
    }

    // MARK: Against the oracle on random corpora

    /// Words over a tiny alphabet (after folding: a b c d e l) with lengths 1–11, so exact,
    /// prefix, one-edit and two-edit matches are all common.
    static let letters = ["a", "b", "c", "d", "ą", "Ł", "é", "B"]

    static func word(_ rng: inout SplitMix64, _ lengths: ClosedRange<Int> = 1...11) -> String {
        (0..<rng.int(lengths)).map { _ in rng.pick(letters) }.joined()
    }

    static func mutate(_ w: String, _ rng: inout SplitMix64) -> String {
        var s = Array(TextFolding.fold(w).unicodeScalars).map(String.init)
        for _ in 0..<rng.int(1...3) {
            switch rng.int(0...3) {
            case 0 where !s.isEmpty: s.remove(at: rng.int(0...(s.count - 1)))
            case 1: s.insert(rng.pick(letters), at: rng.int(0...s.count))
            case 2 where !s.isEmpty: s[rng.int(0...(s.count - 1))] = rng.pick(letters)
            case 3 where s.count >= 2:
                let i = rng.int(0...(s.count - 2))
                s.swapAt(i, i + 1)
            default: break
            }
        }
        return s.joined()
    }

    /// An index laid out from a corpus's tokens equals, array for array, the index built from
    /// the same documents' texts, while the corpus keeps words of documents since dropped
    /// (a kind's records across writes: some replaced, some added).
    @Test func indexesFromACorpusEqualIndexesFromTexts() async {
        await propertyCheck(count: 100, input: Gen.int(in: 0...Int(Int32.max))) { seed in
            var rng = SplitMix64(seed: Int(seed))
            let fieldCount = rng.int(1...3)
            let weights = (0..<fieldCount).map { _ in rng.pick([0, 0.5, 1, 2, 3]) }
            let corpus = TextCorpus(fieldCount: fieldCount)
            func randomFields() -> [String] {
                (0..<rng.int(0...fieldCount)).map { _ in
                    (0..<rng.int(0...6)).map { _ in Self.word(&rng) }.joined(separator: rng.pick([" ", ", ", "-", " '"]))
                }
            }
            var live: [(id: Int32, fields: [String], tokens: TextTokens)] = []
            var next: Int32 = 0
            var log = FailureLog()
            for round in 0..<6 {
                // Drop some documents, replace some, add some: their words stay in the corpus.
                live = live.filter { _ in rng.int(0...4) > 0 }
                for _ in 0..<rng.int(0...8) {
                    let fields = randomFields()
                    live.append((next, fields, corpus.tokens(fields)))
                    next += 1
                }
                live.shuffle(using: &rng)
                let built = TextIndex(fieldWeights: weights, documents: live.map { ($0.id, $0.fields) })
                let laidOut = TextIndex(fieldWeights: weights, corpus: corpus, documents: live.map { ($0.id, $0.tokens) })
                log.check(built.ids == laidOut.ids && built.postingStarts == laidOut.postingStarts
                          && built.postingDocs == laidOut.postingDocs && built.postingValues == laidOut.postingValues,
                          "seed \(seed) round \(round): postings differ")
                log.check(built.vocabulary.scalars == laidOut.vocabulary.scalars && built.vocabulary.starts == laidOut.vocabulary.starts,
                          "seed \(seed) round \(round): vocabularies differ")
            }
            #expect(log.isEmpty, "\(log.summary)")
        }
    }

    /// Up to 25 documents of up to 3 fields of random words, with ids unique in −20…40, and
    /// the fields' weights.
    static func randomCorpus(_ rng: inout SplitMix64) -> (weights: [Double], docs: [(id: Int32, fields: [String])]) {
        let fieldCount = rng.int(1...3)
        let weights = (0..<fieldCount).map { _ in rng.pick([0, 0.5, 1, 2, 3]) }
        var ids = Array(Int32(-20)...Int32(40))
        ids.shuffle(using: &rng)
        let docs: [(id: Int32, fields: [String])] = (0..<rng.int(0...25)).map { i in
            let fields = (0..<rng.int(0...fieldCount)).map { _ in
                (0..<rng.int(0...6)).map { _ in Self.word(&rng) }.joined(separator: rng.pick([" ", ", ", "-", " '"]))
            }
            return (ids[i], fields)
        }
        return (weights, docs)
    }

    @Test func matchesTheBruteForceOracleOnRandomCorpora() async {
        await propertyCheck(count: 150, input: Gen.int(in: 0...Int(Int32.max))) { seed in
            var rng = SplitMix64(seed: Int(seed))
            let (weights, docs) = Self.randomCorpus(&rng)
            let index = TextIndex(fieldWeights: weights, documents: docs)
            let oracle = BruteForceSearch(fieldWeights: weights, documents: docs)
            let corpusWords = oracle.fields.flatMap { $0.flatMap { $0 } }
            var log = FailureLog()
            for _ in 0..<12 {
                let query = (0..<rng.int(1...3)).map { _ -> String in
                    guard !corpusWords.isEmpty else { return Self.word(&rng) }
                    let w = rng.pick(corpusWords)
                    switch rng.int(0...3) {
                    case 0: return w
                    case 1: return Self.mutate(w, &rng)
                    case 2:
                        var p = ""
                        p.unicodeScalars.append(contentsOf: w.unicodeScalars.prefix(rng.int(1...w.unicodeScalars.count)))
                        return p
                    default: return Self.word(&rng)
                    }
                }.joined(separator: " ") + rng.pick(["", "", " ", "."])
                let expected = oracle.search(query)
                let results = index.search(query)
                let got = Dictionary(uniqueKeysWithValues: results.map { ($0.id, $0.score) })
                log.check(Set(got.keys) == Set(expected.keys),
                          "\(query.debugDescription): ids \(got.keys.sorted()) expected \(expected.keys.sorted())")
                for (id, s) in expected where got[id] != nil {
                    log.check(nearlyEqual(got[id]!, s), "\(query.debugDescription): id \(id) scored \(got[id]!), expected \(s)")
                }
                log.check(zip(results, results.dropFirst()).allSatisfy { $0.score > $1.score || ($0.score == $1.score && $0.id < $1.id) },
                          "\(query.debugDescription): results out of order")
                log.check(index.scores(query) == got, "\(query.debugDescription): scores differ from search")
                for m in results.prefix(3) {
                    log.check(index.explain(query, id: m.id)?.score == m.score, "\(query.debugDescription): explanation of \(m.id) disagrees")
                }
            }
            #expect(log.isEmpty, "seed \(seed):\n\(log.summary)")
        }
    }

    /// ``WordMatching/most`` against its brute-force reading, with some corpus words as stop
    /// words: the same documents, relevances, ranks and matched words.
    @Test func mostWordsMatchesTheBruteForceOracle() async {
        await propertyCheck(count: TestScale.count(short: 60, full: 200), input: Gen.int(in: 0...Int(Int32.max))) { seed in
            var rng = SplitMix64(seed: Int(seed))
            let (weights, docs) = Self.randomCorpus(&rng)
            let oracle = BruteForceSearch(fieldWeights: weights, documents: docs)
            let corpusWords = oracle.fields.flatMap { $0.flatMap { $0 } }
            let stop = Set(corpusWords.isEmpty ? [] : (0..<rng.int(0...3)).map { _ in rng.pick(corpusWords) })
            let language = TextLanguage(stopWords: stop, forms: nil)
            let index = TextIndex(fieldWeights: weights, documents: docs, language: language)
            var log = FailureLog()
            for _ in 0..<12 {
                let query = (0..<rng.int(1...5)).map { _ -> String in
                    guard !corpusWords.isEmpty else { return Self.word(&rng) }
                    let w = rng.pick(corpusWords)
                    switch rng.int(0...3) {
                    case 0: return w
                    case 1: return Self.mutate(w, &rng)
                    case 2: return rng.pick(Array(stop) + [w])
                    default: return Self.word(&rng)
                    }
                }.joined(separator: " ") + rng.pick(["", "", " ", "."])
                let expected = oracle.searchMost(query, stopWords: stop)
                let m = index.matches(TextQuery(query, language: language), words: .most)
                log.check(Set(m.scores.ids) == Set(expected.keys) && m.scores.ids.count == expected.count,
                          "\(query.debugDescription): ids \(m.scores.ids.sorted()) expected \(expected.keys.sorted())")
                for (id, e) in expected {
                    guard let g = m.scores[id] else { continue }
                    log.check(nearlyEqual(g.relevance, e.relevance) && nearlyEqual(g.rank, e.rank),
                              "\(query.debugDescription): id \(id) scored \(g.relevance)/\(g.rank), expected \(e.relevance)/\(e.rank)")
                    log.check(Set(m.words(matchedBy: g)) == e.matched, "\(query.debugDescription): id \(id) matched \(m.words(matchedBy: g))")
                }
                let words = TextFolding.words(query)
                log.check(m.hasOnlyStopWords == (!words.isEmpty && words.allSatisfy(stop.contains)), "\(query.debugDescription): only stop words")
            }
            #expect(log.isEmpty, "seed \(seed):\n\(log.summary)")
        }
    }
}
