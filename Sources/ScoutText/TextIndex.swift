// An immutable inverted index over folded words with BM25F relevance, prefix matching for
// type-ahead and bounded typo tolerance.

/// An immutable full-text index: documents with weighted fields, queried by words with
/// AND semantics, prefix completion of the last word and typo tolerance, ranked by BM25F.
///
/// ```swift
/// let index = TextIndex(fieldWeights: [3, 1], documents: [
///     (id: 7, fields: ["Schronisko dla Zwierząt we Wrocławiu", "Psy i koty do adopcji"]),
///     (id: 9, fields: ["Dogs Trust Dublin", "Rehoming dogs across Ireland"]),
/// ])
/// index.search("dogs dubln")      // [TextMatch(id: 9, …)]: "dubln" is one edit from "dublin"
/// index.search("schronisko wroc") // [TextMatch(id: 7, …)]: "wroc" completes "wroclawiu"
/// ```
///
/// **Words.** Documents and queries are split into words by ``TextFolding/words(_:)``
/// (lower-case, no diacritics, apostrophes removed). An empty query, or one with no letters
/// or digits, matches nothing.
///
/// **Matching.** A document matches when *every* query word matches some term of the
/// document, in any field (also a field of weight 0, which then adds 0 to the score).
/// A query word *w* of *n* scalars matches a term *t* when
/// - *t* = *w* (exact);
/// - *w* is the last query word, the raw query does not end in whitespace, and *t* begins
///   with *w* (prefix, for type-ahead);
/// - the OSA distance (``EditDistance``) between *w* and *t* is at most
///   `EditDistance.allowedEdits(forLength: n)`: 0 edits below 5 scalars, 1 for 5–8, 2 from 9
///   (typo). So "wroclaw" (7) does not reach "wroclawiu" (2 edits) by typo; it matches
///   "Wrocławiu" only as the last word of a query that does not end in a space.
///
/// **Score.** The sum over query words, in query order, of the best value among the
/// document's terms that the word matches: `bm25f(t, d) × quality`, where
/// - `bm25f(t, d) = idf(t) · (k1 + 1) · tf̃ / (k1 + tf̃)` with k1 = 1.2,
///   `idf(t) = ln(1 + (N − df + 0.5) / (df + 0.5))` over the *N* documents of which *df*
///   contain *t* in any field, and the field-weighted, per-field length-normalised term
///   frequency `tf̃ = Σ_f weight_f · tf_f / (1 − b + b · len_f / avglen_f)` with b = 0.75,
///   where `len_f` counts the words of field *f* and `avglen_f` is its mean over all
///   documents (BM25F as in Robertson & Zaragoza 2009);
/// - `quality` is 1.0 for an exact match; 0.6 + 0.3 · n / len(t) for a prefix match (so
///   between 0.6 and 0.9, higher the more of the term the prefix covers); 0.7 for a typo of
///   one edit and 0.5 for two. A term reached several ways takes the best quality.
///
/// Results are sorted by score descending, then id ascending; scores are computed in a
/// fixed order, so the same index and query always give identical output.
///
/// **Fields.** Every document gives one text per field weight; a document with fewer texts
/// has the missing fields empty, one with more is a programming error (precondition).
/// Weights must be finite and non-negative. Ids must be unique (checked in debug builds).
///
/// **Layout.** The vocabulary is one flat sorted array of scalar values (exact and prefix
/// lookup by binary search) plus a flat pre-order trie of the same terms (typo candidates
/// by a walk that skips whole subtrees beyond the edit budget). Postings are flat arrays of
/// (document, precomputed BM25F value) per term, in document order.
public struct TextIndex: Sendable {
    /// BM25 saturation constant.
    public static let k1 = 1.2
    /// BM25 length-normalisation strength.
    public static let b = 0.75
    /// Match quality of an exact match.
    public static let exactQuality = 1.0
    /// Prefix match quality is `prefixQualityBase + prefixQualitySpan · n / len(term)`.
    public static let prefixQualityBase = 0.6
    /// See ``prefixQualityBase``.
    public static let prefixQualitySpan = 0.3
    /// Match quality of a typo match of one edit.
    public static let oneEditQuality = 0.7
    /// Match quality of a typo match of two edits.
    public static let twoEditsQuality = 0.5

    /// Match quality of a base form shared with the word (``WordForms``): below an exact
    /// match, above a typo.
    public static let formQuality = 0.85

    /// Under ``WordMatching/most`` a document's rank is its relevance times its weighted
    /// coverage to this power (``TextMatches``): 1 would weigh coverage as much as relevance,
    /// 0 not at all.
    public static let coverageExponent = 0.5

    /// The weight of each field, as given.
    public let fieldWeights: [Double]
    /// The language the index reads its documents and queries in.
    public let language: TextLanguage
    /// Terms below this are base forms (``Tokenizer/formMarker``); the words as written follow.
    let firstWordTerm: Int
    /// Document index → caller's id.
    let ids: [Int32]
    /// Caller's id → document index.
    let lookup: DocumentLookup
    /// Sorted distinct terms.
    let vocabulary: Vocabulary
    /// `postingStarts[t] ..< postingStarts[t + 1]` are the postings of term `t`.
    let postingStarts: [Int32]
    /// Document index of each posting, ascending within a term.
    let postingDocs: [Int32]
    /// BM25F value of the term in the document (before match quality).
    let postingValues: [Float]
    /// By document index: whether it counts in the statistics (`nil`: every document does).
    let counted: [Bool]?
    /// The number of documents the statistics count.
    let countedCount: Int

    /// The number of documents indexed.
    public var documentCount: Int { ids.count }
    /// The number of distinct folded terms.
    public var termCount: Int { vocabulary.count }

    /// Builds the index; see the type's documentation for the field and id rules.
    ///
    /// - Complexity: O(*W* log *W*) for *W* words in all fields together (folding, one hash
    ///   lookup per word, sorting each document's terms and the vocabulary).
    public init(fieldWeights: [Double], documents: [(id: Int32, fields: [String])], language: TextLanguage = .plain) {
        precondition(fieldWeights.allSatisfy { $0.isFinite && $0 >= 0 }, "TextIndex: field weights must be finite and non-negative")
        precondition(fieldWeights.count < 1 << 16, "TextIndex: at most 65,535 fields")
        self.init(fieldWeights: fieldWeights, language: language,
                  built: IndexBuilder.build(fieldWeights: fieldWeights, documents: documents, language: language))
    }

    /// The index ``init(fieldWeights:documents:)`` builds from these documents' texts, laid
    /// out from their tokens in `corpus` (nothing folded again). `fieldWeights` must have
    /// the corpus's ``TextCorpus/fieldCount`` weights.
    ///
    /// - Complexity: O(*K* + *T* log *T*) for *K* distinct (term, field) pairs in the
    ///   documents and *T* distinct terms.
    ///
    /// The documents whose ids are in `uncounted` are found and scored like the others, but
    /// the statistics scores are made of — the number of documents, each term's document
    /// frequency, each field's mean length, and under ``WordMatching/most`` each word's
    /// weight in coverage — count the other documents only. So the score of every document
    /// is the same whether the uncounted ones are there or not: records only some callers
    /// may see (a user's private records) change nothing in the answers of the others.
    public init(fieldWeights: [Double], corpus: TextCorpus, documents: [(id: Int32, tokens: TextTokens)], uncounted: Set<Int32> = []) {
        precondition(fieldWeights.allSatisfy { $0.isFinite && $0 >= 0 }, "TextIndex: field weights must be finite and non-negative")
        precondition(fieldWeights.count == corpus.fieldCount, "TextIndex: \(fieldWeights.count) weights for a corpus of \(corpus.fieldCount) fields")
        self.init(fieldWeights: fieldWeights, language: corpus.language, built: IndexBuilder.layout(fieldWeights: fieldWeights, ids: documents.map(\.id),
                                                                          tokens: documents.map(\.tokens), table: corpus.terms,
                                                                          uncounted: uncounted))
    }

    private init(fieldWeights: [Double], language: TextLanguage, built: IndexBuilder) {
        self.fieldWeights = fieldWeights
        self.language = language
        self.firstWordTerm = built.formTermCount
        self.ids = built.ids
        self.lookup = DocumentLookup(ids: built.ids)
        self.vocabulary = built.vocabulary
        self.postingStarts = built.postingStarts
        self.postingDocs = built.postingDocs
        self.postingValues = built.postingValues
        self.counted = built.counted
        self.countedCount = built.countedCount
    }
}

/// One document that matched a text query, with its relevance score.
public struct TextMatch: Sendable, Equatable, Hashable {
    /// The document's id as given to ``TextIndex/init(fieldWeights:documents:)``.
    public let id: Int32
    /// BM25F relevance times match quality, summed over query words; higher is better.
    public let score: Double

    /// A match of document `id` with `score`.
    public init(id: Int32, score: Double) {
        self.id = id
        self.score = score
    }
}

extension TextIndex {
    /// The same type as the top-level ``ScoutText/TextMatch``.
    public typealias TextMatch = ScoutText.TextMatch
}

extension TextIndex: CustomStringConvertible {
    /// Sizes only, never document text: "TextIndex(2 fields, 20000 documents, 28529 terms)".
    public var description: String {
        "TextIndex(\(fieldWeights.count) fields, \(documentCount) documents, \(termCount) terms)"
    }
}
