import ScoutCore
@testable import ScoutIndex
import Testing

/// The order a big batch is appended in: the radix sort gives exactly what a comparison sort
/// of the same keys gives.
@Suite struct SpatialOrderTests {
    /// Keys as `PointSet.spatialOrder` makes them (a code in the high half, the position in
    /// the low half, rising), with few distinct codes or many, at sizes around a pass's 256
    /// buckets: sorted as `sort()` sorts them.
    @Test func theRadixSortSortsAsSortDoes() {
        var rng = SplitMix64(state: 77)
        for n in [0, 1, 2, 255, 256, 257, 1024, 5000, 70_000] {
            for distinct: UInt64 in [1, 3, 300, 1 << 32] {
                var keys = (0..<n).map { i -> UInt64 in
                    let code = distinct == 1 << 32 ? rng.next() >> 32 : (rng.next() % distinct) << UInt64(rng.next() % 25)
                    return code << 32 | UInt64(i)
                }
                let expected = keys.sorted()
                PointSet.radixSortByHighHalf(&keys)
                #expect(keys == expected, "\(n) keys, \(distinct) codes")
            }
        }
    }

    /// A sort by any range of bits (as an id map sorts entries by home slot: the low bits
    /// of a tag above an entry number) is a stable sort by those bits.
    @Test func aSortByARangeOfBitsIsAStableSortByThem() {
        var rng = SplitMix64(state: 78)
        for n in [0, 1, 2, 300, 5_000, 70_000] {
            for bits in [32..<33, 32..<44, 32..<56, 0..<8, 3..<29, 40..<64] {
                let keys = (0..<n).map { _ in rng.next() }
                let mask: UInt64 = bits.count == 64 ? .max : ((1 << UInt64(bits.count)) - 1) << UInt64(bits.lowerBound)
                let expected = keys.indices.sorted { (keys[$0] & mask, $0) < (keys[$1] & mask, $1) }.map { keys[$0] }
                var sorted = keys
                RadixSort.sort(&sorted, byBits: bits)
                #expect(sorted == expected, "\(n) keys by bits \(bits)")
            }
        }
    }
}
