/// A stable least-significant-digit radix sort by a range of bits of a 64-bit key, 8 bits a
/// pass: what orders a big batch by its Morton codes, an id map's entries by their home
/// slots, an answer's matches by their ids' first bytes and a radius answer's by their
/// millimetres, in O(n) a pass instead of O(n log n) comparisons. A pass whose digit is the same in every key is skipped.
///
/// ```swift
/// var keys: [UInt64] = [0x0300, 0x0102, 0x0201]
/// RadixSort.sort(&keys, byBits: 8..<16)   // [0x0102, 0x0201, 0x0300]
/// ```
public enum RadixSort {
    /// Sorts `keys` by bits `bits` of each key (bit 0 the lowest), stably: keys equal in
    /// those bits keep their order.
    ///
    /// - Complexity: at most ⌈`bits.count` / 8⌉ passes over the keys, and one scratch array.
    public static func sort(_ keys: inout [UInt64], byBits bits: Range<Int>) {
        sort(&keys, byBits: bits) { $0 }
    }

    /// Sorts `items` by bits `bits` of `key(item)` (bit 0 the lowest), stably: items whose
    /// keys are equal in those bits keep their order. `key` is called a few times an item
    /// and a pass, so it should be a field read.
    ///
    /// - Complexity: at most ⌈`bits.count` / 8⌉ passes over the items, and one scratch array.
    @inlinable
    public static func sort<T: BitwiseCopyable>(_ items: inout [T], byBits bits: Range<Int>, key: (T) -> UInt64) {
        precondition(bits.lowerBound >= 0 && bits.upperBound <= 64, "bits \(bits) of a 64-bit key")
        let n = items.count
        guard n > 1, !bits.isEmpty else { return }
        // Not initialized: each pass writes every item before the next reads it.
        var other = [T](unsafeUninitializedCapacity: n) { $1 = n }
        var counts = [Int](repeating: 0, count: 256)
        for shift in stride(from: bits.lowerBound, to: bits.upperBound, by: 8) {
            let digitMask = (1 << min(8, bits.upperBound - shift)) - 1
            let skipped = items.withUnsafeBufferPointer { from in
                other.withUnsafeMutableBufferPointer { to in
                    counts.withUnsafeMutableBufferPointer { counts in
                        for i in 0..<256 { counts[i] = 0 }
                        for item in from { counts[Int(truncatingIfNeeded: key(item) >> UInt64(shift)) & digitMask] += 1 }
                        // Every key has the same digit: this pass would not move anything.
                        if counts[Int(truncatingIfNeeded: key(from[0]) >> UInt64(shift)) & digitMask] == n { return true }
                        var sum = 0
                        for i in 0..<256 { let c = counts[i]; counts[i] = sum; sum += c }
                        for item in from {
                            let d = Int(truncatingIfNeeded: key(item) >> UInt64(shift)) & digitMask
                            to[counts[d]] = item
                            counts[d] += 1
                        }
                        return false
                    }
                }
            }
            if !skipped { swap(&items, &other) }
        }
    }

    /// Sorts `items` by `key`, then each run of items whose keys are equal by `tieOrder`: a
    /// total order from a radix key and a comparison for what the key cannot tell (the
    /// answer orders: ids by their first eight bytes then whole, distances by millimetres
    /// then id). `bits` must hold every bit set in any key.
    ///
    /// - Complexity: ``sort(_:byBits:key:)`` plus a comparison sort of each run of equal keys.
    @inlinable
    public static func sort<T: BitwiseCopyable>(_ items: inout [T], byBits bits: Range<Int>, key: (T) -> UInt64,
                                                ties tieOrder: (T, T) -> Bool) {
        sort(&items, byBits: bits, key: key)
        var start = 0
        while start < items.count {
            let k = key(items[start])
            var end = start + 1
            while end < items.count && key(items[end]) == k { end += 1 }
            if end - start > 1 { items[start..<end].sort(by: tieOrder) }
            start = end
        }
    }
}
