/// A stable least-significant-digit radix sort of 64-bit keys by a range of their bits, 8
/// bits a pass: what orders a big batch by its Morton codes and an id map's entries by
/// their home slots, in O(n) a pass instead of O(n log n) comparisons.
enum RadixSort {
    /// Sorts `keys` by bits `bits` of each key (bit 0 the lowest), stably: keys equal in
    /// those bits keep their order.
    ///
    /// - Complexity: ⌈`bits.count` / 8⌉ passes over the keys, and one scratch array of them.
    static func sort(_ keys: inout [UInt64], byBits bits: Range<Int>) {
        precondition(bits.lowerBound >= 0 && bits.upperBound <= 64, "bits \(bits) of a 64-bit key")
        guard keys.count > 1, !bits.isEmpty else { return }
        // Not zeroed: each pass writes every key before the next reads it.
        var other = [UInt64](unsafeUninitializedCapacity: keys.count) { $1 = keys.count }
        var counts = [Int](repeating: 0, count: 256)
        for shift in stride(from: bits.lowerBound, to: bits.upperBound, by: 8) {
            let digitMask = (1 << min(8, bits.upperBound - shift)) - 1
            keys.withUnsafeBufferPointer { from in
                other.withUnsafeMutableBufferPointer { to in
                    counts.withUnsafeMutableBufferPointer { counts in
                        for i in 0..<256 { counts[i] = 0 }
                        for k in from { counts[Int(truncatingIfNeeded: k >> UInt64(shift)) & digitMask] += 1 }
                        var sum = 0
                        for i in 0..<256 { let c = counts[i]; counts[i] = sum; sum += c }
                        for k in from {
                            let d = Int(truncatingIfNeeded: k >> UInt64(shift)) & digitMask
                            to[counts[d]] = k
                            counts[d] += 1
                        }
                    }
                }
            }
            swap(&keys, &other)
        }
    }
}
