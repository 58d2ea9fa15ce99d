/// A value moved to work the mover waits for — a `BlockingLane`'s — and taken there exactly
/// once: its owner changes, its references do not multiply (a buffer taken from it is still
/// uniquely referenced, so it can be changed or recycled in place).
///
/// `@unchecked Sendable`: the value is set before the handoff and taken once after it, by work
/// the giver waits for (the lane's queue orders the two); nothing touches it concurrently.
public final class Handoff<Value>: @unchecked Sendable {
    private var value: Value?

    /// Holds `value` for the taker.
    public init(_ value: consuming Value) {
        self.value = consume value
    }

    /// Takes the value (once).
    public func take() -> Value {
        guard let taken = value.take() else { preconditionFailure("a handoff is taken once") }
        return taken
    }
}
