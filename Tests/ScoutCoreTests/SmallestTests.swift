import ScoutCore
import ScoutTestSupport
import Testing

/// `smallest(_:by:)` against its oracle, the sorted sequence's prefix, over random
/// sequences with many ties broken by position (so the order is total), every k from 0 past
/// the length, and sequences that arrive sorted, reversed or all equal.
@Suite struct SmallestTests {
    struct Item: Equatable { let key: Int, position: Int }
    static func before(_ a: Item, _ b: Item) -> Bool { a.key != b.key ? a.key < b.key : a.position < b.position }

    @Test func theFirstKEqualTheSortedPrefix() {
        var rng = SplitMix64(seed: 77)
        for round in 0..<300 {
            let n = rng.int(0...60)
            var keys = (0..<n).map { _ in rng.int(0...9) }
            switch round % 4 {
            case 1: keys.sort()
            case 2: keys.sort(by: >)
            case 3: keys = keys.map { _ in 4 }
            default: break
            }
            let items = keys.enumerated().map { Item(key: $1, position: $0) }
            let sorted = items.sorted(by: Self.before)
            for k in [0, 1, 2, rng.int(0...(n + 2)), n - 1, n, n + 5] where k >= 0 {
                #expect(items.smallest(k, by: Self.before) == Array(sorted.prefix(k)), "round \(round), n \(n), k \(k)")
            }
        }
    }

    @Test func aNegativeKGivesNothingAndALazySequenceWorks() {
        #expect([3, 1, 2].smallest(-1, by: <) == [])
        #expect((0..<1000).lazy.map { ($0 * 7919) % 1000 }.smallest(3, by: <) == [0, 1, 2])
        #expect([5, 1, 4, 2, 3].smallest(2, by: >) == [5, 4])
    }
}
