// Query evaluation: candidate terms per query word, then one pass over their postings per
// word: for every word (AND), keeping only the documents matching every word so far; for
// most words, recording which words each document matches.

import Foundation  // log1p
import ScoutCore

/// How many of a query's words a document must match.
public enum WordMatching: String, Sendable, CaseIterable {
    /// Every word as typed, stop words included (strict AND).
    case all
    /// The words that count (stop words are left out): documents that match any of them,
    /// those matching the most informative words best first (``TextMatches``).
    case most
}

/// How a query word reached a document term.
public enum TextMatchKind: Sendable, Equatable, Hashable {
    /// The term equals the word.
    case exact
    /// The term begins with the word (last query word only).
    case prefix
    /// The term is `edits` OSA edits (1 or 2) away from the word.
    case typo(edits: Int)
    /// The term shares a base form with the word (``WordForms``): "psy" and "psów", "swallowed" and "swallow".
    case form
}

/// Why a document matched a query: for every query word, the term that gave its best
/// value, how it matched and what it added to the score.
public struct TextExplanation: Sendable, Equatable {
    /// One query word's contribution.
    public struct Word: Sendable, Equatable {
        /// The folded query word.
        public let word: String
        /// The document term that scored best for this word (a base form is written `~form`).
        public let term: String
        /// How the word reached the term.
        public let kind: TextMatchKind
        /// The match-quality factor (1.0 exact; 0.6–0.9 prefix; 0.85 a base form; 0.7 or 0.5 for typos).
        public let quality: Double
        /// The term's BM25F value in the document, before the quality factor.
        public let relevance: Double
        /// `relevance × quality`, the amount added to the document's score.
        public let score: Double
    }

    /// The document's id.
    public let id: Int32
    /// One entry per query word, in query order.
    public let words: [Word]
    /// The document's score, identical to the one ``TextIndex/search(_:limit:)`` reports.
    public let score: Double
}

extension TextIndex {
    /// The documents matching every word of `query`, best first: score descending, then id
    /// ascending.
    ///
    /// ```swift
    /// index.search("dogs trust dub", limit: 5)
    /// ```
    /// An empty query (no letters or digits) gives no matches; so does `limit` ≤ 0.
    ///
    /// - Complexity: O(*C* + *P* + *M* log min(*M*, `limit`)): *C* for finding candidate
    ///   terms (binary searches, and a pruned trie walk per word of 5 or more scalars), *P*
    ///   postings of the candidate terms, *M* matches ranked.
    public func search(_ query: String, limit: Int = Int.max) -> [TextMatch] {
        search(TextQuery(query, language: language), limit: limit)
    }

    /// ``search(_:limit:)`` of a prepared query.
    public func search(_ query: TextQuery, limit: Int = Int.max) -> [TextMatch] {
        guard limit > 0, let plan = plan(query) else { return [] }
        let (docs, scores) = evaluate(plan)
        if docs.count <= limit {
            var out: [TextMatch] = []
            out.reserveCapacity(docs.count)
            for i in docs.indices { out.append(TextMatch(id: ids[Int(docs[i])], score: scores[i])) }
            out.sort(by: ranksBefore)
            return out
        }
        return docs.indices.lazy.map { TextMatch(id: ids[Int(docs[$0])], score: scores[$0]) }.smallest(limit, by: ranksBefore)
    }

    /// Every document matching every word, its score keyed by id (for filtering inside
    /// other searches).
    ///
    /// - Complexity: as ``search(_:limit:)`` without the sort.
    public func scores(_ query: String) -> [Int32: Double] {
        guard let plan = plan(TextQuery(query, language: language)) else { return [:] }
        let (docs, scores) = evaluate(plan)
        var out: [Int32: Double] = [:]
        out.reserveCapacity(docs.count)
        for i in docs.indices { out[ids[Int(docs[i])]] = scores[i] }
        return out
    }

    /// Calls `body` once per document matching every word, in an unspecified but
    /// deterministic order.
    ///
    /// - Complexity: as ``search(_:limit:)`` without the sort.
    public func forEachMatch(_ query: String, _ body: (TextMatch) throws -> Void) rethrows {
        guard let plan = plan(TextQuery(query, language: language)) else { return }
        let (docs, scores) = evaluate(plan)
        for i in docs.indices { try body(TextMatch(id: ids[Int(docs[i])], score: scores[i])) }
    }

    /// The documents that match `query` under `rule`, with the words each matched; see
    /// ``TextMatches``.
    ///
    /// ```swift
    /// let m = index.matches(TextQuery("my dog wolfed a whole bar of chocolate", language: language), words: .most)
    /// m.scores   // every document with dog, wolfed, whole, bar or chocolate ("my", "a", "of" are stop words);
    ///            // those with the rarer words, and more of them, rank first
    /// ```
    /// - Complexity: O(*C* + *P*) as ``search(_:limit:)``, plus O(*M*) for the *M* documents
    ///   matching some word (``WordMatching/most``).
    public func matches(_ query: TextQuery, words rule: WordMatching) -> TextMatches {
        switch rule {
        case .all:
            guard let plan = plan(query) else { return TextMatches(query: query, rule: rule, scores: .empty, counted: query.words.count) }
            let (docs, sums) = evaluate(plan)
            let all: UInt64 = query.words.count >= 64 ? .max : (1 << UInt64(query.words.count)) - 1
            let table = TextScoreTable(lookup: lookup, documentCount: documentCount, docs: docs, ids: docs.map { ids[Int($0)] },
                                       relevance: sums, ranks: sums, masks: [UInt64](repeating: all, count: docs.count))
            return TextMatches(query: query, rule: rule, scores: table, counted: query.words.count)
        case .most:
            // The words that count: not stop words, each once (a word twice, or two phrases
            // of one synonym group, counts once), at most 64 (a mask's bits).
            var seen = Set<String>()
            let counted = Array(query.words.indices.filter { !query.isStopWord[$0] && seen.insert(query.words[$0]).inserted }.prefix(64))
            guard !counted.isEmpty, let plan = plan(query, allowingUnmatched: true) else {
                return TextMatches(query: query, rule: rule, scores: .empty, counted: counted.count)
            }
            let (docs, masks, sums, frequency) = evaluateEach(plan, words: counted)
            // Each counted word's weight: its inverse document frequency.
            // (Over the documents the statistics count, ``TextIndex/init(fieldWeights:corpus:documents:uncounted:)``.)
            let n = Double(countedCount)
            var weight = [Double](repeating: 0, count: 64)
            var total = 0.0
            for r in counted {
                let df = Double(frequency[r])
                weight[r] = log1p((n - df + 0.5) / (df + 0.5))
                total += weight[r]
            }
            // A document's factor depends on its mask alone: the square root of the share of
            // the weights its words cover, worked out from its few bits (the last mask's kept:
            // neighbours often match the same words).
            var ranks = [Double](repeating: 0, count: docs.count)
            var lastMask: UInt64 = 0, lastFactor = 0.0
            weight.withUnsafeBufferPointer { w in
                for i in docs.indices {
                    let m = masks[i]
                    if m != lastMask {
                        var covered = 0.0, bits = m
                        while bits != 0 {
                            covered += w[bits.trailingZeroBitCount]
                            bits &= bits &- 1
                        }
                        lastMask = m
                        lastFactor = total > 0 ? (covered / total).squareRoot() : 0
                    }
                    ranks[i] = sums[i] * lastFactor
                }
            }
            let table = TextScoreTable(lookup: lookup, documentCount: documentCount, docs: docs, ids: docs.map { ids[Int($0)] },
                                       relevance: sums, ranks: ranks, masks: masks)
            return TextMatches(query: query, rule: rule, scores: table, counted: counted.count)
        }
    }

    /// Why document `id` matches `query`, word by word; nil if it does not match every word
    /// (or no document has that id).
    ///
    /// - Complexity: O(*N* + *C* log *P*) for *N* documents and *C* candidate terms.
    public func explain(_ query: String, id: Int32) -> TextExplanation? {
        guard let d = ids.firstIndex(of: id), let plan = plan(TextQuery(query, language: language)) else { return nil }
        var words: [TextExplanation.Word] = []
        var total = 0.0
        for r in 0..<plan.words.count {
            var best: (candidate: Candidate, relevance: Double, score: Double)?
            for c in plan.candidateRange(r) {
                let cand = plan.candidates[c]
                let t = Int(cand.term)
                // Binary search for document d in the term's postings (ascending).
                var lo = Int(postingStarts[t]), hi = Int(postingStarts[t + 1])
                while lo < hi {
                    let mid = (lo + hi) >> 1
                    if Int(postingDocs[mid]) < d { lo = mid + 1 } else { hi = mid }
                }
                guard lo < Int(postingStarts[t + 1]), Int(postingDocs[lo]) == d else { continue }
                let relevance = Double(postingValues[lo])
                let v = relevance * cand.quality
                if best == nil || v > best!.score { best = (cand, relevance, v) }
            }
            guard let b = best else { return nil }
            let kind: TextMatchKind = switch b.candidate.kind {
            case .exact: .exact
            case .prefix: .prefix
            case .form: .form
            case .oneEdit: .typo(edits: 1)
            case .twoEdits: .typo(edits: 2)
            }
            words.append(TextExplanation.Word(
                word: plan.words[r], term: termString(Int(b.candidate.term)),
                kind: kind, quality: b.candidate.quality, relevance: b.relevance, score: b.score))
            total = r == 0 ? b.score : total + b.score
        }
        return TextExplanation(id: id, words: words, score: total)
    }

    // MARK: - Internals

    /// Result order: score descending, then id ascending.
    @inline(__always)
    func ranksBefore(_ a: TextMatch, _ b: TextMatch) -> Bool {
        a.score != b.score ? a.score > b.score : a.id < b.id
    }

    /// A term as text; a base form is written `~form`.
    func termString(_ t: Int) -> String {
        let s = vocabulary.string(t)
        return t < firstWordTerm ? "~" + s.unicodeScalars.dropFirst().map(String.init).joined() : s
    }

    enum CandidateKind: UInt8 { case exact, prefix, form, oneEdit, twoEdits }

    /// A vocabulary term that a query word matches, with the best way it matches.
    struct Candidate {
        var term: Int32
        var kind: CandidateKind
        var quality: Double
    }

    /// Query words with their candidate terms, flat: word `r` owns
    /// `candidates[candidateEnds[r - 1] ..< candidateEnds[r]]`, ascending by term.
    struct Plan {
        var words: [String]
        var candidates: [Candidate]
        var candidateEnds: [Int]

        /// Word `r`'s candidates (indices into ``candidates``).
        func candidateRange(_ r: Int) -> Range<Int> { (r == 0 ? 0 : candidateEnds[r - 1])..<candidateEnds[r] }
    }

    /// The candidates of every query word; nil when the query is empty or (unless
    /// `allowingUnmatched`) a word matches no term, so that no document can match.
    func plan(_ query: TextQuery, allowingUnmatched: Bool = false) -> Plan? {
        guard !query.words.isEmpty else { return nil }
        var candidates: [Candidate] = []
        var ends: [Int] = []
        var fuzzy: [(term: Int, edits: Int)] = []
        var word: [UInt32] = []
        let complete = vocabulary.withView { v -> Bool in
            for r in query.words.indices {
                word.removeAll(keepingCapacity: true)
                for u in query.words[r].unicodeScalars { word.append(u.value) }
                let wordStart = candidates.count
                word.withUnsafeBufferPointer { w in
                    let n = w.count
                    let base: Range<Int>
                    if r == query.words.count - 1 && query.prefixAllowed {
                        base = v.prefixRange(w)
                    } else if let t = v.find(w) {
                        base = t..<(t + 1)
                    } else {
                        base = 0..<0
                    }
                    fuzzy.removeAll(keepingCapacity: true)
                    let k = EditDistance.allowedEdits(forLength: n)
                    if k > 0 {
                        vocabulary.typoCandidates(of: w, within: k, into: &fuzzy)
                    }
                    // Merge the two ascending lists, keeping each term's best quality.
                    var i = base.lowerBound, j = 0
                    while i < base.upperBound || j < fuzzy.count {
                        let ti = i < base.upperBound ? i : Int.max
                        let tj = j < fuzzy.count ? fuzzy[j].term : Int.max
                        let t = min(ti, tj)
                        var best = Candidate(term: Int32(t), kind: .twoEdits, quality: -1)
                        if ti == t {
                            let len = v.length(t)
                            best = len == n
                                ? Candidate(term: Int32(t), kind: .exact, quality: TextIndex.exactQuality)
                                : Candidate(term: Int32(t), kind: .prefix,
                                            quality: TextIndex.prefixQualityBase + TextIndex.prefixQualitySpan * Double(n) / Double(len))
                            i += 1
                        }
                        if tj == t {
                            let typo: Candidate = switch fuzzy[j].edits {
                            case 0: Candidate(term: Int32(t), kind: .exact, quality: TextIndex.exactQuality)
                            case 1: Candidate(term: Int32(t), kind: .oneEdit, quality: TextIndex.oneEditQuality)
                            default: Candidate(term: Int32(t), kind: .twoEdits, quality: TextIndex.twoEditsQuality)
                            }
                            if typo.quality > best.quality { best = typo }
                            j += 1
                        }
                        candidates.append(best)
                    }
                }
                // Base forms: the marked form terms, and a form written as a word of its own.
                if !query.forms[r].isEmpty {
                    var added = false
                    for form in query.forms[r] {
                        var marked: [UInt32] = [Tokenizer.formMarker]
                        for u in form.unicodeScalars { marked.append(u.value) }
                        for key in [marked, Array(marked.dropFirst())] where key.count > 1 || key.first != Tokenizer.formMarker {
                            guard let t = key.withUnsafeBufferPointer({ v.find($0) }) else { continue }
                            if let at = candidates[wordStart...].firstIndex(where: { $0.term == Int32(t) }) {
                                if candidates[at].quality < TextIndex.formQuality {
                                    candidates[at] = Candidate(term: Int32(t), kind: .form, quality: TextIndex.formQuality)
                                }
                            } else {
                                candidates.append(Candidate(term: Int32(t), kind: .form, quality: TextIndex.formQuality))
                                added = true
                            }
                        }
                    }
                    if added { candidates[wordStart...].sort { $0.term < $1.term } }
                }
                if candidates.count == (ends.last ?? 0) && !allowingUnmatched { return false }
                ends.append(candidates.count)
            }
            return true
        }
        return complete ? Plan(words: query.words, candidates: candidates, candidateEnds: ends) : nil
    }

    /// The documents matching every word of `plan` (as document indices) and their scores.
    ///
    /// Word by word, each posting of each candidate term stamps its document with the
    /// number of words matched so far, only if it matched all earlier words, and keeps the
    /// best value for the current word; then the active list is compacted and the word's
    /// best value added, so scores are summed in query-word order.
    func evaluate(_ plan: Plan) -> (docs: [Int32], scores: [Double]) {
        var stamp = [Int32](repeating: 0, count: documentCount)
        var best = [Double](repeating: 0, count: documentCount)
        var active: [Int32] = [], acc: [Double] = []
        postingStarts.withUnsafeBufferPointer { ps in
            postingDocs.withUnsafeBufferPointer { pd in
                postingValues.withUnsafeBufferPointer { pv in
                    stamp.withUnsafeMutableBufferPointer { st in
                        best.withUnsafeMutableBufferPointer { be in
                            var c0 = 0
                            for r in 0..<plan.candidateEnds.count {
                                let cur = Int32(r), next = Int32(r + 1)
                                for c in c0..<plan.candidateEnds[r] {
                                    let cand = plan.candidates[c]
                                    let t = Int(cand.term), q = cand.quality
                                    for p in Int(ps[t])..<Int(ps[t + 1]) {
                                        let d = Int(pd[p])
                                        let v = Double(pv[p]) * q
                                        let s = st[d]
                                        if s == cur {
                                            st[d] = next
                                            be[d] = v
                                            if r == 0 { active.append(Int32(d)) }
                                        } else if s == next && v > be[d] {
                                            be[d] = v
                                        }
                                    }
                                }
                                c0 = plan.candidateEnds[r]
                                if r == 0 {
                                    acc = active.map { be[Int($0)] }
                                } else {
                                    var kept = 0
                                    for i in active.indices {
                                        let d = Int(active[i])
                                        if st[d] == next {
                                            active[kept] = active[i]
                                            acc[kept] = acc[i] + be[d]
                                            kept += 1
                                        }
                                    }
                                    active.removeSubrange(kept...)
                                    acc.removeSubrange(kept...)
                                }
                                if active.isEmpty { break }
                            }
                        }
                    }
                }
            }
        }
        return (active, acc)
    }

    /// The documents matching at least one of `words` (query-word numbers below 64,
    /// ascending): as document indices in the order first met, with a mask of the words
    /// each matches (bit *r* for word *r*) and the sum of its best values for them, added
    /// in query-word order; and each word's document frequency among the documents the
    /// statistics count (``counted``).
    func evaluateEach(_ plan: Plan, words: [Int]) -> (docs: [Int32], masks: [UInt64], sums: [Double], frequency: [Int]) {
        let n = documentCount
        // One scratch array of the documents' state: the word that last stamped a document
        // (-1: none yet), its best value for that word, its mask and its sum.
        var stamp = [Int32](repeating: -1, count: n)
        var best = [Double](repeating: 0, count: n)
        var maskOf = [UInt64](repeating: 0, count: n)
        var sumOf = [Double](repeating: 0, count: n)
        var docs: [Int32] = []
        var frequency = [Int](repeating: 0, count: plan.words.count)
        var touched = [Int32](repeating: 0, count: n)
        let everyOneCounts = counted == nil
        let countedDocs = counted ?? []
        postingStarts.withUnsafeBufferPointer { ps in
            postingDocs.withUnsafeBufferPointer { pd in
                postingValues.withUnsafeBufferPointer { pv in
                    stamp.withUnsafeMutableBufferPointer { st in
                        best.withUnsafeMutableBufferPointer { be in
                            maskOf.withUnsafeMutableBufferPointer { mo in
                                sumOf.withUnsafeMutableBufferPointer { so in
                                    touched.withUnsafeMutableBufferPointer { tb in
                                        countedDocs.withUnsafeBufferPointer { cd in
                                            for r in words {
                                                let cur = Int32(r)
                                                var count = 0
                                                for c in plan.candidateRange(r) {
                                                    let cand = plan.candidates[c]
                                                    let t = Int(cand.term), q = cand.quality
                                                    for p in Int(ps[t])..<Int(ps[t + 1]) {
                                                        let d = Int(pd[p])
                                                        let v = Double(pv[p]) * q
                                                        if st[d] != cur {
                                                            st[d] = cur
                                                            be[d] = v
                                                            tb[count] = Int32(d)
                                                            count += 1
                                                        } else if v > be[d] {
                                                            be[d] = v
                                                        }
                                                    }
                                                }
                                                let bit: UInt64 = 1 << UInt64(r)
                                                var df = 0
                                                for i in 0..<count {
                                                    let d = Int(tb[i])
                                                    if mo[d] == 0 { docs.append(Int32(d)) }
                                                    mo[d] |= bit
                                                    so[d] += be[d]
                                                    if everyOneCounts || cd[d] { df += 1 }
                                                }
                                                frequency[r] = df
                                            }
                                        }
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
        return (docs, docs.map { maskOf[Int($0)] }, docs.map { sumOf[Int($0)] }, frequency)
    }
}

/// A document's score for a query.
public struct TextScore: Sendable, Equatable {
    /// BM25F times match quality, summed over the words the document matched.
    public let relevance: Double
    /// The query words the document matched: bit *r* for word *r* of ``TextQuery/words``.
    public let matched: UInt64
    /// The order of the answer, higher first: ``relevance`` under ``WordMatching/all``,
    /// relevance times weighted coverage under ``WordMatching/most`` (``TextMatches``).
    public let rank: Double

    /// A score.
    public init(relevance: Double, matched: UInt64, rank: Double) {
        self.relevance = relevance
        self.matched = matched
        self.rank = rank
    }
}

/// What a query matched in an index under a ``WordMatching`` rule, by document id.
///
/// - ``WordMatching/all``: the documents that match every word; a score's rank is its
///   relevance.
/// - ``WordMatching/most``: every document that matches at least one of the words that count
///   (not stop words), ranked by relevance (BM25F, summed over the words it matches) times its
///   *weighted coverage*: the sum of the inverse document frequencies,
///   ln(1 + (N − df + 0.5) / (df + 0.5)), of the words it matches, over their sum for all the
///   words that count, to the power ``TextIndex/coverageExponent`` (0.5, a square root). A
///   document with every word has coverage 1; one with only the commonest word, little.
public struct TextMatches: Sendable {
    /// The query.
    public let query: TextQuery
    /// The rule.
    public let rule: WordMatching
    /// The matching documents' scores, by id.
    public let scores: TextScoreTable
    /// How many of the query's words count (``WordMatching/most``: not stop words, at most 64).
    let counted: Int

    /// True when the query has words but every one is a stop word (``WordMatching/most``
    /// then matches nothing).
    public var hasOnlyStopWords: Bool { rule == .most && counted == 0 && !query.words.isEmpty }

    /// The query words a score's document matched, in query order.
    public func words(matchedBy score: TextScore) -> [String] {
        query.words.indices.filter { $0 < 64 && score.matched & (1 << UInt64($0)) != 0 }.map { query.words[$0] }
    }
}

/// The scores of the documents a query matched, by id: flat arrays of the matches, and each
/// document's place among them (a lookup of a document the index resolves without hashing).
public struct TextScoreTable: Sendable {
    let lookup: DocumentLookup
    /// Document index → place among the matches, or −1 (many matches); else empty and
    /// ``sparseSlots`` holds the places (few matches, no table the size of the index).
    let slots: [Int32]
    let sparseSlots: [Int32: Int32]
    /// The matches' ids, in the order found.
    public let ids: [Int32]
    let relevance: [Double]
    let ranks: [Double]
    let masks: [UInt64]

    /// No matches.
    public static let empty = TextScoreTable(lookup: DocumentLookup(ids: []), documentCount: 0, docs: [], ids: [], relevance: [],
                                             ranks: [], masks: [])

    init(lookup: DocumentLookup, documentCount: Int, docs: [Int32], ids: [Int32], relevance: [Double], ranks: [Double], masks: [UInt64]) {
        if docs.count * 16 >= documentCount {
            var slots = [Int32](repeating: -1, count: docs.isEmpty ? 0 : documentCount)
            for (i, d) in docs.enumerated() { slots[Int(d)] = Int32(i) }
            self.slots = slots
            sparseSlots = [:]
        } else {
            slots = []
            sparseSlots = Dictionary(uniqueKeysWithValues: docs.enumerated().map { ($1, Int32($0)) })
        }
        self.lookup = lookup
        self.ids = ids
        self.relevance = relevance
        self.ranks = ranks
        self.masks = masks
    }

    /// The number of matches.
    public var count: Int { ids.count }
    /// True when nothing matched.
    public var isEmpty: Bool { ids.isEmpty }

    /// The score of the `i`-th match (the document ``ids``[i]).
    public func score(at i: Int) -> TextScore { TextScore(relevance: relevance[i], matched: masks[i], rank: ranks[i]) }

    /// The places of the matches a first page of `k` by rank can hold: those ranked at least
    /// the `k`-th highest rank (ties included), in the order found; every match when there are
    /// no more than `k`.
    /// - Complexity: O(n·k) comparisons in the worst case, O(n) when ranks are random.
    public func topRanked(_ k: Int) -> [Int] {
        guard k > 0, ranks.count > k else { return Array(ranks.indices) }
        // The k highest ranks so far, ascending: best[0] is the one to beat.
        var best = [Double](repeating: -.infinity, count: k)
        ranks.withUnsafeBufferPointer { r in
            best.withUnsafeMutableBufferPointer { b in
                for x in r where x > b[0] {
                    var j = 0
                    while j + 1 < k && b[j + 1] < x {
                        b[j] = b[j + 1]
                        j += 1
                    }
                    b[j] = x
                }
            }
        }
        let floor = best[0]
        var out: [Int] = []
        out.reserveCapacity(2 * k)
        for i in ranks.indices where ranks[i] >= floor { out.append(i) }
        return out
    }

    /// The score of document `id`, or `nil` when it did not match.
    @inline(__always)
    public subscript(id: Int32) -> TextScore? {
        guard !ids.isEmpty, let d = lookup.document(id) else { return nil }
        if slots.isEmpty {
            guard let s = sparseSlots[d] else { return nil }
            return score(at: Int(s))
        }
        let s = Int(slots[Int(d)])
        return s < 0 ? nil : score(at: s)
    }
}

/// Document ids → document indices of an index: a flat table over the ids' range when they
/// are dense (the engine's entry numbers), else a hash table.
struct DocumentLookup: Sendable {
    let minID: Int32
    let dense: [Int32]
    let sparse: [Int32: Int32]

    init(ids: [Int32]) {
        let lo = ids.min() ?? 0, hi = ids.max() ?? -1
        let span = Int(hi) - Int(lo) + 1
        minID = lo
        if span <= 4 * ids.count + 1024 {
            var dense = [Int32](repeating: -1, count: max(0, span))
            for (d, id) in ids.enumerated() { dense[Int(id) - Int(lo)] = Int32(d) }
            self.dense = dense
            sparse = [:]
        } else {
            dense = []
            sparse = Dictionary(uniqueKeysWithValues: ids.enumerated().map { ($1, Int32($0)) })
        }
    }

    @inline(__always)
    func document(_ id: Int32) -> Int32? {
        if !dense.isEmpty {
            let k = Int(id) - Int(minID)
            guard k >= 0 && k < dense.count else { return nil }
            let d = dense[k]
            return d < 0 ? nil : d
        }
        return sparse[id]
    }
}
