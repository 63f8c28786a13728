import ScoutCore
import Testing

/// The radix sort is a stable sort by the bits it is given, whatever the bits and sizes.
@Suite struct RadixSortTests {
    /// A sort by any range of bits (as an id map sorts entries by home slot: the low bits
    /// of a tag above an entry number) is a stable sort by those bits, with keys random,
    /// few and many alike, and digits shared by every key (passes skipped).
    @Test func aSortByARangeOfBitsIsAStableSortByThem() {
        var rng = SplitMix64(state: 78)
        for n in [0, 1, 2, 300, 5_000, 70_000] {
            for bits in [32..<33, 32..<44, 32..<56, 0..<8, 3..<29, 40..<64, 0..<64] {
                for shape in 0..<3 {
                    let keys = (0..<n).map { _ -> UInt64 in
                        switch shape {
                        case 0: rng.next()
                        case 1: 0x7000_0000_0000_0000 | (rng.next() % 5) << 20   // few distinct, most digits shared
                        default: 0x7061_7274_0000_0000 | rng.next() & 0xFFFF_FFFF
                        }
                    }
                    let mask: UInt64 = bits.count == 64 ? .max : ((1 << UInt64(bits.count)) - 1) << UInt64(bits.lowerBound)
                    let expected = keys.indices.sorted { (keys[$0] & mask, $0) < (keys[$1] & mask, $1) }.map { keys[$0] }
                    var sorted = keys
                    RadixSort.sort(&sorted, byBits: bits)
                    #expect(sorted == expected, "\(n) keys of shape \(shape) by bits \(bits)")
                }
            }
        }
    }

    /// Items sorted by a key field keep their other fields, and equal keys their order.
    @Test func itemsAreSortedByTheirKeyStably() {
        struct Item: Equatable { var key: UInt64; var position: Int32 }
        var rng = SplitMix64(state: 79)
        for n in [2, 255, 256, 257, 10_000] {
            let items = (0..<n).map { Item(key: rng.next() % 97 << 40, position: Int32($0)) }
            var sorted = items
            RadixSort.sort(&sorted, byBits: 0..<64) { $0.key }
            #expect(sorted == items.sorted { ($0.key, $0.position) < ($1.key, $1.position) })
        }
    }

    /// With a tie order, runs of equal keys come out in that order: the same as sorting by
    /// (key, tie field), with few distinct keys (long runs) and many (runs of one).
    @Test func equalKeysAreOrderedByTheTieOrder() {
        struct Item: Equatable { var key: UInt64; var tie: UInt32 }
        var rng = SplitMix64(state: 80)
        for n in [0, 1, 2, 63, 64, 1_000, 10_000] {
            for distinct: UInt64 in [1, 7, 1 << 22] {
                let items = (0..<n).map { _ in Item(key: rng.next() % distinct, tie: UInt32(truncatingIfNeeded: rng.next())) }
                var sorted = items
                RadixSort.sort(&sorted, byBits: 0..<23, key: { $0.key }, ties: { $0.tie < $1.tie })
                #expect(sorted == items.sorted { ($0.key, $0.tie) < ($1.key, $1.tie) }, "\(n) items, \(distinct) keys")
            }
        }
    }
}
