import Testing
import TesseraHTTP

@Suite("CircuitBreakerStateMachine")
struct CircuitBreakerStateMachineTests {
    typealias Machine = CircuitBreakerStateMachine<ContinuousClock.Instant>
    let start = ContinuousClock.Instant.now
    var policy: CircuitBreakerPolicy {
        var policy = CircuitBreakerPolicy()
        policy.failureThreshold = 3
        policy.coolDown = .seconds(10)
        return policy
    }

    @Test("the circuit opens after the failure threshold and refuses until the cool-down ends")
    func opens() {
        var m = Machine(policy: policy)
        for _ in 0..<2 { m.record(success: false, at: start) }
        #expect(m.admit(at: start) == .allowed)
        m.record(success: false, at: start)
        #expect(m.state == .open(until: start.advanced(by: .seconds(10))))
        #expect(m.admit(at: start.advanced(by: .seconds(9))) == .refused)
    }

    @Test("after the cool-down exactly one probe goes; its success closes the circuit")
    func probeSucceeds() {
        var m = Machine(policy: policy)
        for _ in 0..<3 { m.record(success: false, at: start) }
        let later = start.advanced(by: .seconds(10))
        #expect(m.admit(at: later) == .probe)
        #expect(m.admit(at: later) == .refused)
        m.record(success: true, at: later)
        #expect(m.state == .closed(failures: 0) && m.admit(at: later) == .allowed)
    }

    @Test("a failed probe opens the circuit for another cool-down")
    func probeFails() {
        var m = Machine(policy: policy)
        for _ in 0..<3 { m.record(success: false, at: start) }
        let later = start.advanced(by: .seconds(10))
        _ = m.admit(at: later)
        m.record(success: false, at: later)
        #expect(m.state == .open(until: later.advanced(by: .seconds(10))))
    }

    @Test("a success resets the count of consecutive failures")
    func reset() {
        var m = Machine(policy: policy)
        for _ in 0..<2 { m.record(success: false, at: start) }
        m.record(success: true, at: start)
        for _ in 0..<2 { m.record(success: false, at: start) }
        #expect(m.state == .closed(failures: 2))
    }
}
