// Building a TextIndex: fold every field, intern words in a flat hash table, sort the
// vocabulary, then lay out postings with their BM25F values precomputed.
import Foundation  // log1p
import Synchronization

/// The arrays a ``TextIndex`` is made of.
struct IndexBuilder {
    var ids: [Int32] = []
    var vocabulary = Vocabulary(sortedScalars: [], starts: [0])
    var postingStarts: [Int32] = [0]
    var postingDocs: [Int32] = []
    var postingValues: [Float] = []
    /// Terms `0 ..< formTermCount` are base forms (marked, sorted first); the words follow.
    var formTermCount = 0
    /// By document index: whether the document counts in the statistics (`nil`: all do).
    var counted: [Bool]?
    /// How many documents count in the statistics.
    var countedCount = 0

    static func build(fieldWeights: [Double], documents: [(id: Int32, fields: [String])], language: TextLanguage) -> IndexBuilder {
        var work = Tokenizer(forms: language.forms)
        let tokens = documents.map { work.tokenize($0.fields, fieldCount: fieldWeights.count) }
        return layout(fieldWeights: fieldWeights, ids: documents.map(\.id), tokens: tokens, table: work.table)
    }

    /// The index of documents already tokenized against `table`: the vocabulary is the
    /// terms these documents use, sorted; postings carry their BM25F values. The statistics
    /// (the number of documents, document frequencies, mean field lengths) count only the
    /// documents whose ids are not in `uncounted`.
    static func layout(fieldWeights: [Double], ids: [Int32], tokens: [TextTokens], table: TermTable,
                       uncounted: Set<Int32> = []) -> IndexBuilder {
        let fieldCount = fieldWeights.count
        var out = IndexBuilder()
        out.ids = ids
        assert(Set(ids).count == tokens.count, "TextIndex: document ids must be unique")
        let counted: [Bool]? = uncounted.isEmpty ? nil : ids.map { !uncounted.contains($0) }
        out.counted = counted
        let n = counted.map { $0.reduce(0) { $0 + ($1 ? 1 : 0) } } ?? tokens.count
        out.countedCount = n

        // Mean length of each field over the counted documents (1 when none count: no
        // length normalisation then).
        var meanLength = [Double](repeating: 0, count: fieldCount)
        for (d, doc) in tokens.enumerated() where counted?[d] ?? true {
            for f in 0..<fieldCount { meanLength[f] += Double(doc.length(f)) }
        }
        for f in 0..<fieldCount { meanLength[f] = n > 0 && meanLength[f] > 0 ? meanLength[f] / Double(n) : 0 }

        // Document frequencies by table term (all documents: the postings; counted ones:
        // the statistics); the vocabulary is the terms in use.
        var tableDF = [Int32](repeating: 0, count: table.count)
        var countedDF = counted == nil ? [] : [Int32](repeating: 0, count: table.count)
        for (d, doc) in tokens.enumerated() {
            var lastTerm = UInt64.max
            let counts = counted?[d] ?? false
            for e in 0..<doc.keyCount {
                let t = doc.key(e) >> 16
                if t != lastTerm {
                    tableDF[Int(t)] += 1
                    if counts { countedDF[Int(t)] += 1 }
                    lastTerm = t
                }
            }
        }
        // Sort the vocabulary; `rank[term]` is a term's place in sorted order.
        let order = table.sortedOrder(where: { tableDF[Int($0)] > 0 })
        let termCount = order.count
        var rank = [Int32](repeating: -1, count: table.count)
        var scalars: [UInt32] = [], starts: [Int32] = [0]
        starts.reserveCapacity(termCount + 1)
        for (r, t) in order.enumerated() {
            rank[Int(t)] = Int32(r)
            scalars.append(contentsOf: table.word(Int(t)))
            starts.append(Int32(scalars.count))
        }
        out.vocabulary = Vocabulary(sortedScalars: scalars, starts: starts)
        out.formTermCount = order.prefix { table.word(Int($0)).first == Tokenizer.formMarker }.count

        // Posting offsets.
        var postingStarts = [Int32](repeating: 0, count: termCount + 1)
        for t in 0..<termCount { postingStarts[t + 1] = postingStarts[t] + tableDF[Int(order[t])] }
        let total = Int(postingStarts[termCount])
        var postingDocs = [Int32](repeating: 0, count: total)
        var postingValues = [Float](repeating: 0, count: total)
        var cursor = postingStarts
        let k1 = TextIndex.k1, b = TextIndex.b
        let idf = order.map { t -> Double in
            let dfx = Double(counted == nil ? tableDF[Int(t)] : countedDF[Int(t)])
            return log1p((Double(n) - dfx + 0.5) / (dfx + 0.5))
        }

        // Postings in document order, with BM25F values (fields summed in ascending order).
        for (d, doc) in tokens.enumerated() {
            var e = 0
            let end = doc.keyCount
            while e < end {
                let term = doc.key(e) >> 16
                var tf = 0.0
                while e < end && doc.key(e) >> 16 == term {
                    let f = Int(doc.key(e) & 0xFFFF)
                    let norm = meanLength[f] > 0 ? 1 - b + b * Double(doc.length(f)) / meanLength[f] : 1
                    tf += fieldWeights[f] * Double(doc.count(e)) / norm
                    e += 1
                }
                let t = Int(rank[Int(term)])
                let p = Int(cursor[t])
                cursor[t] += 1
                postingDocs[p] = Int32(d)
                // (k1 + 1)·tf/(k1 + tf), written so that a huge tf saturates instead of inf/inf.
                postingValues[p] = tf > 0 ? Float(idf[t] * (k1 + 1) / (1 + k1 / tf)) : 0
            }
        }
        out.postingStarts = postingStarts
        out.postingDocs = postingDocs
        out.postingValues = postingValues
        return out
    }
}

/// One document's words, interned in a term table: the words in each field, and its
/// distinct (term, field) pairs as `term << 16 | field`, ascending, with their counts, in
/// one array (`[length per field…, key, count, key, count, …]`).
public struct TextTokens: Sendable {
    let fieldCount: Int
    let packed: [UInt64]
    /// Words in field `f`.
    @inline(__always) func length(_ f: Int) -> UInt64 { packed[f] }
    /// Distinct (term, field) pairs.
    var keyCount: Int { (packed.count - fieldCount) / 2 }
    /// The `e`-th pair, `term << 16 | field`.
    @inline(__always) func key(_ e: Int) -> UInt64 { packed[fieldCount + 2 * e] }
    /// How many times the `e`-th pair occurs.
    @inline(__always) func count(_ e: Int) -> UInt64 { packed[fieldCount + 2 * e + 1] }
}

/// Documents folded into words once and kept, for a text index laid out again and again
/// over a changing set of them (a kind's records across writes).
///
/// ``tokens(_:)`` folds and interns one document's fields; ``TextIndex/init(fieldWeights:corpus:documents:)``
/// lays out an index over tokenized documents, equal to what
/// ``TextIndex/init(fieldWeights:documents:)`` builds from their texts, without folding
/// any again. Words stay in the corpus for its lifetime (a new corpus starts over).
/// Safe to use from any thread.
///
/// ```swift
/// let corpus = TextCorpus(fieldCount: 2)
/// let a = corpus.tokens(["Dogs Trust Dublin", "Rehoming dogs"])
/// let index = TextIndex(fieldWeights: [3, 1], corpus: corpus, documents: [(id: 9, tokens: a)])
/// ```
public final class TextCorpus: Sendable {
    /// Texts per document.
    public let fieldCount: Int
    /// The words, and working space for folding the next document.
    /// The language the words are read in (their base forms are interned beside them).
    public let language: TextLanguage
    private let state: Mutex<Tokenizer>

    /// An empty corpus for documents of `fieldCount` texts in `language`.
    public init(fieldCount: Int, language: TextLanguage = .plain) {
        self.fieldCount = fieldCount
        self.language = language
        state = Mutex(Tokenizer(forms: language.forms))
    }

    /// The words of one document's texts (at most ``fieldCount``), folded and interned here.
    public func tokens(_ fields: [String]) -> TextTokens {
        state.withLock { $0.tokenize(fields, fieldCount: fieldCount) }
    }

    /// The corpus's words as they stand (a copy shares storage until the corpus grows).
    var terms: TermTable { state.withLock { $0.table } }
}

/// Open-addressing hash table interning words (flat scalar slices) as dense term numbers.
struct TermTable {
    /// Scalars of all terms in first-seen order, concatenated.
    private(set) var scalars: [UInt32] = []
    /// One past the last scalar of each term.
    private(set) var ends: [Int32] = []
    private var hashes: [UInt64] = []
    private var slots = [Int32](repeating: -1, count: 1024)

    var count: Int { ends.count }

    func word(_ t: Int) -> ArraySlice<UInt32> {
        scalars[(t == 0 ? 0 : Int(ends[t - 1]))..<Int(ends[t])]
    }

    @inline(__always)
    static func hash(_ w: UnsafeBufferPointer<UInt32>) -> UInt64 {
        var h: UInt64 = 0xCBF2_9CE4_8422_2325  // FNV-1a over scalar values, then a 64-bit finaliser
        for v in w { h = (h ^ UInt64(v)) &* 0x0000_0100_0000_01B3 }
        h ^= h >> 33; h &*= 0xFF51_AFD7_ED55_8CCD
        h ^= h >> 33; h &*= 0xC4CE_B9FE_1A85_EC53
        return h ^ (h >> 33)
    }

    /// The number of `w`, added if new.
    mutating func intern(_ w: UnsafeBufferPointer<UInt32>) -> Int32 {
        let h = Self.hash(w)
        let mask = slots.count - 1
        var i = Int(truncatingIfNeeded: h) & mask
        while true {
            let s = slots[i]
            if s < 0 { break }
            if hashes[Int(s)] == h && equals(Int(s), w) { return s }
            i = (i + 1) & mask
        }
        let id = Int32(count)
        scalars.append(contentsOf: w)
        ends.append(Int32(scalars.count))
        hashes.append(h)
        slots[i] = id
        if count * 2 > slots.count { grow() }
        return id
    }

    private func equals(_ t: Int, _ w: UnsafeBufferPointer<UInt32>) -> Bool {
        let a = t == 0 ? 0 : Int(ends[t - 1]), e = Int(ends[t])
        guard e - a == w.count else { return false }
        return scalars.withUnsafeBufferPointer { s in
            var i = 0
            while i < w.count {
                if s[a + i] != w[i] { return false }
                i += 1
            }
            return true
        }
    }

    private mutating func grow() {
        var next = [Int32](repeating: -1, count: slots.count * 2)
        let mask = next.count - 1
        for t in 0..<count {
            var i = Int(truncatingIfNeeded: hashes[t]) & mask
            while next[i] >= 0 { i = (i + 1) & mask }
            next[i] = Int32(t)
        }
        slots = next
    }

    /// Numbers of the terms `include` keeps, in ascending order of their scalar values.
    func sortedOrder(where include: (Int32) -> Bool) -> [Int32] {
        var order = (0..<Int32(count)).filter(include)
        scalars.withUnsafeBufferPointer { s in
            ends.withUnsafeBufferPointer { e in
                order.sort { x, y in
                    let xa = x == 0 ? 0 : Int(e[Int(x) - 1]), xe = Int(e[Int(x)])
                    let ya = y == 0 ? 0 : Int(e[Int(y) - 1]), ye = Int(e[Int(y)])
                    let m = min(xe - xa, ye - ya)
                    var i = 0
                    while i < m {
                        let a = s[xa + i], b = s[ya + i]
                        if a != b { return a < b }
                        i += 1
                    }
                    return xe - xa < ye - ya
                }
            }
        }
        return order
    }
}

/// The working state of tokenizing documents: the term table their words are interned in,
/// scratch space reused from one document to the next, and the base-form terms of each
/// term seen (worked out once per term).
struct Tokenizer {
    /// The scalar that begins every base-form term ("\u{1}pies"): no folded word contains
    /// it, so base forms never meet words as written (nor their prefixes or typos), and
    /// they sort before every word.
    static let formMarker: UInt32 = 1

    var table = TermTable()
    let forms: WordForms?
    private var folded = FoldedWords()
    private var scratch: [UInt64] = []
    /// `formTerms[t]`: the base-form terms of term `t` read as written in ASCII (nil: not yet asked).
    private var formTerms: [[Int32]?] = []
    private var marked: [UInt32] = []
    /// Texts already tokenized (at most ``rememberedTexts``, each at most
    /// ``longestRemembered`` bytes; when full it starts again): their word count and terms,
    /// base forms included, in order.
    private var seen: [String: (words: Int, terms: [Int32])] = [:]
    static let rememberedTexts = 16_384
    static let longestRemembered = 256

    init(forms: WordForms?) { self.forms = forms }

    /// One document's words: folded, interned in ``table``, and counted per (term, field);
    /// with base forms, each word's forms other than itself are counted too, as marked terms
    /// that do not add to the field's length.
    mutating func tokenize(_ fields: [String], fieldCount: Int) -> TextTokens {
        precondition(fields.count <= fieldCount,
                     "TextIndex: a document has \(fields.count) fields but there are \(fieldCount) field weights")
        scratch.removeAll(keepingCapacity: true)
        var words = [UInt64](repeating: 0, count: fieldCount)
        for (f, text) in fields.enumerated() {
            // A text seen before (records share descriptions, marks, towns) reuses its terms.
            if let known = seen[text] {
                words[f] = UInt64(known.words)
                for t in known.terms { scratch.append(UInt64(t) << 16 | UInt64(f)) }
                continue
            }
            let start = scratch.count
            folded.removeAll()
            folded.append(text)
            words[f] = UInt64(folded.wordCount)
            // Words written with letters beyond ASCII keep their diacritics for Hunspell.
            let written = forms != nil && text.utf8.contains(where: { $0 >= 0x80 }) ? TextQuery.writtenForms(text) : [:]
            var a = 0
            for w in 0..<folded.wordCount {
                let end = Int(folded.ends[w])
                let t = folded.scalars.withUnsafeBufferPointer { table.intern(UnsafeBufferPointer(rebasing: $0[a..<end])) }
                scratch.append(UInt64(t) << 16 | UInt64(f))
                if forms != nil {
                    if !written.isEmpty, let original = written[folded.string(ofWord: w)] {
                        for m in formTerms(of: original, word: w) { scratch.append(UInt64(m) << 16 | UInt64(f)) }
                    } else {
                        for m in formTerms(ofTerm: t, word: w) { scratch.append(UInt64(m) << 16 | UInt64(f)) }
                    }
                }
                a = end
            }
            if text.utf8.count <= Tokenizer.longestRemembered {
                if seen.count >= Tokenizer.rememberedTexts { seen.removeAll(keepingCapacity: true) }
                seen[text] = (folded.wordCount, scratch[start...].map { Int32(truncatingIfNeeded: $0 >> 16) })
            }
        }
        scratch.sort()
        // One array: the field lengths, then each distinct key followed by its count.
        var packed = words
        var i = 0
        while i < scratch.count {
            var j = i + 1
            while j < scratch.count && scratch[j] == scratch[i] { j += 1 }
            packed.append(scratch[i])
            packed.append(UInt64(j - i))
            i = j
        }
        return TextTokens(fieldCount: fieldCount, packed: packed)
    }

    /// The marked terms of term `t`'s base forms (folded word `w` of ``folded``), cached by term.
    private mutating func formTerms(ofTerm t: Int32, word w: Int) -> [Int32] {
        if Int(t) < formTerms.count, let known = formTerms[Int(t)] { return known }
        let terms = formTerms(of: folded.string(ofWord: w), word: w)
        if Int(t) >= formTerms.count { formTerms += [[Int32]?](repeating: nil, count: Int(t) + 1 - formTerms.count) }
        formTerms[Int(t)] = terms
        return terms
    }

    /// The marked terms of the base forms of `written` (word `w` of ``folded``) other than
    /// the folded word itself.
    private mutating func formTerms(of written: String, word w: Int) -> [Int32] {
        guard let forms else { return [] }
        let surface = folded.string(ofWord: w)
        var out: [Int32] = []
        for form in forms.forms(of: written) where form != surface {
            marked.removeAll(keepingCapacity: true)
            marked.append(Tokenizer.formMarker)
            for u in form.unicodeScalars { marked.append(u.value) }
            out.append(marked.withUnsafeBufferPointer { table.intern($0) })
        }
        return out
    }
}
