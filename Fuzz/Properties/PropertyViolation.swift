/// A property a fuzz target checks that one input broke: what was expected and what happened.
///
/// The libFuzzer targets in `Fuzz/Sources/` stop the process with it (`fatalError`), which
/// libFuzzer reports as a crash and saves; the Swift tests replay every committed seed and
/// regression through the same checks (`Tests/ScoutFuzzTests`) and record it as an issue.
public struct PropertyViolation: Error, CustomStringConvertible, Sendable {
    /// The broken property, in words.
    public let description: String

    /// A violation described by `description`.
    public init(_ description: String) { self.description = description }
}
