// What a text index knows about the languages it reads: the stop words a sentence can lose
// first, and the base forms that let an inflected word find the others.


/// The words of English and Polish that matching treats specially: stop words (left out
/// first when not every word can be matched, see ``WordMatching``) and base forms
/// (``WordForms``: a word also matches the words that share one of its base forms, below an
/// exact match).
///
/// ```swift
/// let language = TextLanguage(stopWords: ["my", "the", "do", "dla"], forms: try WordForms.load())
/// let index = TextIndex(fieldWeights: [1], documents: [(id: 1, fields: ["Szczeniaki do adopcji"])], language: language)
/// index.search("szczeniak").map(\.id)   // [1]: "szczeniaki" has the base form "szczeniak"
/// ```
public struct TextLanguage: Sendable {
    /// Folded stop words.
    public let stopWords: Set<String>
    /// Base forms of words; `nil` matches words as written only.
    public let forms: WordForms?

    /// A language of these stop words (folded on the way in) and forms.
    public init(stopWords: some Sequence<String>, forms: WordForms?) {
        var folded = Set<String>()
        for w in stopWords { for f in TextFolding.words(w) { folded.insert(f) } }
        self.stopWords = folded
        self.forms = forms
    }

    /// No stop words and no base forms: words match as written.
    public static let plain = TextLanguage(stopWords: [], forms: nil)

    /// English and Polish: ``StopWords`` and the ``WordForms`` of a Polish dictionary (an
    /// error when it is missing, naming the file and the package that installs it).
    public static func standard(polishDictionary: String = WordForms.defaultPolishDictionary) throws(WordFormsError) -> TextLanguage {
        TextLanguage(stopWords: standardStopWords, forms: try WordForms.load(polishDictionary: polishDictionary))
    }

    private static let standardStopWords = TextLanguage(stopWords: StopWords.english + StopWords.polish, forms: nil).stopWords
}

/// A query's text as the index matches it: the words after synonyms (``SynonymTable/canonical(_:)``),
/// folded, each with its base forms and whether it is a stop word.
///
/// Built once per request and matched against any index of the same language.
public struct TextQuery: Sendable, Equatable {
    /// The folded words, in query order.
    public let words: [String]
    /// Each word's base forms (``WordForms/forms(of:)``), possibly the word itself.
    public let forms: [[String]]
    /// Whether each word is a stop word of the language.
    public let isStopWord: [Bool]
    /// Whether the last word may complete a longer term: the text does not end in a space, and
    /// the word is not a whole word of a synonym group.
    public let prefixAllowed: Bool

    /// The query of `text` in `language`: phrases put in their synonym group's first phrase,
    /// words folded; each word's base forms come from the word as written (diacritics kept,
    /// for Polish), or from its folded form for a word a synonym put in.
    ///
    /// - Complexity: O(*n*) in the text's length, plus a ``WordForms`` lookup per word.
    public init(_ text: String, synonyms: SynonymTable = .empty, language: TextLanguage = .plain) {
        var source = text
        let written = language.forms == nil ? [:] : TextQuery.writtenForms(text)
        if let wordForms = language.forms, !written.isEmpty {
            // A word written with diacritics whose base form is in another synonym group
            // than its folded spelling takes that group ("małe" → "mały" → small, not "male").
            var changed = false
            var folded = TextFolding.words(text)
            for i in folded.indices {
                guard let w = written[folded[i]] else { continue }
                let own = synonyms.canonical(ofWord: folded[i])
                if let group = wordForms.forms(of: w).lazy.filter({ $0 != folded[i] }).compactMap({ synonyms.canonical(ofWord: $0) }).first,
                   group != own {
                    folded[i] = group
                    changed = true
                }
            }
            if changed { source = folded.joined(separator: " ") }
        }
        let canonical = synonyms.canonicalWords(source)
        var words = canonical.map(\.word)
        // Words a synonym put in are never stop words ("off her food" → "wont eat").
        var fromGroup = canonical.map(\.fromGroup)
        var forms = [[String]](repeating: [], count: words.count)
        if let wordForms = language.forms {
            forms = words.map { wordForms.forms(of: written[$0] ?? $0) }
            // A word outside every synonym group whose base form is in one ("czekoladę" →
            // "czekolada" → "chocolate"), or that no dictionary knows and that is a typo of
            // one group's word ("vomitting" → "vomiting"), is put in the group's first phrase.
            var i = 0
            while i < words.count {
                if !fromGroup[i], synonyms.canonical(ofWord: words[i]) == nil,
                   let phrase = forms[i].lazy.compactMap({ synonyms.canonical(ofWord: $0) }).first
                    ?? (wordForms.isKnownWord(written[words[i]] ?? words[i]) ? nil : synonyms.canonical(nearWord: words[i])) {
                    let put = phrase.split(separator: " ").map(String.init)
                    words.replaceSubrange(i...i, with: put)
                    forms.replaceSubrange(i...i, with: put.map { wordForms.forms(of: $0) })
                    fromGroup.replaceSubrange(i...i, with: put.map { _ in true })
                    i += put.count
                } else {
                    i += 1
                }
            }
        }
        self.words = words
        self.forms = forms
        isStopWord = words.indices.map { !fromGroup[$0] && language.stopWords.contains(words[$0]) }
        // The last word completes a longer term only as typed, and not when it is a whole word
        // of a synonym group ("pies" is a dog, not the start of "dogaduje").
        prefixAllowed = !(text.unicodeScalars.last?.properties.isWhitespace ?? true)
            && words.last.map { synonyms.canonical(ofWord: $0) == nil } ?? false
    }

    /// The words of `text` whose letters are not all ASCII, lower-cased as written, by their
    /// folded form (the others are written as they fold).
    static func writtenForms(_ text: String) -> [String: String] {
        var out: [String: String] = [:]
        var word = String.UnicodeScalarView()
        var ascii = true
        func close() {
            if !ascii, !word.isEmpty {
                let w = String(word).lowercased()
                let f = TextFolding.words(w)
                if f.count == 1 { out[f[0]] = w }
            }
            word.removeAll()
            ascii = true
        }
        for u in text.unicodeScalars {
            switch u.value {
            case 0x27, 0x2018, 0x2019, 0x02BC: continue  // apostrophes: the word goes on
            case 0x30...0x39, 0x41...0x5A, 0x61...0x7A: word.append(u); continue
            case 0..<0x80: close(); continue
            default: break
            }
            let p = u.properties
            if p.isAlphabetic || p.numericType == .decimal || p.generalCategory == .nonspacingMark || p.generalCategory == .spacingMark {
                word.append(u)
                if u.value >= 0x80 { ascii = false }
            } else {
                close()
            }
        }
        close()
        return out
    }
}
