/// How far a transfer has come.
public struct TransferProgress: Sendable, Equatable {
    /// Bytes done.
    public var completed: Int64
    /// Bytes expected in all, when the server announced them.
    public var expected: Int64?

    /// Creates a progress value.
    public init(completed: Int64, expected: Int64?) {
        self.completed = completed
        self.expected = expected
    }

    /// `completed / expected` in 0…1, when the size is known.
    public var fraction: Double? {
        guard let expected, expected > 0 else { return nil }
        return min(1, Double(completed) / Double(expected))
    }
}
