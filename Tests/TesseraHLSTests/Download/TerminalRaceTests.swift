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

    /// One job of a sweep: how to run it, where its result lands, how to check a finished
    /// result and how to rerun it after a cancellation.
    struct Job<Event>: Sendable {
        let run: @Sendable (@escaping @Sendable (Event) -> Void) async throws(HLSError) -> Void
        let destination: URL
        let expectWhole: @Sendable (String) throws -> Void
        let rerun: @Sendable () async throws -> Void
    }

    /// Cancels a fresh job (`make`) at each event index from 0 to one past the last of a clean
    /// run (`events`) and checks each ending.
    static func sweep<Event>(events: Int, _ make: () throws -> Job<Event>) async throws {
        #expect(events >= 4, "a clean run has events to cancel at: \(events)")
        var lates: [Lock<Int>] = []
        var cancelledOnce = false
        for index in 0...(events + 1) {
            let job = try make()
            let ending = await cancelled(at: index) { (events: @escaping @Sendable (Event) -> Void) async throws(HLSError) in try await job.run(events) }
            lates.append(ending.late)
            switch ending.result {
            case .success:
                try job.expectWhole("cancelled at event \(index), after the commit")
            case .failure(let error):
                cancelledOnce = true
                #expect(error.code == .cancelled, "event \(index): \(error)")
                #expect(!FileManager.default.fileExists(atPath: job.destination.path), "event \(index): nothing at the destination")
                try await job.rerun()
                try job.expectWhole("the rerun after a cancellation at event \(index)")
            }
        }
        #expect(cancelledOnce, "some cancellation landed before the commit")
        #expect(lates.allSatisfy { $0.withLock { $0 } == 0 }, "no event after a run returned")
    }

    @Test("a single-file AES-128 download cancelled at each of its events: the clear reference or nothing, then a rerun gives the clear reference")
    func singleFile() async throws {
        let path = "/c_ts_aes_iv/index.m3u8"
        let reference = try DownloadHarness.clearReference()
        let clean = try DownloadHarness()
        _ = try await clean.download(path)
        try await Self.sweep(events: clean.events.count) { () throws -> Job<SingleFileDownload.Event> in
            let harness = try DownloadHarness()
            var options = SingleFileDownload.Options()
            options.resourceDeadline = nil   // the immediate clock would end it at once
            let job = SingleFileDownload(playlistURL: harness.origin.url(path), destination: harness.destination, client: harness.client, options: options)
            return Job(run: { events throws(HLSError) in _ = try await job.run(events: events) }, destination: harness.destination,
                       expectWhole: { when throws in #expect(try harness.written() == reference, "\(when): the whole clear reference") },
                       rerun: { _ = try await harness.download(path) })
        }
    }

    @Test("a package cancelled at each of its events: the verified package or nothing, then a rerun publishes the same files")
    func package() async throws {
        let path = "/e_multivariant/master.m3u8"
        let clean = try PackageHarness()
        let cleanEvents = PackageHarness.Events()
        _ = try await clean.job(path, options: Self.packageOptions()).run(events: cleanEvents.record)
        let expected = try clean.published()
        try await Self.sweep(events: cleanEvents.all.count) { () throws -> Job<PackageDownload.Event> in
            let harness = try PackageHarness()
            let job = harness.job(path, options: Self.packageOptions())
            return Job(run: { events throws(HLSError) in _ = try await job.run(events: events) }, destination: harness.destination,
                       expectWhole: { when throws in #expect(try harness.published() == expected, "\(when): the whole package") },
                       rerun: { _ = try await harness.job(path, options: Self.packageOptions()).run() })
        }
    }

    static func packageOptions() -> PackageDownload.Options {
        var options = PackageDownload.Options()
        options.selection.subtitles = RenditionPolicy("all") ?? RenditionPolicy()
        return options
    }
}
