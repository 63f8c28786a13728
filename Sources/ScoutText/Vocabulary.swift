// The sorted vocabulary of a text index: exact lookup and prefix ranges by binary search,
// typo candidates from its trie (TermTrie.swift), kept per word once found (TypoCache).

import Synchronization

/// Every distinct folded term once, sorted by Unicode scalar values (the same order as
/// their UTF-8 bytes), stored back to back in one flat array.
struct Vocabulary: Sendable {
    /// Scalar values of all terms, concatenated in sorted order, then one padding scalar so
    /// the buffer is never empty.
    var scalars: [UInt32]
    /// `starts[t] ..< starts[t + 1]` are the scalars of term `t`; `count + 1` entries.
    var starts: [Int32]
    /// The trie of the same terms, for typo candidates.
    var trie: TermTrie
    /// Typo candidates already found, by word (``typoCandidates(of:within:into:)``).
    let typos = TypoCache()

    var count: Int { starts.count - 1 }

    /// The vocabulary of `sortedScalars` (terms back to back, sorted, distinct) delimited by
    /// `starts` (`count + 1` offsets, the first 0).
    init(sortedScalars: [UInt32], starts: [Int32]) {
        var scalars = sortedScalars
        scalars.append(0)  // padding: the buffer is never empty
        self.scalars = scalars
        self.starts = starts
        self.trie = sortedScalars.withUnsafeBufferPointer { s in
            starts.withUnsafeBufferPointer { st in TermTrie(vocabulary: s, starts: st) }
        }
    }

    /// The terms within `k` edits of the folded word `w` (term, edits), ascending by term:
    /// the trie's walk, kept per word (``TypoCache``), since the same words come again.
    func typoCandidates(of w: UnsafeBufferPointer<UInt32>, within k: Int, into out: inout [(term: Int, edits: Int)]) {
        let key = TypoCache.Key(scalars: Array(w), edits: k)
        if let known = typos.candidates(key) {
            out.append(contentsOf: known.lazy.map { (Int($0.term), Int($0.edits)) })
            return
        }
        let start = out.count
        trie.forEachTerm(within: k, of: w) { out.append(($0, $1)) }
        typos.keep(key, out[start...].map { (Int32($0.term), UInt8($0.edits)) })
    }

    /// The term as a `String` (for explanations and debugging, not the hot path).
    func string(_ t: Int) -> String {
        var bytes: [UInt8] = []
        for u in scalars[Int(starts[t])..<Int(starts[t + 1])] { appendUTF8(u, to: &bytes) }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Runs `body` with a pointer view of the vocabulary.
    func withView<R>(_ body: (VocabularyView) throws -> R) rethrows -> R {
        try scalars.withUnsafeBufferPointer { s in
            try starts.withUnsafeBufferPointer { st in
                try body(VocabularyView(scalars: s.baseAddress!, starts: st.baseAddress!, count: st.count - 1))
            }
        }
    }
}

/// Borrowed pointers into a ``Vocabulary``; valid only inside `withView`.
struct VocabularyView {
    let scalars: UnsafePointer<UInt32>
    let starts: UnsafePointer<Int32>
    let count: Int

    @inline(__always) func start(_ t: Int) -> Int { Int(starts[t]) }
    @inline(__always) func length(_ t: Int) -> Int { Int(starts[t + 1] &- starts[t]) }

    /// Lexicographic comparison of term `t` with `w`: negative, zero or positive.
    @inline(__always)
    func compare(_ t: Int, _ w: UnsafeBufferPointer<UInt32>) -> Int {
        let s = scalars + start(t), n = length(t)
        let m = min(n, w.count)
        var i = 0
        while i < m {
            let a = s[i], b = w[i]
            if a != b { return a < b ? -1 : 1 }
            i += 1
        }
        return n - w.count
    }

    /// True when term `t` begins with the `n` scalars at `p`.
    @inline(__always)
    func hasPrefix(_ t: Int, _ p: UnsafePointer<UInt32>, _ n: Int) -> Bool {
        guard length(t) >= n else { return false }
        let s = scalars + start(t)
        var i = 0
        while i < n {
            if s[i] != p[i] { return false }
            i += 1
        }
        return true
    }

    /// The first term not less than `w`.
    func lowerBound(_ w: UnsafeBufferPointer<UInt32>) -> Int {
        var lo = 0, hi = count
        while lo < hi {
            let mid = (lo + hi) >> 1
            if compare(mid, w) < 0 { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }

    /// The index of the term equal to `w`, if any.
    func find(_ w: UnsafeBufferPointer<UInt32>) -> Int? {
        let i = lowerBound(w)
        return i < count && compare(i, w) == 0 ? i : nil
    }

    /// The first term at or after `from` that does not begin with the `n` scalars at `p`,
    /// given that the terms beginning with them form a run starting at or before `from`.
    /// Galloping: the cost grows with the log of the run length, not of the vocabulary.
    func endOfPrefixRun(_ p: UnsafePointer<UInt32>, _ n: Int, from: Int) -> Int {
        var lo = from, step = 1
        var hi = from
        // Gallop to a term outside the run (or the end).
        while hi < count && hasPrefix(hi, p, n) {
            lo = hi + 1
            hi = from + step
            step <<= 1
        }
        hi = min(hi, count)
        while lo < hi {
            let mid = (lo + hi) >> 1
            if hasPrefix(mid, p, n) { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }

    /// The terms that begin with `w` (including `w` itself when it is a term).
    func prefixRange(_ w: UnsafeBufferPointer<UInt32>) -> Range<Int> {
        let lo = lowerBound(w)
        return lo..<endOfPrefixRun(w.baseAddress!, w.count, from: lo)
    }
}

/// The typo candidates of the words a vocabulary was asked for: found once by the trie's
/// walk (the costliest step of a sentence query over a large vocabulary) and kept, at most
/// ``maximumBytes`` of them and their words in all; a full cache starts over. It lives and
/// dies with its vocabulary, which never changes (a write builds a new index), so nothing
/// kept goes stale.
final class TypoCache: Sendable {
    /// A word, as folded scalars, and the edits allowed.
    struct Key: Hashable, Sendable {
        let scalars: [UInt32]
        let edits: Int
    }

    /// Most bytes kept: each candidate's 16, each word's scalars (4 bytes each) and 96 for its entry.
    static let maximumBytes = 2 << 20

    private let state = Mutex<(kept: [Key: [(term: Int32, edits: UInt8)]], bytes: Int)>(([:], 0))

    /// The bytes kept now (as ``maximumBytes`` counts them).
    var bytes: Int { state.withLock { $0.bytes } }

    /// The candidates kept for a word, if any.
    func candidates(_ key: Key) -> [(term: Int32, edits: UInt8)]? { state.withLock { $0.kept[key] } }

    /// Keeps a word's candidates.
    func keep(_ key: Key, _ found: [(term: Int32, edits: UInt8)]) {
        let bytes = 16 * found.count + 4 * key.scalars.count + 96
        guard bytes <= TypoCache.maximumBytes else { return }
        state.withLock { s in
            if s.bytes + bytes > TypoCache.maximumBytes {
                s.kept.removeAll(keepingCapacity: true)
                s.bytes = 0
            }
            if s.kept.updateValue(found, forKey: key) == nil { s.bytes += bytes }
        }
    }
}
