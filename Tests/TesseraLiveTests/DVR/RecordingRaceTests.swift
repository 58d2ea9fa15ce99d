import Foundation
import Testing
import TesseraHLS
import TesseraLive
import TesseraSupport
import TesseraTestSupport

/// The races gate for a live recording: a recording of the LL-HLS test origin, from the window
/// start to ENDLIST, swept by `TerminalRaceSweep` — cancelled, or its volume filled, at every
/// event boundary of a clean run: before it starts, between its checkpoint appends, while it
/// commits the package. (An origin that goes away is not an interruption of a recording but what
/// it records as gaps: `LiveRecordingTests` proves that.)
@Suite("Races gate: a live recording cancelled or out of space at every point, its checkpoints and commit included, has one outcome")
struct RecordingRaceTests {
    typealias Live = LiveRecordingTests.Live

    /// Segments recorded before the origin's ENDLIST.
    static let segments = 6

    @Test("a live recording cancelled at each of its events: the verified package or nothing, then a resumed run commits the same files as a clean one")
    func cancelled() async throws {
        try await Self.sweep(.cancel)
    }

    @Test("a live recording whose volume fills up at each of its events (checkpoint, segment and commit writes): typed, nothing committed, then a resumed run commits the same files",
          .enabled(if: SmallVolume.canMount, "mounting a tmpfs needs root"))
    func volumeFull() async throws {
        let failures = try await Self.sweep(.volumeFull)
        #expect(failures.contains { $0.message.contains("checkpoint") }, "some fill landed on a checkpoint write: \(failures.map(\.message))")
    }

    @discardableResult
    static func sweep(_ interruption: TerminalRaceSweep.Interruption) async throws -> [HLSError] {
        let clean = try Live()
        let events = Lock(0)
        _ = try await record(clean, to: clean.destination, publisher: LiveRecordingTests.Publisher(clean.origin)) { _ in events.withLock { $0 += 1 } }
        let expected = try PackageHarness.files(under: clean.destination)
        #expect(expected.keys.contains("video/index.m3u8") && expected.count > segments, "\(expected.keys.sorted())")
        let outcome = try await TerminalRaceSweep.sweep(interruption, events: events.withLock { $0 }) { folder throws -> TerminalRaceSweep.Job<LiveRecording.Event> in
            let live = try Live()
            let destination = try folder.map { try TemporaryDirectory(under: $0).url.appendingPathComponent("rec") } ?? live.destination
            // One publisher for the run and its rerun: the origin never runs ahead of what the
            // recording accounted for, so a resumed run finds its next segment in the window.
            let publisher = LiveRecordingTests.Publisher(live.origin)
            return TerminalRaceSweep.Job(
                run: { events throws(HLSError) in _ = try await record(live, to: destination, publisher: publisher, events: events) },
                cutOff: { _ in }, destination: destination,
                expectWhole: { when throws in #expect(try PackageHarness.files(under: destination) == expected, "\(when): the whole recording") },
                rerun: { _ = try await record(live, to: destination, publisher: publisher) })
        }
        #expect(outcome.problems.isEmpty, "\(outcome.problems)")
        return outcome.failures
    }

    /// Records `live` from the window start to the origin's ENDLIST after `segments`, resuming a
    /// checkpoint when there is one.
    static func record(_ live: Live, to destination: URL, publisher: LiveRecordingTests.Publisher,
                       events: @escaping @Sendable (LiveRecording.Event) -> Void = { _ in }) async throws(HLSError) -> RecordingReport {
        var options = LiveRecording.Options()
        options.start = .windowStart
        options.resume = .ifPossible
        return try await live.recording(options, to: destination).run { event in
            publisher.follow(event, endAfter: segments)
            events(event)
        }
    }
}
