// Base forms of words, so that an inflected word finds the records that use another form of
// it: English stems from Snowball's English stemmer (libstemmer), Polish base forms from
// Hunspell with Debian's Polish dictionary (hunspell-pl).
import CHunspell
import CStemmer
import Foundation  // FileManager (the dictionary's files), precomposed (NFC) words for Hunspell
import Synchronization

/// The base forms of words in English and Polish: Snowball's English stem and Hunspell's
/// Polish lemmas, folded (``TextFolding``).
///
/// ```swift
/// let forms = try WordForms.load()
/// forms.forms(of: "psów")       // ["psow", "pies"]: the English stem of the folded word, and the Polish lemma
/// forms.forms(of: "swallowed")  // ["swallow"]
/// ```
///
/// A word's forms always include its English stem (the word itself when Snowball leaves it
/// as it is) and, when the Polish dictionary knows the word, every Polish base form it gives
/// (several for an ambiguous form: "koty" → kot, kota, koty). Hunspell reads the word as
/// written, with its diacritics: "małe" is found, "male" is read as the English word.
///
/// ``isKnownWord(_:)`` tells whether the Polish or the British English dictionary knows a
/// word, so that a query can tell a typo from a word.
///
/// One instance per dictionary in a process (``load(polishDictionary:)``: the dictionaries take
/// about 0.3 s and 30 MB to load). Safe to use from any thread: the C libraries are called
/// under one lock, behind caches of the words already seen, bounded (``maximumCachedBytes``
/// for the forms, 100,000 words for spelling; when full they start again).
public final class WordForms: Sendable {
    /// Debian's Polish Hunspell dictionary, without the `.aff`/`.dic` extension.
    public static let defaultPolishDictionary = "/usr/share/hunspell/pl_PL"
    /// Debian's British English Hunspell dictionary (spelling only: is a word a word?).
    public static let englishDictionary = "/usr/share/hunspell/en_GB"
    /// The most bytes the cache of words seen holds (words, forms and a fixed overhead each).
    public static let maximumCachedBytes = 8 << 20

    /// The dictionary's path, as given.
    public let polishDictionary: String
    private let state: Mutex<State>

    private struct State: ~Copyable {
        let hunspell: OpaquePointer
        let english: OpaquePointer
        let stemmer: OpaquePointer
        /// UTF-8 to the dictionary's encoding and back; `nil` when the dictionary is UTF-8.
        let toDictionary: iconv_t?
        let fromDictionary: iconv_t?
        var cache: [String: [String]] = [:]
        var spelling: [String: Bool] = [:]
        var cachedBytes = 0
    }

    private static let loaded = Mutex<[String: WordForms]>([:])

    /// The process's forms for a Polish dictionary (`<path>.aff` and `<path>.dic`), loaded on
    /// first use. A missing or unreadable dictionary is an error naming the file and the
    /// package that installs it.
    public static func load(polishDictionary path: String = defaultPolishDictionary) throws(WordFormsError) -> WordForms {
        if let known = loaded.withLock({ $0[path] }) { return known }
        for ext in ["aff", "dic"] where !FileManager.default.isReadableFile(atPath: "\(path).\(ext)") {
            throw WordFormsError(message: "the Polish Hunspell dictionary \(path).\(ext) is missing or unreadable: install hunspell-pl "
                                 + "and libhunspell-dev (bash scripts/setup.sh)")
        }
        for ext in ["aff", "dic"] where !FileManager.default.isReadableFile(atPath: "\(englishDictionary).\(ext)") {
            throw WordFormsError(message: "the English Hunspell dictionary \(englishDictionary).\(ext) is missing or unreadable: "
                                 + "install hunspell-en-gb (bash scripts/setup.sh)")
        }
        let made = try WordForms(polishDictionary: path)
        return loaded.withLock { table in
            if let other = table[path] { return other }
            table[path] = made
            return made
        }
    }

    private init(polishDictionary path: String) throws(WordFormsError) {
        guard let h = Hunspell_create("\(path).aff", "\(path).dic") else {
            throw WordFormsError(message: "Hunspell could not read the dictionary \(path).aff / \(path).dic")
        }
        guard let english = Hunspell_create("\(Self.englishDictionary).aff", "\(Self.englishDictionary).dic") else {
            Hunspell_destroy(h)
            throw WordFormsError(message: "Hunspell could not read the dictionary \(Self.englishDictionary).aff / .dic")
        }
        guard let s = sb_stemmer_new("english", "UTF_8") else {
            Hunspell_destroy(h)
            Hunspell_destroy(english)
            throw WordFormsError(message: "Snowball has no English stemmer (libstemmer)")
        }
        let encoding = String(cString: Hunspell_get_dic_encoding(h))
        var to: iconv_t?, from: iconv_t?
        if encoding.uppercased() != "UTF-8" {
            let t = iconv_open(encoding, "UTF-8"), f = iconv_open("UTF-8", encoding)
            guard let t, let f, Int(bitPattern: t) != -1, Int(bitPattern: f) != -1 else {
                Hunspell_destroy(h)
                Hunspell_destroy(english)
                sb_stemmer_delete(s)
                throw WordFormsError(message: "iconv cannot convert between UTF-8 and \(encoding), the encoding of \(path).dic")
            }
            to = t
            from = f
        }
        polishDictionary = path
        state = Mutex(State(hunspell: h, english: english, stemmer: s, toDictionary: to, fromDictionary: from))
    }

    /// The folded base forms of a word (lower case, diacritics as written), distinct, in a
    /// fixed order: the English stem first, then the Polish lemmas as Hunspell gives them.
    /// Empty for a word that folds to nothing or to several words.
    ///
    /// - Complexity: a hash lookup for a word seen before; otherwise a call to each library
    ///   (about 6 µs for Hunspell, 0.2 µs for Snowball).
    public func forms(of word: String) -> [String] {
        state.withLock { s in
            if let known = s.cache[word] { return known }
            let computed = Self.compute(word, &s)
            let bytes = word.utf8.count + computed.reduce(0) { $0 + $1.utf8.count + 16 } + 64
            if s.cachedBytes + bytes > Self.maximumCachedBytes {
                s.cache.removeAll(keepingCapacity: true)
                s.cachedBytes = 0
            }
            s.cache[word] = computed
            s.cachedBytes += bytes
            return computed
        }
    }

    /// Whether either dictionary knows the word (lower case, diacritics as written), in any
    /// capitalisation Hunspell accepts: a word that is not one is likely a typo.
    ///
    /// - Complexity: a hash lookup for a word seen before; otherwise two Hunspell look-ups.
    public func isKnownWord(_ word: String) -> Bool {
        state.withLock { s in
            if let known = s.spelling[word] { return known }
            var known = false
            let written = word.precomposedStringWithCanonicalMapping
            for v in [written] + (Self.capitalised(written).map { [$0] } ?? []) where !known {
                if Hunspell_spell(s.english, v) != 0 { known = true }
                if !known, let z = Self.polishWord(v, s), Hunspell_spell(s.hunspell, z) != 0 { known = true }
            }
            if s.spelling.count >= 100_000 { s.spelling.removeAll(keepingCapacity: true) }
            s.spelling[word] = known
            return known
        }
    }

    private static func compute(_ word: String, _ s: inout State) -> [String] {
        let folded = TextFolding.words(word)
        guard folded.count == 1 else { return [] }
        var out: [String] = []
        var bytes = Array(folded[0].utf8)
        if let stem = sb_stemmer_stem(s.stemmer, &bytes, Int32(bytes.count)) {
            let n = Int(sb_stemmer_length(s.stemmer))
            out.append(String(decoding: UnsafeBufferPointer(start: stem, count: n), as: UTF8.self))
        }
        let written = word.precomposedStringWithCanonicalMapping
        for lemma in hunspellStems(written, &s) where !out.contains(lemma) { out.append(lemma) }
        if out.count < 2, let capital = capitalised(written) {
            // Place names are capitalised in the dictionary: "krakowie" is read as "Krakowie".
            for lemma in hunspellStems(capital, &s) where !out.contains(lemma) { out.append(lemma) }
        }
        return out
    }

    /// Hunspell's base forms of a word as written, folded.
    private static func hunspellStems(_ written: String, _ s: inout State) -> [String] {
        var out: [String] = []
        guard let z = polishWord(written, s) else { return out }
        var list: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
        let n = Hunspell_stem(s.hunspell, &list, z)
        if n > 0, let list {
            for i in 0..<Int(n) {
                guard let c = list[i] else { continue }
                let raw = Array(UnsafeBufferPointer(start: c, count: strlen(c))).map { UInt8(bitPattern: $0) }
                guard let utf8 = convert(raw, s.fromDictionary) else { continue }
                let lemma = TextFolding.words(String(decoding: utf8, as: UTF8.self))
                if lemma.count == 1, !out.contains(lemma[0]) { out.append(lemma[0]) }
            }
        }
        if list != nil { Hunspell_free_list(s.hunspell, &list, n) }
        return out
    }

    /// The word with its first letter upper-case, when that letter is lower-case.
    private static func capitalised(_ written: String) -> String? {
        guard let first = written.first, first.isLowercase else { return nil }
        return first.uppercased() + written.dropFirst()
    }

    /// The word in the Polish dictionary's encoding, NUL-terminated for Hunspell; nil when a
    /// character has no form there or the word is 100 bytes or more.
    private static func polishWord(_ written: String, _ s: borrowing State) -> [CChar]? {
        guard let encoded = convert(Array(written.utf8), s.toDictionary), encoded.count < 100 else { return nil }
        return encoded.map { CChar(bitPattern: $0) } + [0]
    }

    /// `bytes` converted by `cd` (unchanged when `cd` is nil); nil when a character has no
    /// form in the target encoding.
    private static func convert(_ bytes: [UInt8], _ cd: iconv_t?) -> [UInt8]? {
        guard let cd else { return bytes }
        _ = iconv(cd, nil, nil, nil, nil)
        var input = bytes.map { CChar(bitPattern: $0) }
        var output = [CChar](repeating: 0, count: bytes.count * 4 + 8)
        let written = input.withUnsafeMutableBufferPointer { ib -> Int? in
            output.withUnsafeMutableBufferPointer { ob -> Int? in
                var ip: UnsafeMutablePointer<CChar>? = ib.baseAddress, il = ib.count
                var op: UnsafeMutablePointer<CChar>? = ob.baseAddress, ol = ob.count
                guard iconv(cd, &ip, &il, &op, &ol) != -1 else { return nil }
                return ob.count - ol
            }
        }
        guard let written else { return nil }
        return output[..<written].map { UInt8(bitPattern: $0) }
    }
}

/// The word forms could not be set up (a dictionary missing or unreadable).
public struct WordFormsError: Error, Sendable, CustomStringConvertible {
    /// What is wrong, naming the file and what installs it.
    public let message: String
    /// The message.
    public var description: String { message }
}
