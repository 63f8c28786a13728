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
}
