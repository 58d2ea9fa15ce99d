import Foundation
import Testing
import TesseraHLS
import TesseraTestSupport

@Suite("Package progress: the whole package and each track, resources counted as they are written")
struct PackageProgressTests {
    /// The progress events of a run, in order.
    static func progress(_ events: PackageHarness.Events) -> [PackageProgress] {
        events.all.compactMap { if case .progress(let value) = $0 { value } else { nil } }
    }

    /// Each track's count only grows and stays within the plan's, and the last event counts every resource.
    static func expectCounts(_ progress: [PackageProgress], _ summary: PackagePlanSummary) throws {
        let last = try #require(progress.last)
        #expect(last.tracks == summary.resourcesByTrack, "the last progress counts every resource of every track")
        #expect(last.whole.resourcesDone == summary.resources && last.whole.resourceCount == summary.resources)
        for (before, after) in zip(progress, progress.dropFirst()) {
            #expect(after.whole.resourcesDone >= before.whole.resourcesDone)
            for (track, count) in before.tracks { #expect(after.tracks[track, default: 0] >= count, "\(track)") }
        }
        for value in progress {
            #expect(value.tracks.values.reduce(0, +) == value.whole.resourcesDone, "the tracks add up to the whole")
            for (track, count) in value.tracks { #expect(count <= summary.resourcesByTrack[track, default: 0], "\(track)") }
        }
    }

    @Test("a package's progress counts each track's resources as they are written, to every resource of every track")
    func fresh() async throws {
        let harness = try PackageHarness()
        let summary = try await harness.job("/e_multivariant/master.m3u8").plan()
        #expect(summary.resourcesByTrack.count == 2)
        let events = PackageHarness.Events()
        _ = try await harness.job("/e_multivariant/master.m3u8").run(events: events.record)
        try Self.expectCounts(Self.progress(events), summary)
    }

    @Test("a resumed package's progress starts from the restored resources of each track and ends at every resource")
    func resumed() async throws {
        let harness = try PackageHarness()
        let summary = try await harness.job("/e_multivariant/master.m3u8").plan()
        harness.origin.inject(.status(404), path: "/e_multivariant/audio/seg_003.ts", attempts: 1...1)
        await #expect(throws: HLSError.self) { try await harness.job("/e_multivariant/master.m3u8").run() }
        let events = PackageHarness.Events()
        _ = try await harness.job("/e_multivariant/master.m3u8").run(events: events.record)
        let progress = Self.progress(events)
        let first = try #require(progress.first)
        #expect(first.whole.resourcesDone > 0, "the restored resources count from the start")
        try Self.expectCounts(progress, summary)
    }
}
