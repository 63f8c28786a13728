/// SplitMix64 (Steele, Lea & Flood 2014): a tiny, fast, well-mixed 64-bit generator. The one
/// seeded generator of the project: the recommender's exploration draws (`SeededRandom` wraps
/// it), the tests' scenarios and the benchmarks' inputs all draw from it, so the same state
/// gives the same sequence everywhere.
///
///     var rng = SplitMix64(state: 42)
///     let coin = rng.unit() < 0.5
///
/// Not for secrets: the sequence is predictable from any output.
public struct SplitMix64: RandomNumberGenerator, Sendable, Hashable {
    /// The generator's whole state: the next output depends on it alone.
    public var state: UInt64

    /// A generator that starts from `state` as given (no mixing of the seed).
    public init(state: UInt64) { self.state = state }

    /// The next 64 random bits.
    ///
    /// - Complexity: O(1), a handful of multiplies and shifts.
    @inlinable
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Uniform in [0, 1): the top 53 bits of ``next()``.
    @inlinable
    public mutating func unit() -> Double { Double(next() >> 11) * 0x1p-53 }

    /// Uniform in [a, b).
    @inlinable
    public mutating func uniform(_ a: Double, _ b: Double) -> Double { a + (b - a) * unit() }

    /// An integer in 0..<n, as ``next()`` modulo n (a bias below n / 2⁶⁴: for test inputs and
    /// benchmarks, not for sampling that must be exact). `n` must be positive.
    @inlinable
    public mutating func below(_ n: Int) -> Int { Int(next() % UInt64(n)) }
}
