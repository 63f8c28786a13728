// Query evaluation: candidate terms per query word, then one pass over their postings per
// word that keeps only documents matching every word so far (AND semantics).

import ScoutCore

/// How a query word reached a document term.
public enum TextMatchKind: Sendable, Equatable, Hashable {
    /// The term equals the word.
    case exact
    /// The term begins with the word (last query word only).
    case prefix
    /// The term is `edits` OSA edits (1 or 2) away from the word.
    case typo(edits: Int)
}

/// Why a document matched a query: for every query word, the term that gave its best
/// value, how it matched and what it added to the score.
public struct TextExplanation: Sendable, Equatable {
    /// One query word's contribution.
    public struct Word: Sendable, Equatable {
        /// The folded query word.
        public let word: String
        /// The document term that scored best for this word.
        public let term: String
        /// How the word reached the term.
        public let kind: TextMatchKind
        /// The match-quality factor (1.0 exact; 0.6–0.9 prefix; 0.7 or 0.5 for typos).
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
    /// The matching documents, best first: score descending, then id ascending.
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

    /// Every matching document's score, keyed by id (for filtering inside other searches).
    ///
    /// - Complexity: as ``search(_:limit:)`` without the sort.
    public func scores(_ query: String) -> [Int32: Double] {
        guard let plan = plan(query) else { return [:] }
        let (docs, scores) = evaluate(plan)
        var out: [Int32: Double] = [:]
        out.reserveCapacity(docs.count)
        for i in docs.indices { out[ids[Int(docs[i])]] = scores[i] }
        return out
    }

    /// Calls `body` once per matching document, in an unspecified but deterministic order.
    ///
    /// - Complexity: as ``search(_:limit:)`` without the sort.
    public func forEachMatch(_ query: String, _ body: (TextMatch) throws -> Void) rethrows {
        guard let plan = plan(query) else { return }
        let (docs, scores) = evaluate(plan)
        for i in docs.indices { try body(TextMatch(id: ids[Int(docs[i])], score: scores[i])) }
    }

    /// Why document `id` matches `query`, word by word; nil if it does not match (or no
    /// document has that id).
    ///
    /// - Complexity: O(*N* + *C* log *P*) for *N* documents and *C* candidate terms.
    public func explain(_ query: String, id: Int32) -> TextExplanation? {
        guard let d = ids.firstIndex(of: id), let plan = plan(query) else { return nil }
        var words: [TextExplanation.Word] = []
        var total = 0.0
        var c0 = 0
        for r in 0..<plan.words.wordCount {
            var best: (candidate: Candidate, relevance: Double, score: Double)?
            for c in c0..<plan.candidateEnds[r] {
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
            c0 = plan.candidateEnds[r]
            guard let b = best else { return nil }
            let kind: TextMatchKind = switch b.candidate.kind {
            case .exact: .exact
            case .prefix: .prefix
            case .oneEdit: .typo(edits: 1)
            case .twoEdits: .typo(edits: 2)
            }
            words.append(TextExplanation.Word(
                word: plan.words.string(ofWord: r), term: vocabulary.string(Int(b.candidate.term)),
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

    enum CandidateKind: UInt8 { case exact, prefix, oneEdit, twoEdits }

    /// A vocabulary term that a query word matches, with the best way it matches.
    struct Candidate {
        var term: Int32
        var kind: CandidateKind
        var quality: Double
    }

    /// Query words with their candidate terms, flat: word `r` owns
    /// `candidates[candidateEnds[r - 1] ..< candidateEnds[r]]`, ascending by term.
    struct Plan {
        var words: FoldedWords
        var candidates: [Candidate]
        var candidateEnds: [Int]
    }

    /// The candidates of every query word; nil when the query is empty or a word matches
    /// no term (so no document can match).
    func plan(_ query: String) -> Plan? {
        var words = FoldedWords()
        words.append(query)
        guard words.wordCount > 0 else { return nil }
        let prefixAllowed = !(query.unicodeScalars.last?.properties.isWhitespace ?? true)
        var candidates: [Candidate] = []
        var ends: [Int] = []
        var fuzzy: [(term: Int, edits: Int)] = []
        let complete = vocabulary.withView { v -> Bool in
            words.scalars.withUnsafeBufferPointer { sp -> Bool in
                for r in 0..<words.wordCount {
                    let w = UnsafeBufferPointer(rebasing: sp[words.start(ofWord: r)..<Int(words.ends[r])])
                    let n = w.count
                    let base: Range<Int>
                    if r == words.wordCount - 1 && prefixAllowed {
                        base = v.prefixRange(w)
                    } else if let t = v.find(w) {
                        base = t..<(t + 1)
                    } else {
                        base = 0..<0
                    }
                    fuzzy.removeAll(keepingCapacity: true)
                    let k = EditDistance.allowedEdits(forLength: n)
                    if k > 0 { vocabulary.trie.forEachTerm(within: k, of: w) { fuzzy.append(($0, $1)) } }
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
                    if candidates.count == (ends.last ?? 0) { return false }
                    ends.append(candidates.count)
                }
                return true
            }
        }
        return complete ? Plan(words: words, candidates: candidates, candidateEnds: ends) : nil
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
}
