import Foundation
@testable import ScoutEngine
import ScoutCatalog
import ScoutCore
import ScoutTestSupport
import ScoutText
import Testing

/// Text search the way people type it, over the sample catalogue: sentences with words the
/// records do not use, Polish inflections, species words, stop words and any Unicode.
/// Expectations come from the sample records read with Foundation (`CallsSample`), never
/// from an earlier answer.
@Suite struct SentenceSearchTests {
    typealias S = CallsSample

    func search(_ kind: String, _ text: String, limit: Int = 10, words: WordMatching = .most,
                area: SearchArea? = nil) throws -> SearchResult {
        var q = SearchQuery(kind: RecordKind(kind), area: area, limit: limit, text: text)
        q.words = words
        return try S.engine.search(q)
    }

    /// Every hit of a query, page by page.
    func all(_ kind: String, _ text: String) throws -> [SearchHit] {
        var hits: [SearchHit] = [], after: String?
        repeat {
            let page = try S.engine.search(SearchQuery(kind: RecordKind(kind), area: nil, limit: 1000, text: text, after: after))
            hits += page.hits
            after = page.nextAfter
        } while after != nil
        return hits
    }

    @Test func ownersSentencesFindTheirArticle() throws {
        let cases = [
            ("my dog wolfed a whole bar of dark chocolate", "article-ate-chocolate"),
            ("help our spaniel swallowed a sock this morning", "article-swallowed-object"),
            ("the cat has been throwing up hairballs all week", "article-hairball"),
            ("mój pies zjadł czekoladę", "article-ate-chocolate"),
        ]
        for (text, article) in cases {
            let r = try search("article", text)
            #expect(r.hits.prefix(3).contains { $0.id == article }, "\(text): \(r.hits.prefix(3).map(\.id))")
            #expect(try search("article", text, words: .all).total == 0, "strict AND finds nothing for \(text)")
        }
    }

    @Test func hitsSayWhatTheyMatchedAndTheAnswerWhatWasDropped() throws {
        let r = try search("article", "my dog wolfed a whole bar of dark chocolate", limit: 3)
        let top = try #require(r.hits.first { $0.id == "article-ate-chocolate" })
        #expect(top.matchedWords.contains("chocolate") && top.matchedWords.contains("dog"))
        #expect(r.droppedWords.contains("my") && r.droppedWords.contains("a") && r.droppedWords.contains("of"))
        #expect(!r.droppedWords.contains("chocolate"))
        for h in r.hits { #expect(!h.matchedWords.isEmpty && h.relevance != nil) }
        // Strict AND: every word matched, nothing dropped.
        let strict = try search("article", "dog ate chocolate", words: .all)
        #expect(strict.total > 0 && strict.droppedWords.isEmpty)
        for h in strict.hits { #expect(h.matchedWords == ["dog", "ate", "chocolate"]) }
    }

    @Test func onlyStopWordsIsOkWithNoResultsAndANote() throws {
        for text in ["the and of", "i w na", "   a   "] {
            let r = try search("article", text)
            #expect(r.total == 0 && r.hits.isEmpty)
            #expect(r.note?.contains("only stop words") == true, "\(text): \(String(describing: r.note))")
        }
    }

    @Test func aSpeciesWordRanksThatSpeciesFirst() throws {
        for (text, species) in [("pies", "dog"), ("psy", "dog"), ("kot", "cat"), ("koty", "cat"), ("królik", "rabbit")] {
            let hits = try all("animal", text)
            let bySpecies = Dictionary(uniqueKeysWithValues: S.animals.map { (S.id($0), S.string($0, "species")!) })
            let count = S.animals.filter { S.string($0, "species") == species }.count
            #expect(hits.count >= count)
            let firstOther = hits.firstIndex { bySpecies[$0.id] != species } ?? hits.count
            #expect(firstOther == count, "\(text): every \(species) (\(count)) before any other record; first other at \(firstOther)")
        }
    }

    @Test func inflectedPolishFindsItsRecords() throws {
        let cases: [(String, (RawRecord) -> Bool)] = [
            ("małe psy", { S.string($0, "species") == "dog" && S.string($0, "size") == "small" }),
            ("młode koty", { S.string($0, "species") == "cat" && S.number($0, "age_years")! < 2 }),
            ("kot do adopcji", { S.string($0, "species") == "cat" && S.bool($0, "adoptable") == true }),
            ("duży pies", { S.string($0, "species") == "dog" && S.string($0, "size") == "large" }),
            ("szczeniaki", { S.string($0, "species") == "dog" && S.number($0, "age_years")! < 1 }),
            ("koty w Krakowie", { S.string($0, "species") == "cat" && S.string($0, "town") == "Kraków" }),
        ]
        for (text, wanted) in cases {
            // The first hits, as many as there are wanted records (at most 10), are all wanted.
            let n = min(10, S.animals.filter(wanted).count)
            #expect(n > 0)
            for id in try search("animal", text, limit: n).hits.map(\.id) {
                let a = S.animals.first { S.id($0) == id }!
                #expect(wanted(a), "\(text): \(id) is a \(S.string(a, "size") ?? "") \(S.string(a, "species") ?? "") in \(S.string(a, "town") ?? "")")
            }
        }
    }

    @Test func anyUnicodeFoldsWithoutError() async throws {
        let pieces = ["🐕", "🐈‍⬛", "e\u{301}", "\u{301}\u{302}", "日本語", "Ωμέγα", "кошка", "ąęółżź", "ﬁ", "İ", "\u{200D}", "\u{FEFF}",
                      "a\u{0}b", "ß", "👩🏽‍⚕️", "عربي", "\u{10FFFF}", "  ", "'", "-", "pies", "dog", "the"]
        var rng = SplitMix64(seed: 3636)
        for _ in 0..<TestScale.count(short: 150, full: 1500) {
            var text = ""
            for _ in 0..<rng.int(1...12) { text += rng.pick(pieces) + rng.pick(["", " "]) }
            guard text.utf8.count <= 1000 else { continue }
            for kind in ["article", "animal"] {
                let r = try search(kind, text, limit: 5)
                #expect(r.hits.count <= 5)
            }
        }
        let long = String(repeating: "pies ", count: 201)
        #expect(throws: ScoutError.self) { try search("animal", long) }
    }

    @Test func pagesOfMostWordsEqualTheWholeAnswer() throws {
        for text in ["my dog ate something bad", "mały pies do adopcji", "cat vomiting grass"] {
            for kind in ["article", "animal"] {
                let whole = try search(kind, text, limit: 140)
                var paged: [String] = [], after: String?
                repeat {
                    var q = SearchQuery(kind: RecordKind(kind), area: nil, limit: 7, text: text, after: after)
                    q.words = .most
                    let page = try S.engine.search(q)
                    #expect(page.total == whole.total)
                    paged += page.hits.map(\.id)
                    after = page.nextAfter
                } while after != nil && paged.count < whole.hits.count
                #expect(paged == whole.hits.map(\.id), "\(kind) \(text): pages of 7 differ from the first \(whole.hits.count)")
            }
        }
    }

    @Test func anAreaKeepsTheRecordsThatMatchSomeWordsThere() throws {
        // Shelters near Wrocław for a sentence no shelter matches word for word.
        let wroclaw = GeoPoint(lat: 51.10286, lon: 17.03006)
        let r = try search("shelter", "schronisko dla psów we Wrocławiu", area: .radius(center: wroclaw, meters: 50_000))
        #expect(r.total > 0)
        let near = S.shelters.filter { s in
            let a = s["address"] as! [String: Any]
            return (a["town"] as? String) == "Wrocław"
        }.map(S.id)
        #expect(near.isEmpty || near.contains(r.hits[0].id), "a shelter in Wrocław first: \(r.hits.prefix(3).map(\.id))")
    }
}
