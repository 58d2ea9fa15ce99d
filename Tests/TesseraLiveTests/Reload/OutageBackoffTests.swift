import Testing
import TesseraLive

@Suite("Outage backoff: capped near one target duration, tried through the window or the caller's limit")
struct OutageBackoffTests {
    @Test("waits double from 250 ms up to the target duration, then stay there")
    func doubling() {
        var backoff = OutageBackoff(targetDuration: .seconds(4), window: .seconds(30))
        let waits = (0..<7).map { index -> Duration in
            guard case .retry(let wait, let attempt) = backoff.failed(outageSoFar: .seconds(index)) else { return .zero }
            #expect(attempt == index + 1)
            return wait
        }
        #expect(waits == [.milliseconds(250), .milliseconds(500), .seconds(1), .seconds(2), .seconds(4), .seconds(4), .seconds(4)])
    }

    @Test("an outage inside the window is tried through; one past it gives up with the attempts made")
    func window() {
        var backoff = OutageBackoff(targetDuration: .seconds(4), window: .seconds(30))
        #expect(backoff.limit == .seconds(30))
        if case .retry(let wait, _) = backoff.failed(outageSoFar: .seconds(28)) { #expect(wait == .milliseconds(250)) }
        #expect(backoff.failed(outageSoFar: .milliseconds(29_900)) == .retry(after: .milliseconds(100), attempt: 2), "never past the limit")
        #expect(backoff.failed(outageSoFar: .seconds(30)) == .giveUp(after: .seconds(30), attempts: 3))
        backoff.succeeded()
        #expect(backoff.failures == 0)
        #expect(backoff.failed(outageSoFar: .zero) == .retry(after: .milliseconds(250), attempt: 1), "a new outage starts over")
    }

    @Test("a recorder's limit outlasts the window; a tiny window still gets one target duration")
    func limits() {
        var recorder = OutageBackoff(targetDuration: .seconds(4), window: .seconds(30), limit: .seconds(600))
        #expect(recorder.failed(outageSoFar: .seconds(300)) == .retry(after: .milliseconds(250), attempt: 1))
        #expect(OutageBackoff(targetDuration: .seconds(6), window: .seconds(2)).limit == .seconds(6))
    }

    @Test("the media sequences an outage missed")
    func missed() {
        #expect(OutageBackoff.missed(lastSeen: 110, firstNow: 115) == 111...114)
        #expect(OutageBackoff.missed(lastSeen: 110, firstNow: 111) == nil)
        #expect(OutageBackoff.missed(lastSeen: 110, firstNow: 100) == nil)
        #expect(OutageBackoff.missed(lastSeen: nil, firstNow: 100) == nil)
    }
}
