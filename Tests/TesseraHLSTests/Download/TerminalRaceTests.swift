import Foundation
import Testing
import TesseraHLS
import TesseraSupport
import TesseraTestSupport

/// The races gate (`Scripts/run_hls_quality_gates.sh --only races`): a job interrupted at every
/// event boundary of a clean run — from before its first event to after its last, when it
/// commits — by a cancellation, by its origin going away (every request answered 404 from then
/// on) or by its volume filling up (a real tmpfs, full: the next checkpoint, partial-file or
/// staging write that needs a page fails) ends with exactly one outcome, delivers no event after
/// it, leaves either the whole result or nothing at the destination, and a rerun once the fault
/// is gone resumes to the same bytes as a clean run.
@Suite("Races gate: a job cancelled, cut off or out of space at every point, its commit and checkpoints included, has one outcome")
struct TerminalRaceTests {
    /// What happens to a job at the chosen event.
    enum Interruption: String, Sendable, CaseIterable {
        /// Its task is cancelled.
        case cancel
        /// Every request from then on is answered 404.
        case originGone
        /// The volume it writes to fills up.
        case volumeFull

        /// The codes a job so interrupted before its commit may fail with.
        var codes: Set<HLSError.Code> {
            switch self {
            case .cancel: [.cancelled]
            case .originGone: [.httpStatus]
            case .volumeFull: [.destinationUnwritable, .insufficientSpace]
            }
        }
    }

    /// How one interrupted run ended.
    struct Ending<Report: Sendable>: Sendable {
        let result: Result<Report, HLSError>
        /// Events delivered after the run had returned (must stay 0).
        let late: Lock<Int>
    }

    /// Runs `job` and calls `interrupt` with its task when its `at`-th event arrives (0: before
    /// it starts); the run starts only once the task is known, so no event can come first.
    static func interrupted<Report: Sendable, Event>(
        at index: Int, by interrupt: @escaping @Sendable (Task<Result<Report, HLSError>, Never>) -> Void,
        _ run: @escaping @Sendable (@escaping @Sendable (Event) -> Void) async throws(HLSError) -> Report
    ) async -> Ending<Report> {
        let handle = Lock<Task<Result<Report, HLSError>, Never>?>(nil)
        let seen = Lock(0), ended = Lock(false), late = Lock(0)
        let (go, start) = AsyncStream<Void>.makeStream()
        let task = Task { () -> Result<Report, HLSError> in
            for await _ in go { break }
            do throws(HLSError) {
                return .success(try await run { _ in
                    if ended.withLock({ $0 }) { late.withLock { $0 += 1 } }
                    if seen.withLock({ count -> Int in count += 1; return count }) == index, let task = handle.withLock({ $0 }) { interrupt(task) }
                })
            } catch {
                return .failure(error)
            }
        }
        handle.withLock { $0 = task }
        if index == 0 { interrupt(task) }
        start.yield()
        let result = await task.value
        ended.withLock { $0 = true }
        return Ending(result: result, late: late)
    }

    /// One job of a sweep: how to run it, its origin, where its result lands, how to check a
    /// finished result and how to rerun it after an interruption.
    struct Job<Event>: Sendable {
        let run: @Sendable (@escaping @Sendable (Event) -> Void) async throws(HLSError) -> Void
        let origin: OriginSimulator
        let destination: URL
        let expectWhole: @Sendable (String) throws -> Void
        let rerun: @Sendable () async throws -> Void
    }

    /// Interrupts a fresh job (`make`, given the folder to write under) at each event index from
    /// 0 to one past the last of a clean run (`events`) and checks each ending; returns the
    /// errors the interrupted runs failed with.
    @discardableResult
    static func sweep<Event>(_ interruption: Interruption, events: Int, _ make: (URL?) throws -> Job<Event>) async throws -> [HLSError] {
        #expect(events >= 4, "a clean run has events to interrupt at: \(events)")
        let volume = interruption == .volumeFull ? try SmallVolume() : nil
        var lates: [Lock<Int>] = []
        var failures: [HLSError] = []
        for index in 0...(events + 1) {
            let job = try make(volume?.url)
            let ending = await interrupted(at: index, by: { task in
                switch interruption {
                case .cancel: task.cancel()
                case .originGone: job.origin.injectEverywhere(.status(404))
                case .volumeFull: volume?.fill()
                }
            }) { (events: @escaping @Sendable (Event) -> Void) async throws(HLSError) in try await job.run(events) }
            lates.append(ending.late)
            job.origin.injectEverywhere(nil)
            volume?.drain()
            switch ending.result {
            case .success:
                try job.expectWhole("\(interruption) at event \(index), after the commit")
            case .failure(let error):
                failures.append(error)
                #expect(interruption.codes.contains(error.code), "\(interruption) at event \(index): \(error)")
                #expect(!FileManager.default.fileExists(atPath: job.destination.path), "\(interruption) at event \(index): nothing at the destination")
                try await job.rerun()
                try job.expectWhole("the rerun after \(interruption) at event \(index)")
            }
        }
        #expect(!failures.isEmpty, "some \(interruption) landed before the commit")
        #expect(lates.allSatisfy { $0.withLock { $0 } == 0 }, "no event after a run returned")
        return failures
    }

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
        return try await sweep(interruption, events: clean.events.count) { folder throws -> Job<SingleFileDownload.Event> in
            let harness = try DownloadHarness(outputParent: folder)
            var options = SingleFileDownload.Options()
            options.resourceDeadline = nil   // the immediate clock would end it at once
            let job = SingleFileDownload(playlistURL: harness.origin.url(path), destination: harness.destination, client: harness.client, options: options)
            return Job(run: { events throws(HLSError) in _ = try await job.run(events: events) }, origin: harness.origin, destination: harness.destination,
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
        return try await sweep(interruption, events: cleanEvents.all.count) { folder throws -> Job<PackageDownload.Event> in
            let harness = try PackageHarness(folderParent: folder)
            let job = harness.job(path, options: packageOptions())
            return Job(run: { events throws(HLSError) in _ = try await job.run(events: events) }, origin: harness.origin, destination: harness.destination,
                       expectWhole: { when throws in #expect(try harness.published() == expected, "\(when): the whole package") },
                       rerun: { _ = try await harness.job(path, options: packageOptions()).run() })
        }
    }

    static func packageOptions() -> PackageDownload.Options {
        var options = PackageDownload.Options()
        options.selection.subtitles = RenditionPolicy("all") ?? RenditionPolicy()
        return options
    }
}
