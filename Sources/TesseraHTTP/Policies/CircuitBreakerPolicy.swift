/// When a host's circuit opens and how it recovers.
public struct CircuitBreakerPolicy: Sendable, Equatable {
    /// Consecutive failures that open the circuit. Default 5.
    public var failureThreshold = 5
    /// How long an open circuit refuses requests before letting one probe through. Default 30 s.
    public var coolDown: Duration = .seconds(30)

    /// The defaults.
    public init() {}
}
