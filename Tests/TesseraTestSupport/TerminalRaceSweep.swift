import Foundation
import TesseraHLS
import TesseraSupport

/// The races gate's sweep (`Scripts/run_hls_quality_gates.sh --only races`): a job interrupted at
/// every event boundary of a clean run — from before its first event to after its last, when it
/// commits — by a cancellation, by its origin going away or by its volume filling up (a real
/// tmpfs, full: the next checkpoint, partial-file or staging write that needs a page fails)
/// must end with exactly one outcome, deliver no event after it, leave either the whole result or
/// nothing at the destination, and a rerun once the fault is gone must resume to the same bytes
/// as a clean run. The sweep reports what broke; the suites assert it is nothing.
public enum TerminalRaceSweep {
    /// What happens to a job at the chosen event.
    public enum Interruption: String, Sendable, CaseIterable {
        /// Its task is cancelled.
        case cancel
        /// Its origin goes away (the job's `cutOff`).
        case originGone
        /// The volume it writes to fills up.
        case volumeFull

        /// The codes a job so interrupted before its commit may fail with.
        public var codes: Set<HLSError.Code> {
            switch self {
            case .cancel: [.cancelled]
            case .originGone: [.httpStatus]
            case .volumeFull: [.destinationUnwritable, .insufficientSpace]
            }
        }
    }

    /// One job of a sweep: how to run it, how to cut its origin off, where its result lands, how
    /// to check a finished result and how to rerun it after an interruption.
    public struct Job<Event>: Sendable {
        let run: @Sendable (@escaping @Sendable (Event) -> Void) async throws(HLSError) -> Void
        let cutOff: @Sendable (Bool) -> Void
        let destination: URL
        let expectWhole: @Sendable (String) throws -> Void
        let rerun: @Sendable () async throws -> Void

        /// A job; `cutOff(true)` takes its origin away, `cutOff(false)` brings it back;
        /// `expectWhole` checks the finished result (its argument says when, for messages).
        public init(run: @escaping @Sendable (@escaping @Sendable (Event) -> Void) async throws(HLSError) -> Void,
                    cutOff: @escaping @Sendable (Bool) -> Void, destination: URL,
                    expectWhole: @escaping @Sendable (String) throws -> Void, rerun: @escaping @Sendable () async throws -> Void) {
            self.run = run
            self.cutOff = cutOff
            self.destination = destination
            self.expectWhole = expectWhole
            self.rerun = rerun
        }
    }

    /// What a sweep saw: the errors the interrupted runs failed with, and every broken rule.
    public struct Outcome: Sendable {
        public var failures: [HLSError] = []
        public var problems: [String] = []
    }

    /// Interrupts a fresh job (`make`, given the folder to write under: the full volume's, or nil)
    /// at each event index from 0 to one past the last of a clean run (`events`).
    public static func sweep<Event>(_ interruption: Interruption, events: Int, _ make: (URL?) throws -> Job<Event>) async throws -> Outcome {
        var outcome = Outcome()
        if events < 4 { outcome.problems.append("a clean run has too few events to interrupt at: \(events)") }
        let volume = interruption == .volumeFull ? try SmallVolume() : nil
        var lates: [Lock<Int>] = []
        for index in 0...(events + 1) {
            let job = try make(volume?.url)
            let (result, late) = await interrupted(at: index, by: { task in
                switch interruption {
                case .cancel: task.cancel()
                case .originGone: job.cutOff(true)
                case .volumeFull: volume?.fill()
                }
            }) { (events: @escaping @Sendable (Event) -> Void) async throws(HLSError) in try await job.run(events) }
            lates.append(late)
            job.cutOff(false)
            volume?.drain()
            switch result {
            case .success:
                try job.expectWhole("\(interruption) at event \(index), after the commit")
            case .failure(let error):
                outcome.failures.append(error)
                if !interruption.codes.contains(error.code) { outcome.problems.append("\(interruption) at event \(index): \(error)") }
                if FileManager.default.fileExists(atPath: job.destination.path) {
                    outcome.problems.append("\(interruption) at event \(index): something at the destination after \(error.code)")
                }
                try await job.rerun()
                try job.expectWhole("the rerun after \(interruption) at event \(index)")
            }
        }
        if outcome.failures.isEmpty { outcome.problems.append("no \(interruption) landed before the commit") }
        let lateCount = lates.reduce(0) { $0 + $1.withLock { $0 } }
        if lateCount > 0 { outcome.problems.append("\(lateCount) events delivered after their run returned") }
        return outcome
    }

    /// Runs `job` and calls `interrupt` with its task when its `at`-th event arrives (0: before
    /// it starts); the run starts only once the task is known, so no event can come first.
    /// Returns its result and the count of events delivered after it returned.
    static func interrupted<Event>(
        at index: Int, by interrupt: @escaping @Sendable (Task<Result<Void, HLSError>, Never>) -> Void,
        _ run: @escaping @Sendable (@escaping @Sendable (Event) -> Void) async throws(HLSError) -> Void
    ) async -> (Result<Void, HLSError>, late: Lock<Int>) {
        let handle = Lock<Task<Result<Void, HLSError>, Never>?>(nil)
        let seen = Lock(0), ended = Lock(false), late = Lock(0)
        let (go, start) = AsyncStream<Void>.makeStream()
        let task = Task { () -> Result<Void, HLSError> in
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
        return (result, late)
    }
}
