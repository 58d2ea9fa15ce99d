import Testing
import TesseraLive

@Suite("PlaylistReloadTiming")
struct PlaylistReloadTimingTests {
    let timing = PlaylistReloadTiming(targetDuration: .seconds(6))

    @Test("after a changed playlist the client waits at least the last segment's duration (§6.3.4)")
    func changed() {
        #expect(timing.minimumWait(after: .changed(lastSegmentDuration: .milliseconds(4004))) == .milliseconds(4004))
    }

    @Test("after an unchanged reload the client waits one-half the target duration (§6.3.4)")
    func unchanged() {
        #expect(timing.minimumWait(after: .unchanged) == .seconds(3))
    }

    @Test("the wait is measured from when the last load began")
    func fromLoadStart() {
        let start = ContinuousClock.Instant.now
        #expect(timing.earliestReload(afterLoadStartedAt: start, outcome: .unchanged) == start.advanced(by: .seconds(3)))
    }
}
