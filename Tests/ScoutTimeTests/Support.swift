// Deterministic randomness and a failure collector for the ScoutTime property tests.
// A failing property case replays from the seed PropertyBased reports.

/// SplitMix64 (Steele, Lea & Flood 2014).
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64

    init(seed: Int) { state = UInt64(bitPattern: Int64(seed)) &* 0x2545_F491_4F6C_DD1D &+ 0x1234567 }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Uniform integer in the range.
    mutating func int(_ r: ClosedRange<Int>) -> Int { Int.random(in: r, using: &self) }
    /// Uniform Int64 in the range.
    mutating func int64(_ r: ClosedRange<Int64>) -> Int64 { Int64.random(in: r, using: &self) }
    /// True with probability p.
    mutating func chance(_ p: Double) -> Bool { Double(next() >> 11) * 0x1p-53 < p }
    /// A uniformly chosen element.
    mutating func pick<T>(_ a: [T]) -> T { a[int(0...(a.count - 1))] }
}

/// Collects the first few failure messages of a property case.
struct FailureLog {
    private(set) var messages: [String] = []
    private(set) var failures = 0
    var isEmpty: Bool { failures == 0 }

    /// Records `message` when `condition` is false; returns `condition`.
    @discardableResult
    mutating func check(_ condition: Bool, _ message: @autoclosure () -> String) -> Bool {
        if !condition {
            failures += 1
            if messages.count < 5 { messages.append(message()) }
        }
        return condition
    }

    var summary: String { "\(failures) failures:\n" + messages.joined(separator: "\n") }
}
