// Unicode folding for matching: one routine serves documents and queries, so both sides of
// a comparison are always folded by the same decisions.
import Foundation  // only for canonical decomposition (NFD) of non-ASCII text

/// Folds text into the lower-case, accent-free words that Scout matches on.
///
/// ```swift
/// TextFolding.fold("Schronisko dla Zwierząt we Wrocławiu")  // "schronisko dla zwierzat we wroclawiu"
/// TextFolding.words("O'Brien's Dogs-Trust, Łódź")          // ["obriens", "dogs", "trust", "lodz"]
/// ```
///
/// The rules, in order, for every Unicode scalar of the canonical decomposition (NFD):
/// 1. Apostrophes — `'` U+0027, `‘` U+2018, `’` U+2019 and `ʼ` U+02BC — are removed without
///    splitting the word ("O'Brien" → "obrien").
/// 2. Non-spacing and enclosing marks (general categories Mn, Me) are dropped: after NFD
///    these are the diacritics, so "Wrocław" → "wroclaw", "Átha" → "atha", "Zoë" → "zoe".
/// 3. Letters (L*), spacing marks (Mc, so Indic words stay whole) and decimal digits (Nd)
///    are kept, lower-cased by their full Unicode lower-case mapping.
/// 4. Letters that have no decomposition are replaced: ł→l, ß/ẞ→ss, æ→ae, œ→oe, ø→o, đ→d,
///    ð→d, þ→th, ı→i, ĸ→k, ħ→h, ŧ→t, ŀ→l, ĳ→ij, ſ→s, and Greek final ς→σ (upper-case
///    forms are lower-cased first, so Ł, Æ, Ø, Đ, Ð, Þ fold the same way).
/// 5. Every other scalar (spaces, punctuation, symbols, other numbers) is a word boundary.
///
/// The result has single spaces between words and none at either end.
public enum TextFolding {
    /// The folded form of `s`: lower-case words without diacritics, separated by single spaces.
    ///
    /// - Complexity: O(*n*) in the length of `s`; text that is all ASCII skips decomposition.
    public static func fold(_ s: String) -> String {
        var out = FoldedWords()
        out.append(s)
        var bytes: [UInt8] = []
        bytes.reserveCapacity(out.scalars.count + out.wordCount)
        for w in 0..<out.wordCount {
            if w > 0 { bytes.append(0x20) }
            for u in out.word(w) { appendUTF8(u, to: &bytes) }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The words of `fold(s)`, in order, never empty.
    ///
    /// - Complexity: O(*n*) in the length of `s`.
    public static func words(_ s: String) -> [String] {
        var out = FoldedWords()
        out.append(s)
        return (0..<out.wordCount).map { out.string(ofWord: $0) }
    }
}

// MARK: - Internal: folded words as flat scalar arrays

/// Folded words stored flat: the scalar values of all words back to back and the end offset
/// of each word. Building the index and evaluating queries use this form, never `String`.
struct FoldedWords {
    /// Scalar values of every word, concatenated.
    var scalars: [UInt32] = []
    /// `ends[w]` is one past the last scalar of word `w`.
    var ends: [Int32] = []
    /// True while the last appended scalar continues the current word.
    private var open = false

    var wordCount: Int { ends.count }

    func start(ofWord w: Int) -> Int { w == 0 ? 0 : Int(ends[w - 1]) }
    func word(_ w: Int) -> ArraySlice<UInt32> { scalars[start(ofWord: w)..<Int(ends[w])] }
    func string(ofWord w: Int) -> String {
        var bytes: [UInt8] = []
        for u in word(w) { appendUTF8(u, to: &bytes) }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Removes all words, keeping capacity.
    mutating func removeAll() {
        scalars.removeAll(keepingCapacity: true)
        ends.removeAll(keepingCapacity: true)
        open = false
    }

    /// Appends the folded words of `s` (a boundary always separates them from earlier words).
    ///
    /// Three paths give the same result: ASCII bytes directly; scalars of the common
    /// European, Greek and Cyrillic blocks and general punctuation through a table of their
    /// per-scalar folds; anything else by decomposing the whole string (Foundation) and
    /// folding scalar by scalar.
    mutating func append(_ s: String) {
        closeWord()
        var ascii = true
        for b in s.utf8 where b >= 0x80 { ascii = false; break }
        if ascii {
            for b in s.utf8 { appendASCII(b) }
        } else if !appendThroughTable(s) {
            appendDecomposing(s)
        }
        closeWord()
    }

    /// The full path: canonical decomposition of the whole string, then the folding rules.
    mutating func appendDecomposing(_ s: String) {
        for u in s.decomposedStringWithCanonicalMapping.unicodeScalars { appendScalar(u) }
        closeWord()
    }

    /// Folds `s` with ``FoldTable``; leaves everything as it was and returns false when a
    /// scalar is outside the table or needs the full path.
    private mutating func appendThroughTable(_ s: String) -> Bool {
        let scalarMark = scalars.count, endMark = ends.count
        let table = FoldTable.shared
        for u in s.unicodeScalars {
            let v = u.value
            if v < 0x80 { appendASCII(UInt8(v)); continue }
            let e = table.entry(v)
            switch e & 3 {
            case FoldTable.skip: break
            case FoldTable.boundary: closeWord()
            case FoldTable.emit:
                emit(UInt32(truncatingIfNeeded: e >> 8) & 0xFF_FFFF)
                if (e >> 2) & 3 == 2 { emit(UInt32(truncatingIfNeeded: e >> 32) & 0xFF_FFFF) }
            default:
                scalars.removeSubrange(scalarMark...)
                ends.removeSubrange(endMark...)
                open = false
                return false
            }
        }
        return true
    }

    private mutating func closeWord() {
        if open { ends.append(Int32(scalars.count)); open = false }
    }

    private mutating func emit(_ v: UInt32) {
        scalars.append(v); open = true
    }

    @inline(__always)
    private mutating func appendASCII(_ b: UInt8) {
        switch b {
        case 0x61...0x7A, 0x30...0x39: emit(UInt32(b))
        case 0x41...0x5A: emit(UInt32(b) | 0x20)
        case 0x27: break  // apostrophe: removed, the word continues
        default: closeWord()
        }
    }

    private mutating func appendScalar(_ u: Unicode.Scalar) {
        if u.value < 0x80 { appendASCII(UInt8(u.value)); return }
        switch u.value {
        case 0x2018, 0x2019, 0x02BC: return  // apostrophes
        default: break
        }
        let p = u.properties
        switch p.generalCategory {
        case .nonspacingMark, .enclosingMark:
            return
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
             .spacingMark, .decimalNumber:
            if p.changesWhenLowercased {
                for l in p.lowercaseMapping.unicodeScalars { appendLowered(l) }
            } else {
                appendLowered(u)
            }
        default:
            closeWord()
        }
    }

    /// Appends an already lower-cased scalar, applying the letter replacements.
    private mutating func appendLowered(_ l: Unicode.Scalar) {
        let v = l.value
        if v < 0x80 { emit(v); return }
        switch v {
        case 0x0142, 0x0140: emit(0x6C)                 // ł ŀ → l
        case 0x00DF: emit(0x73); emit(0x73)             // ß → ss
        case 0x00E6: emit(0x61); emit(0x65)             // æ → ae
        case 0x0153: emit(0x6F); emit(0x65)             // œ → oe
        case 0x00F8: emit(0x6F)                         // ø → o
        case 0x0111, 0x00F0: emit(0x64)                 // đ ð → d
        case 0x00FE: emit(0x74); emit(0x68)             // þ → th
        case 0x0131: emit(0x69)                         // ı → i
        case 0x0138: emit(0x6B)                         // ĸ → k
        case 0x0127: emit(0x68)                         // ħ → h
        case 0x0167: emit(0x74)                         // ŧ → t
        case 0x0133: emit(0x69); emit(0x6A)             // ĳ → ij
        case 0x017F: emit(0x73)                         // ſ → s
        case 0x03C2: emit(0x03C3)                       // ς → σ
        default:
            switch l.properties.generalCategory {
            case .nonspacingMark, .enclosingMark: return  // e.g. the dot of İ's lower case
            default: emit(v)
            }
        }
    }
}

/// The fold of single scalars in U+0080–U+052F (Latin-1, Latin Extended-A/B, IPA, spacing
/// modifiers, combining diacritics, Greek, Cyrillic) and U+1E00–U+206F (Latin Extended
/// Additional, Greek Extended, general punctuation), computed once from the full path.
///
/// Folding scalar by scalar equals folding the decomposed string as long as no kept scalar
/// has a non-zero canonical combining class (only those can be moved by canonical
/// reordering); such scalars, and those folding to more than two scalars, are marked
/// `slow` and send the whole string down the full path.
struct FoldTable: Sendable {
    static let skip: UInt64 = 0, boundary: UInt64 = 1, emit: UInt64 = 2, slow: UInt64 = 3
    static let shared = FoldTable()

    /// Entry: kind in bits 0–1, count (1–2) in bits 2–3, scalars in bits 8–31 and 32–55.
    private let low: [UInt64]   // U+0000 ..< U+0530 (ASCII entries unused)
    private let high: [UInt64]  // U+1E00 ..< U+2070

    @inline(__always)
    func entry(_ v: UInt32) -> UInt64 {
        if v < 0x530 { return low[Int(v)] }
        if v >= 0x1E00 && v < 0x2070 { return high[Int(v - 0x1E00)] }
        return FoldTable.slow
    }

    private init() {
        low = (0..<0x530).map { FoldTable.compute($0) }
        high = (0x1E00..<0x2070).map { FoldTable.compute($0) }
    }

    /// The fold of one scalar, found by folding "a" + scalar + "a" on the full path.
    private static func compute(_ v: UInt32) -> UInt64 {
        guard v >= 0x80, let u = Unicode.Scalar(v) else { return slow }
        var f = FoldedWords()
        var text = "a"
        text.unicodeScalars.append(u)
        text.unicodeScalars.append("a")
        f.appendDecomposing(text)
        if f.wordCount == 2 { return boundary }
        guard f.wordCount == 1 else { return slow }
        let inner = Array(f.scalars.dropFirst().dropLast())
        if inner.isEmpty { return skip }
        guard inner.count <= 2,
              inner.allSatisfy({ Unicode.Scalar($0)?.properties.canonicalCombiningClass == .notReordered })
        else { return slow }
        var e = emit | UInt64(inner.count) << 2 | UInt64(inner[0]) << 8
        if inner.count == 2 { e |= UInt64(inner[1]) << 32 }
        return e
    }
}

/// Appends the UTF-8 encoding of scalar value `v` (which must be a valid scalar).
@inline(__always)
func appendUTF8(_ v: UInt32, to bytes: inout [UInt8]) {
    switch v {
    case 0..<0x80:
        bytes.append(UInt8(v))
    case 0x80..<0x800:
        bytes.append(UInt8(0xC0 | (v >> 6)))
        bytes.append(UInt8(0x80 | (v & 0x3F)))
    case 0x800..<0x10000:
        bytes.append(UInt8(0xE0 | (v >> 12)))
        bytes.append(UInt8(0x80 | ((v >> 6) & 0x3F)))
        bytes.append(UInt8(0x80 | (v & 0x3F)))
    default:
        bytes.append(UInt8(0xF0 | (v >> 18)))
        bytes.append(UInt8(0x80 | ((v >> 12) & 0x3F)))
        bytes.append(UInt8(0x80 | ((v >> 6) & 0x3F)))
        bytes.append(UInt8(0x80 | (v & 0x3F)))
    }
}
