import PropertyBased
@testable import ScoutText
import Testing

@Suite struct FoldingTests {
    // Expected folds written by hand from the rules in TextFolding's documentation.
    @Test(arguments: [
        ("Wrocław", "wroclaw"),
        ("Baile Átha Cliath", "baile atha cliath"),
        ("Łódź", "lodz"),
        ("Zoë", "zoe"),
        ("Oisín", "oisin"),
        ("Gdańsk", "gdansk"),
        ("Schronisko dla Zwierząt we Wrocławiu", "schronisko dla zwierzat we wroclawiu"),
        // Polish letters, lower and upper case.
        ("ą ć ę ł ń ó ś ź ż", "a c e l n o s z z"),
        ("Ą Ć Ę Ł Ń Ó Ś Ź Ż", "a c e l n o s z z"),
        ("ZAŻÓŁĆ GĘŚLĄ JAŹŃ", "zazolc gesla jazn"),
        // Irish fadas.
        ("Á É Í Ó Ú á é í ó ú", "a e i o u a e i o u"),
        ("Dún Laoghaire", "dun laoghaire"),
        ("Seán Ó Súilleabháin", "sean o suilleabhain"),
        // German, Danish, Norwegian, Icelandic, Croatian, Turkish, French, Maltese.
        ("Straße", "strasse"),
        ("GROẞ", "gross"),
        ("Ærø", "aero"),
        ("Øresund Æble", "oresund aeble"),
        ("Þórður Guðmundsson", "thordur gudmundsson"),
        ("Đakovo", "dakovo"),
        ("Iğdır", "igdir"),
        ("İstanbul", "istanbul"),
        ("Cœur Œuvre", "coeur oeuvre"),
        ("Ħamrun", "hamrun"),
        ("Kĸ", "kk"),
        // Apostrophes vanish, the word continues.
        ("O'Brien", "obrien"),
        ("O’Brien’s Dogs", "obriens dogs"),
        ("l'Hôpital", "lhopital"),
        // Everything else is one boundary; digits are kept.
        ("Dogs-Trust, Dublin (Ireland)!", "dogs trust dublin ireland"),
        ("Route 66 / A1", "route 66 a1"),
        ("  a \t\n b  ", "a b"),
        ("a\u{00A0}b\u{2014}c\u{2026}", "a b c"),
        ("e-mail: info@dogstrust.ie", "e mail info dogstrust ie"),
        ("½ price", "price"),
        ("", ""),
        ("!!! ... ---", ""),
        // Already decomposed input folds like precomposed input.
        ("Zoe\u{0308} Wroc\u{0142}aw Ga\u{0301}", "zoe wroclaw ga"),
        // Non-Latin scripts keep their letters, lower-cased.
        ("ΣΊΣΥΦΟΣ", "σισυφοσ"),
        ("Москва Ёлка", "москва елка"),
        ("東京 2024", "東京 2024"),
    ])
    func folds(_ input: String, _ expected: String) {
        #expect(TextFolding.fold(input) == expected)
    }

    @Test func wordsSplitTheFoldWithoutEmptyWords() {
        #expect(TextFolding.words("  Dogs  Trust, Dublin ") == ["dogs", "trust", "dublin"])
        #expect(TextFolding.words("O'Brien’s Łódź") == ["obriens", "lodz"])
        #expect(TextFolding.words("") == [])
        #expect(TextFolding.words(" - ") == [])
        // A spacing mark (Mc) stays inside its word, so an Indic word is not split.
        #expect(TextFolding.words("हिन्दी भाषा").count == 2)
    }

    /// Strings built from a pool of pieces that exercise every path of the folding.
    static let pieces: [String] = [
        "a", "Z", "7", " ", "  ", "-", ",", "'", "’", "ł", "Ł", "ß", "ẞ", "Æ", "ø", "đ", "Ð", "þ", "ı", "İ",
        "é", "É", "e\u{0301}", "\u{0308}", "ą", "Ż", "ñ", "Ω", "Σ", "ς", "д", "Ё", "東", "ह", "ि", "्", "\u{00A0}",
        "\u{2014}", "½", "€", "ǅ", "ﬁ", "\u{302E}", "a\u{0323}\u{0302}", "ệ", "\u{1D165}", "\t",
    ]

    static let pieceStrings = Gen<Int>.int(in: 0...(pieces.count - 1)).array(of: 0...14)
        .map { $0.map { pieces[$0] }.joined() }

    @Test func foldIsIdempotentAndWellFormed() async {
        await propertyCheck(count: 400, input: Self.pieceStrings) { s in
            let f = TextFolding.fold(s)
            #expect(TextFolding.fold(f) == f, "fold is not idempotent on \(s.debugDescription)")
            // Scalar-level checks: a spacing mark after a space joins it in one Character.
            let u = Array(f.unicodeScalars)
            #expect(u.first != " " && u.last != " " && !zip(u, u.dropFirst()).contains { $0 == " " && $1 == " " },
                    "bad spacing in \(f.debugDescription)")
            #expect(!f.unicodeScalars.contains { $0.properties.changesWhenLowercased }, "upper case left in \(f.debugDescription)")
            #expect(!f.unicodeScalars.contains { $0.properties.generalCategory == .nonspacingMark },
                    "a non-spacing mark is left in \(f.debugDescription)")
            #expect(TextFolding.words(s) == f.unicodeScalars.split(separator: " ").map { String(String.UnicodeScalarView($0)) })
        }
    }

    /// The table path and the ASCII path must give exactly what the full decomposition path gives.
    @Test func fastPathsAgreeWithTheFullPath() async {
        await propertyCheck(count: 400, input: Self.pieceStrings) { s in
            var fast = FoldedWords()
            fast.append(s)
            var full = FoldedWords()
            full.appendDecomposing(s)
            #expect(fast.scalars == full.scalars && fast.ends == full.ends, "paths differ on \(s.debugDescription)")
        }
        // Every scalar of the table's ranges, alone and between letters.
        var mismatches: [UInt32] = []
        for v in UInt32(0x80)..<0x2070 {
            guard let u = Unicode.Scalar(v) else { continue }
            var s = "x"
            s.unicodeScalars.append(u)
            s += "y"
            var fast = FoldedWords(), full = FoldedWords()
            fast.append(s)
            full.appendDecomposing(s)
            if fast.scalars != full.scalars || fast.ends != full.ends { mismatches.append(v) }
        }
        #expect(mismatches.isEmpty, "table disagrees for \(mismatches.prefix(10).map { String($0, radix: 16) })")
    }
}
