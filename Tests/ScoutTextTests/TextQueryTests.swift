import Testing
@testable import ScoutText

/// A query's words as the index reads them (synonyms, base forms, stop words, typos), and
/// the most-words rule on a small hand-written corpus, with the real dictionaries.
@Suite struct TextQueryTests {
    static let language = try! TextLanguage.standard()
    static let synonyms = SynonymTable(groups: [
        ["vomiting", "threw up", "being sick", "sick"], ["small", "mały", "little"], ["male", "samiec"],
        ["won't eat", "off her food", "not eating"], ["chocolate", "czekolada"],
    ])

    func query(_ text: String) -> TextQuery { TextQuery(text, synonyms: Self.synonyms, language: Self.language) }

    @Test func stopWordsAreMarkedAndSynonymWordsNeverAre() {
        let q = query("my cat has gone off her food")
        #expect(q.words == ["my", "cat", "has", "gone", "wont", "eat"])
        #expect(q.isStopWord == [true, false, true, false, false, false], "\"won't eat\" came from a synonym")
        #expect(query("the and of").isStopWord.allSatisfy { $0 })
    }

    @Test func polishWordsTakeTheGroupOfTheirBaseForm() {
        #expect(query("małe psy").words.first == "small", "małe → mały → small, not the folded \"male\"")
        #expect(query("male psy").words.first == "male", "typed without its diacritics it is the English word")
        #expect(query("pies zjadł czekoladę").words.contains("chocolate"), "czekoladę → czekolada → chocolate")
    }

    @Test func aTypoOfOneGroupsWordTakesThatGroup() {
        #expect(query("vomitting").words == ["vomiting"])
        #expect(query("chocolat").words == ["chocolate"])
        #expect(query("years").words == ["years"], "a dictionary word is not a typo")
    }

    @Test func theLastWordCompletesOnlyAsTyped() {
        #expect(query("schron").prefixAllowed)
        #expect(!query("schron ").prefixAllowed)
        #expect(!query("chocolate").prefixAllowed, "a whole word of a synonym group is not a prefix")
    }

    @Test func formsFindOtherInflectionsBelowTheExactWord() {
        let index = TextIndex(fieldWeights: [1], documents: [
            (1, ["Szczeniaki do adopcji"]), (2, ["Szczeniak szuka domu"]), (3, ["Dog swallowed a sock"]), (4, ["Dogs swallow socks"]),
        ], language: Self.language)
        #expect(index.search("szczeniak").map(\.id) == [2, 1], "the exact word first, then the other form")
        #expect(Set(index.search("swallowing").map(\.id)) == [3, 4])
        let e = index.explain("swallowing", id: 3)
        #expect(e?.words.first?.kind == .form && e?.words.first?.term == "~swallow")
    }

    @Test func mostWordsRanksCoverageAndSaysWhatMatched() {
        let index = TextIndex(fieldWeights: [3, 1], documents: [
            (1, ["My dog ate chocolate", "Cocoa is toxic to dogs"]),
            (2, ["My dog ate a sock", "A sock can block the gut"]),
            (3, ["Grapes and raisins", "Dogs and grapes do not mix"]),
        ], language: Self.language)
        let m = index.matches(query("help my dog wolfed a bar of chocolate"), words: .most)
        let ranked = (0..<m.scores.count).sorted { m.scores.score(at: $0).rank > m.scores.score(at: $1).rank }.map { m.scores.ids[$0] }
        #expect(ranked.first == 1)
        #expect(m.words(matchedBy: m.scores[1]!) == ["dog", "chocolate"])
        #expect(index.matches(query("help my dog wolfed a bar of chocolate"), words: .all).scores.isEmpty, "strict: every word")
        #expect(index.matches(query("the and of"), words: .most).hasOnlyStopWords)
    }
}
