/// Placeholder: replaced by the ScoutTime implementation.
public struct Instant: Sendable {}
