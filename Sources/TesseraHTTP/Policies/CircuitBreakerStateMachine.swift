/// One host's circuit, as a plain value driven by instants from an injected clock: closed (all
/// requests go), open (all refused until the cool-down ends), half-open (exactly one probe goes;
/// its success closes the circuit, its failure opens it again).
public struct CircuitBreakerStateMachine<Instant: InstantProtocol & Sendable>: Sendable where Instant.Duration == Duration {
    /// The circuit's state.
    public enum State: Sendable, Equatable {
        /// Requests go; `failures` consecutive failures so far.
        case closed(failures: Int)
        /// Requests are refused until `until`.
        case open(until: Instant)
        /// One probe is out; other requests are refused.
        case halfOpen
    }

    /// Whether a request may go.
    public enum Admission: Sendable, Equatable {
        /// Send it.
        case allowed
        /// Send it as the half-open probe; report its outcome.
        case probe
        /// Refuse it without sending (`circuit-open`).
        case refused
    }

    private let policy: CircuitBreakerPolicy
    /// The current state.
    public private(set) var state: State = .closed(failures: 0)

    /// A closed circuit.
    public init(policy: CircuitBreakerPolicy) { self.policy = policy }

    /// Asks to send a request at `now`.
    public mutating func admit(at now: Instant) -> Admission {
        switch state {
        case .closed: return .allowed
        case .halfOpen: return .refused
        case .open(let until):
            guard now >= until else { return .refused }
            state = .halfOpen
            return .probe
        }
    }

    /// Records a request's outcome at `now`: success (any response the server chose to send) or
    /// failure (a transport failure or a 5xx).
    public mutating func record(success: Bool, at now: Instant) {
        switch (state, success) {
        case (_, true):
            state = .closed(failures: 0)
        case (.closed(let failures), false):
            state = failures + 1 >= policy.failureThreshold ? .open(until: now.advanced(by: policy.coolDown)) : .closed(failures: failures + 1)
        case (.halfOpen, false), (.open, false):
            state = .open(until: now.advanced(by: policy.coolDown))
        }
    }
}
