import Testing
@testable import ScoutText

/// Base forms through the real libraries: Snowball's English stemmer and Hunspell's Polish
/// dictionary (installed by scripts/setup.sh).
@Suite struct WordFormsTests {
    static let forms = try! WordForms.load()

    @Test func polishFormsComeFromHunspellWithTheirDiacritics() {
        #expect(Self.forms.forms(of: "psy").contains("pies"))
        #expect(Self.forms.forms(of: "psów").contains("pies"))
        #expect(Self.forms.forms(of: "adopcji").contains("adopcja"))
        #expect(Self.forms.forms(of: "małe").contains("maly"), "\(Self.forms.forms(of: "małe"))")
        #expect(Self.forms.forms(of: "młode").contains("mlody"), "\(Self.forms.forms(of: "młode"))")
        #expect(Self.forms.forms(of: "kotów").contains("kot"))
        #expect(Self.forms.forms(of: "szczeniaki").contains("szczeniak"))
    }

    @Test func englishFormsAreSnowballStems() {
        #expect(Self.forms.forms(of: "swallowed").first == "swallow")
        #expect(Self.forms.forms(of: "hairballs").first == "hairbal")
        #expect(Self.forms.forms(of: "vomiting").first == "vomit")
        #expect(Self.forms.forms(of: "dog") == ["dog"] || Self.forms.forms(of: "dog").first == "dog")
    }

    @Test func oddWordsGiveNoFormsAndNeverFail() {
        #expect(Self.forms.forms(of: "").isEmpty)
        #expect(Self.forms.forms(of: "two words").isEmpty)
        for w in ["🐕", "ʼ", "e\u{301}\u{301}", "日本語", "Ωμέγα", String(repeating: "ą", count: 300), "x\u{0}y"] {
            _ = Self.forms.forms(of: w)
        }
    }

    @Test func aMissingDictionaryIsAClearError() {
        #expect(throws: WordFormsError.self) { try WordForms.load(polishDictionary: "/nonexistent/pl_PL") }
        do { _ = try WordForms.load(polishDictionary: "/nonexistent/pl_PL") } catch {
            #expect(error.message.contains("/nonexistent/pl_PL.aff"))
            #expect(error.message.contains("hunspell-pl"))
        }
    }
}
