import Foundation
import Testing
import TesseraHLS
import TesseraSupport
import TesseraTestSupport

/// The races gate (`Scripts/run_hls_quality_gates.sh --only races`) for VOD jobs: a single-file
/// download and a package swept by `TerminalRaceSweep` — interrupted at every event boundary of a
/// clean run, the commit included, by a cancellation, by their origin going away (every request
/// answered 404 from then on) or by their volume filling up.
@Suite("Races gate: a job cancelled, cut off or out of space at every point, its commit and checkpoints included, has one outcome")
struct TerminalRaceTests {
    typealias Interruption = TerminalRaceSweep.Interruption

    @Test("a single-file AES-128 download cancelled or cut off at each of its events: the clear reference or nothing, then a rerun gives the clear reference",
          arguments: [Interruption.cancel, .originGone])
    func singleFile(_ interruption: Interruption) async throws {
        try await Self.sweepSingleFile(interruption)
    }

    @Test("a single-file AES-128 download whose volume fills up at each of its events (checkpoint writes included): typed, nothing at the destination, then a rerun resumes to the clear reference",
          .enabled(if: SmallVolume.canMount, "mounting a tmpfs needs root"))
    func singleFileVolumeFull() async throws {
        let failures = try await Self.sweepSingleFile(.volumeFull)
        #expect(failures.contains { $0.message.contains("checkpoint") }, "some fill landed on a checkpoint write: \(failures.map(\.message))")
    }

    @Test("a package cancelled or cut off at each of its events: the verified package or nothing, then a rerun publishes the same files",
          arguments: [Interruption.cancel, .originGone])
    func package(_ interruption: Interruption) async throws {
        try await Self.sweepPackage(interruption)
    }

    @Test("a package whose volume fills up at each of its events (checkpoint, staging and commit writes): typed, nothing published, then a rerun publishes the same files",
          .enabled(if: SmallVolume.canMount, "mounting a tmpfs needs root"))
    func packageVolumeFull() async throws {
        let failures = try await Self.sweepPackage(.volumeFull)
        #expect(failures.contains { $0.message.contains("checkpoint") }, "some fill landed on a checkpoint write: \(failures.map(\.message))")
    }

    @discardableResult
    static func sweepSingleFile(_ interruption: Interruption) async throws -> [HLSError] {
        let path = "/c_ts_aes_iv/index.m3u8"
        let reference = try DownloadHarness.clearReference()
        let clean = try DownloadHarness()
        _ = try await clean.download(path)
        return try await Self.sweep(interruption, events: clean.events.count) { folder throws -> TerminalRaceSweep.Job<SingleFileDownload.Event> in
            let harness = try DownloadHarness(outputParent: folder)
            var options = SingleFileDownload.Options()
            options.resourceDeadline = nil   // the immediate clock would end it at once
            let job = SingleFileDownload(playlistURL: harness.origin.url(path), destination: harness.destination, client: harness.client, options: options)
            return TerminalRaceSweep.Job(run: { events throws(HLSError) in _ = try await job.run(events: events) },
                                         cutOff: { harness.origin.injectEverywhere($0 ? .status(404) : nil) }, destination: harness.destination,
                       expectWhole: { when throws in #expect(try harness.written() == reference, "\(when): the whole clear reference") },
                       rerun: { _ = try await harness.download(path) })
        }
    }

    @discardableResult
    static func sweepPackage(_ interruption: Interruption) async throws -> [HLSError] {
        let path = "/e_multivariant/master.m3u8"
        let clean = try PackageHarness()
        let cleanEvents = PackageHarness.Events()
        _ = try await clean.job(path, options: packageOptions()).run(events: cleanEvents.record)
        let expected = try clean.published()
        return try await Self.sweep(interruption, events: cleanEvents.all.count) { folder throws -> TerminalRaceSweep.Job<PackageDownload.Event> in
            let harness = try PackageHarness(folderParent: folder)
            let job = harness.job(path, options: packageOptions())
            return TerminalRaceSweep.Job(run: { events throws(HLSError) in _ = try await job.run(events: events) },
                                         cutOff: { harness.origin.injectEverywhere($0 ? .status(404) : nil) }, destination: harness.destination,
                       expectWhole: { when throws in #expect(try harness.published() == expected, "\(when): the whole package") },
                       rerun: { _ = try await harness.job(path, options: packageOptions()).run() })
        }
    }

    /// `TerminalRaceSweep.sweep`, its broken rules recorded as issues.
    static func sweep<Event>(_ interruption: Interruption, events: Int, _ make: (URL?) throws -> TerminalRaceSweep.Job<Event>) async throws -> [HLSError] {
        let outcome = try await TerminalRaceSweep.sweep(interruption, events: events, make)
        #expect(outcome.problems.isEmpty, "\(outcome.problems)")
        return outcome.failures
    }

    static func packageOptions() -> PackageDownload.Options {
        var options = PackageDownload.Options()
        options.selection.subtitles = RenditionPolicy("all") ?? RenditionPolicy()
        return options
    }
}
