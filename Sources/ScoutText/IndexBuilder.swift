// Building a TextIndex: fold every field, intern words in a flat hash table, sort the
// vocabulary, then lay out postings with their BM25F values precomputed.
import Foundation  // log1p

/// The arrays a ``TextIndex`` is made of.
struct IndexBuilder {
    var ids: [Int32] = []
    var vocabulary = Vocabulary(sortedScalars: [], starts: [0])
    var postingStarts: [Int32] = [0]
    var postingDocs: [Int32] = []
    var postingValues: [Float] = []

    static func build(fieldWeights: [Double], documents: [(id: Int32, fields: [String])]) -> IndexBuilder {
        let fieldCount = fieldWeights.count, n = documents.count
        var out = IndexBuilder()
        var table = TermTable()
        var folded = FoldedWords()
        var fieldLengths = [Int32](repeating: 0, count: n * fieldCount)
        // Per document, its distinct (term, field) pairs as `term << 16 | field`, ascending,
        // with their counts.
        var keys: [UInt64] = [], counts: [Int32] = [], docEnds: [Int32] = []
        var scratch: [UInt64] = []
        out.ids.reserveCapacity(n)
        docEnds.reserveCapacity(n)

        for (d, doc) in documents.enumerated() {
            precondition(doc.fields.count <= fieldCount,
                         "TextIndex: a document has \(doc.fields.count) fields but there are \(fieldCount) field weights")
            out.ids.append(doc.id)
            scratch.removeAll(keepingCapacity: true)
            for (f, text) in doc.fields.enumerated() {
                folded.removeAll()
                folded.append(text)
                fieldLengths[d * fieldCount + f] = Int32(folded.wordCount)
                folded.scalars.withUnsafeBufferPointer { sp in
                    var a = 0
                    for end in folded.ends {
                        let t = table.intern(UnsafeBufferPointer(rebasing: sp[a..<Int(end)]))
                        scratch.append(UInt64(t) << 16 | UInt64(f))
                        a = Int(end)
                    }
                }
            }
            scratch.sort()
            var i = 0
            while i < scratch.count {
                var j = i + 1
                while j < scratch.count && scratch[j] == scratch[i] { j += 1 }
                keys.append(scratch[i])
                counts.append(Int32(j - i))
                i = j
            }
            docEnds.append(Int32(keys.count))
        }
        assert(Set(out.ids).count == n, "TextIndex: document ids must be unique")

        // Mean length of each field over all documents.
        var meanLength = [Double](repeating: 0, count: fieldCount)
        for d in 0..<n {
            for f in 0..<fieldCount { meanLength[f] += Double(fieldLengths[d * fieldCount + f]) }
        }
        if n > 0 { for f in 0..<fieldCount { meanLength[f] /= Double(n) } }

        // Sort the vocabulary; `rank[old]` is a term's place in sorted order.
        let order = table.sortedOrder()
        let termCount = order.count
        var rank = [Int32](repeating: 0, count: termCount)
        var scalars: [UInt32] = [], starts: [Int32] = [0]
        scalars.reserveCapacity(table.scalars.count)
        starts.reserveCapacity(termCount + 1)
        for (r, old) in order.enumerated() {
            rank[Int(old)] = Int32(r)
            scalars.append(contentsOf: table.word(Int(old)))
            starts.append(Int32(scalars.count))
        }
        out.vocabulary = Vocabulary(sortedScalars: scalars, starts: starts)

        // Document frequencies, then posting offsets.
        var df = [Int32](repeating: 0, count: termCount)
        var docStart = 0
        for d in 0..<n {
            var lastTerm = UInt64.max
            for e in docStart..<Int(docEnds[d]) {
                let t = keys[e] >> 16
                if t != lastTerm { df[Int(rank[Int(t)])] += 1; lastTerm = t }
            }
            docStart = Int(docEnds[d])
        }
        var postingStarts = [Int32](repeating: 0, count: termCount + 1)
        for t in 0..<termCount { postingStarts[t + 1] = postingStarts[t] + df[t] }
        let total = Int(postingStarts[termCount])
        var postingDocs = [Int32](repeating: 0, count: total)
        var postingValues = [Float](repeating: 0, count: total)
        var cursor = postingStarts
        let k1 = TextIndex.k1, b = TextIndex.b
        let idf = df.map { x -> Double in
            let dfx = Double(x)
            return log1p((Double(n) - dfx + 0.5) / (dfx + 0.5))
        }

        // Postings in document order, with BM25F values.
        docStart = 0
        for d in 0..<n {
            var e = docStart
            let end = Int(docEnds[d])
            while e < end {
                let old = keys[e] >> 16
                var tf = 0.0
                while e < end && keys[e] >> 16 == old {
                    let f = Int(keys[e] & 0xFFFF)
                    let norm = 1 - b + b * Double(fieldLengths[d * fieldCount + f]) / meanLength[f]
                    tf += fieldWeights[f] * Double(counts[e]) / norm
                    e += 1
                }
                let t = Int(rank[Int(old)])
                let p = Int(cursor[t])
                cursor[t] += 1
                postingDocs[p] = Int32(d)
                // (k1 + 1)·tf/(k1 + tf), written so that a huge tf saturates instead of inf/inf.
                postingValues[p] = tf > 0 ? Float(idf[t] * (k1 + 1) / (1 + k1 / tf)) : 0
            }
            docStart = end
        }
        out.postingStarts = postingStarts
        out.postingDocs = postingDocs
        out.postingValues = postingValues
        return out
    }
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

    /// Term numbers in ascending order of their scalar values.
    func sortedOrder() -> [Int32] {
        var order = (0..<Int32(count)).map { $0 }
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
