import Foundation
import Testing
import TesseraHLS
import TesseraSupport
import TesseraTestSupport

/// The races gate (`Scripts/run_hls_quality_gates.sh --only races`): a job cancelled at every
/// event boundary of a clean run — from before its first event to after its last, when it
/// commits — ends with exactly one outcome, delivers no event after it, leaves either the whole
/// result or nothing at the destination, and a rerun resumes to the same bytes as a clean run.
@Suite("Races gate: cancellation at every point of a job, its commit included, has one outcome")
struct TerminalRaceTests {
    /// How one cancelled run ended.
    struct Ending<Report: Sendable>: Sendable {
        let result: Result<Report, HLSError>
        /// Events delivered after the run had returned (must stay 0).
        let late: Lock<Int>
    }

    /// Runs `job` and cancels it when its `at`-th event arrives (0: before it starts); the run
    /// starts only once the task that cancels it is known, so no event can come first.
    static func cancelled<Report: Sendable, Event>(
        at index: Int, _ run: @escaping @Sendable (@escaping @Sendable (Event) -> Void) async throws(HLSError) -> Report
    ) async -> Ending<Report> {
        let handle = Lock<Task<Result<Report, HLSError>, Never>?>(nil)
        let seen = Lock(0), ended = Lock(false), late = Lock(0)
        let (go, start) = AsyncStream<Void>.makeStream()
        let task = Task { () -> Result<Report, HLSError> in
            for await _ in go { break }
            do throws(HLSError) {
                return .success(try await run { _ in
                    if ended.withLock({ $0 }) { late.withLock { $0 += 1 } }
                    if seen.withLock({ count -> Int in count += 1; return count }) == index { handle.withLock { $0?.cancel() } }
                })
            } catch {
                return .failure(error)
            }
        }
        handle.withLock { $0 = task }
        if index == 0 { task.cancel() }
        start.yield()
        let result = await task.value
        ended.withLock { $0 = true }
        return Ending(result: result, late: late)
    }

    @Test("a single-file AES-128 download cancelled at each of its events: the clear reference or nothing, then a rerun gives the clear reference")
    func singleFile() async throws {
        let path = "/c_ts_aes_iv/index.m3u8"
        let reference = try DownloadHarness.clearReference()
        let clean = try DownloadHarness()
        _ = try await clean.download(path)
        let events = clean.events.count
        #expect(events >= 4, "a clean run has events to cancel at: \(events)")
        var lates: [Lock<Int>] = []
        var outcomes: Set<String> = []
        for index in 0...(events + 1) {
            let harness = try DownloadHarness()
            var options = SingleFileDownload.Options()
            options.resourceDeadline = nil   // the immediate clock would end it at once
            let job = SingleFileDownload(playlistURL: harness.origin.url(path), destination: harness.destination, client: harness.client, options: options)
            let ending = await Self.cancelled(at: index) { (events: @escaping @Sendable (SingleFileDownload.Event) -> Void) async throws(HLSError) in
                try await job.run(events: events)
            }
            lates.append(ending.late)
            switch ending.result {
            case .success:
                outcomes.insert("finished")
                #expect(try harness.written() == reference, "cancelled at event \(index) after the commit: the whole file")
            case .failure(let error):
                outcomes.insert("cancelled")
                #expect(error.code == .cancelled, "event \(index): \(error)")
                #expect(!FileManager.default.fileExists(atPath: harness.destination.path), "event \(index): nothing at the destination")
                _ = try await harness.download(path)
                #expect(try harness.written() == reference, "event \(index): the rerun resumes to the clear reference")
            }
        }
        #expect(outcomes.contains("cancelled"), "some cancellation landed before the commit")
        #expect(lates.allSatisfy { $0.withLock { $0 } == 0 }, "no event after a run returned")
    }

    @Test("a package cancelled at each of its events: the verified package or nothing, then a rerun publishes the same files")
    func package() async throws {
        let path = "/e_multivariant/master.m3u8"
        let clean = try PackageHarness()
        let cleanEvents = PackageHarness.Events()
        _ = try await clean.job(path, options: Self.packageOptions()).run(events: cleanEvents.record)
        let expected = try clean.published()
        let events = cleanEvents.all.count
        #expect(events >= 4, "a clean run has events to cancel at: \(events)")
        var lates: [Lock<Int>] = []
        var outcomes: Set<String> = []
        for index in 0...(events + 1) {
            let harness = try PackageHarness()
            let job = harness.job(path, options: Self.packageOptions())
            let ending = await Self.cancelled(at: index) { (events: @escaping @Sendable (PackageDownload.Event) -> Void) async throws(HLSError) in
                try await job.run(events: events)
            }
            lates.append(ending.late)
            switch ending.result {
            case .success:
                outcomes.insert("finished")
                #expect(try harness.published() == expected, "cancelled at event \(index) after the commit: the whole package")
            case .failure(let error):
                outcomes.insert("cancelled")
                #expect(error.code == .cancelled, "event \(index): \(error)")
                #expect(!FileManager.default.fileExists(atPath: harness.destination.path), "event \(index): nothing at the destination")
                _ = try await harness.job(path, options: Self.packageOptions()).run()
                #expect(try harness.published() == expected, "event \(index): the rerun publishes the same files")
            }
        }
        #expect(outcomes.contains("cancelled"), "some cancellation landed before the commit")
        #expect(lates.allSatisfy { $0.withLock { $0 } == 0 }, "no event after a run returned")
    }

    static func packageOptions() -> PackageDownload.Options {
        var options = PackageDownload.Options()
        options.selection.subtitles = RenditionPolicy("all") ?? RenditionPolicy()
        return options
    }
}
