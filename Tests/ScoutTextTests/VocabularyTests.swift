import ScoutCore
@testable import ScoutText
import Testing

/// A vocabulary's typo candidates (`Vocabulary.swift`): kept per word once the trie has been
/// walked for it, they are always exactly the walk's, and the cache stays within its bytes.
@Suite struct VocabularyTests {
    /// A vocabulary of `n` random words of 3–11 letters over a small alphabet (many near
    /// neighbours), sorted and distinct.
    static func vocabulary(_ rng: inout SplitMix64, words n: Int) -> (Vocabulary, [[UInt32]]) {
        var words = Set<[UInt32]>()
        while words.count < n { words.insert((0..<rng.int(3...11)).map { _ in UInt32(0x61 + rng.int(0...5)) }) }
        let sorted = words.sorted { $0.lexicographicallyPrecedes($1) }
        var scalars: [UInt32] = [], starts: [Int32] = [0]
        for w in sorted {
            scalars += w
            starts.append(Int32(scalars.count))
        }
        return (Vocabulary(sortedScalars: scalars, starts: starts), sorted)
    }

    @Test func keptCandidatesAreTheTriesOwn() {
        var rng = SplitMix64(seed: 4_401)
        let (v, words) = Self.vocabulary(&rng, words: 3_000)
        for round in 0..<2_000 {
            // Words of the vocabulary, near ones and strangers, many asked again.
            var w = rng.chance(0.5) ? rng.pick(words) : (0..<rng.int(1...12)).map { _ in UInt32(0x61 + rng.int(0...6)) }
            if rng.chance(0.3), !w.isEmpty { w[rng.int(0...(w.count - 1))] = UInt32(0x61 + rng.int(0...6)) }
            let k = rng.int(0...2)
            var walked: [(term: Int, edits: Int)] = [], kept: [(term: Int, edits: Int)] = [(-1, -1)]
            w.withUnsafeBufferPointer { p in
                v.trie.forEachTerm(within: k, of: p) { walked.append(($0, $1)) }
                v.typoCandidates(of: p, within: k, into: &kept)
            }
            #expect(kept.dropFirst().map(\.term) == walked.map(\.term) && kept.dropFirst().map(\.edits) == walked.map(\.edits),
                    "round \(round): \(w) within \(k)")
            #expect(kept.first?.term == -1, "what the caller had stays")
        }
        #expect(v.typos.bytes > 0 && v.typos.bytes <= TypoCache.maximumBytes)
    }

    @Test func theCacheStaysWithinItsBytes() {
        var rng = SplitMix64(seed: 4_402)
        let (v, _) = Self.vocabulary(&rng, words: 200)
        var out: [(term: Int, edits: Int)] = []
        // Unique long words, each kept with its (empty) candidates, until the cache starts over.
        for i in 0..<20_000 {
            let w = (0..<200).map { UInt32(0x61 + ($0 * 7 + i) % 26) } + [UInt32(0x30 + i % 10), UInt32(i)]
            w.withUnsafeBufferPointer { p in v.typoCandidates(of: p, within: 2, into: &out) }
            #expect(v.typos.bytes <= TypoCache.maximumBytes)
        }
        #expect(v.typos.bytes < 20_000 * (4 * 202 + 96), "it started over")
    }
}
