#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TesseraHLS
import TesseraPlaylist
import TesseraSupport

/// Records many live channels in one process (`tessera record --channels`): each channel into
/// `directory/NAME` exactly as one `LiveRecording` would — its own checkpoints, so a kill -9
/// resumes every channel with the same call — isolated from the others: its own task, its own
/// client (header fields and retries; every client on one shared transport), its own share of
/// one memory budget and a bound on the playlists it holds. A failure stays the channel's:
/// reported, and by `ChannelFailurePolicy` tried again with a capped backoff (into `NAME.2`,
/// `NAME.3`… once `NAME` holds a committed recording) or left failed, while every other channel
/// records on.
///
/// `update(_:)` takes a new list while it runs (SIGHUP in the CLI): new channels start, removed
/// ones commit and stop, changed ones (another `revision`) commit and start again. `stop()`
/// commits every channel (SIGINT, SIGTERM); cancelling `run` abandons them, keeping their
/// checkpoints. Starts are spread over `Options.startSpread`, so channels of one cadence do not
/// reload together. `status` is every channel's `ChannelStatus`, safe from any thread.
public final class ChannelRecorder: Sendable {
    /// How the channels share the process.
    public struct Options: Sendable {
        /// What a channel's failure does. Default retry, 1 s doubling to 60 s.
        public var onFailure = ChannelFailurePolicy.retry()
        /// Bytes of segments every channel together holds in memory; a channel's share is this
        /// divided among the channels (at least `minimumShare`, at most the channel's own
        /// `TransferBounds.maximumBufferedBytes`), beyond which its bodies go to spill files.
        /// Default 64 MiB.
        public var maximumBufferedBytes: UInt64 = 64 << 20
        /// The least share of a channel. Default 1 MiB.
        public var minimumShare: UInt64 = 1 << 20
        /// The most bytes of playlist a channel reads: a channel's `parser.limits.maximumBytes` is
        /// lowered to it when larger. A playlist is held parsed — about ten bytes of memory for
        /// each of its bytes — so this bounds what a channel whose origin answers huge playlists
        /// can take; beyond it a load fails with `budget-exceeded`, reported and retried as any
        /// failure. Nil leaves each channel its own. Default 4 MiB (a day's window of 6 s
        /// segments whose URIs carry long signed queries).
        public var maximumPlaylistBytes: Int? = 4 << 20
        /// The channels of a list (and those a new list adds) start spread over this span.
        /// Default 2 s.
        public var startSpread: Duration = .seconds(2)
        /// Each channel's polls, timed to land just after its playlist lists a segment, are moved
        /// on by its place in the list times this over the channels, so that channels of one
        /// cadence do not reload at the same instant. Default 100 ms.
        public var pollSpread: Duration = .milliseconds(100)
        /// The clock of the status (seconds since 1970); a test may give another.
        public var now: @Sendable () -> Double = { Date().timeIntervalSince1970 }
        /// The defaults.
        public init() {}
    }

    /// One channel's runner.
    private struct Runner {
        let id: Int
        let channel: RecordingChannel
        let tally: ChannelTally
        var task: Task<Void, Never>?
        var control: RecordingControl?
        var pause: Task<Void, Never>?
        var stopping = false
    }

    private struct State {
        var runners: [String: Runner] = [:]
        /// Runners of channels removed or replaced, until they end.
        var leaving: [Int: Runner] = [:]
        var order: [String] = []
        var next = 0
        var stopped = false
        var events: @Sendable (ChannelEvent) -> Void = { _ in }
        var idle: CheckedContinuation<Void, Never>?
        var active = 0
    }

    /// The folder every channel's folder is in.
    public let directory: URL
    private let options: Options
    private let budget: MemoryBudget
    private let state = Lock(State())

    /// A recorder of channels into `directory`.
    public init(directory: URL, options: Options = Options()) {
        self.directory = directory
        self.options = options
        budget = MemoryBudget(limit: options.maximumBufferedBytes)
    }

    /// Records `channels` (and those `update(_:)` brings) until every channel is over — recorded
    /// to its end, stopped (`stop()`), or failed for good; cancelling the task abandons them
    /// (their checkpoints kept). `events` hears every channel, from several threads.
    public func run(_ channels: [RecordingChannel], events: @escaping @Sendable (ChannelEvent) -> Void = { _ in }) async {
        state.withLock { $0.events = events }
        update(channels)
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let now = state.withLock { state -> Bool in
                    guard state.active > 0 else { return true }
                    state.idle = continuation
                    return false
                }
                if now { continuation.resume() }
            }
        } onCancel: {
            let tasks = state.withLock { state in state.runners.values.compactMap(\.task) + state.leaving.values.compactMap(\.task) }
            for task in tasks { task.cancel() }
        }
        budget.releaseSpares()
    }

    /// Lets go of the segment buffers kept for reuse that no segment took since the last call;
    /// for a recorder that runs for days, call it every minute or so (`tessera record --channels`
    /// does, before handing the freed heap back to the kernel).
    public func releaseIdleMemory() {
        budget.releaseIdleSpares()
    }

    /// Bytes of segment bodies every channel together holds in memory now — arriving, waiting to
    /// be written, and the buffers kept for the next ones: what the shared budget
    /// (`Options.maximumBufferedBytes`) bounds.
    public var bufferedBytes: UInt64 { budget.used + budget.kept }

    /// Takes a new channel list: channels new to it start (spread over `startSpread`), those not
    /// in it commit and stop, those whose revision changed commit and start again; the others go
    /// on as they are (one that recorded to its end stays finished). Ignored once stopped.
    public func update(_ channels: [RecordingChannel]) {
        var stopping: [Runner] = []
        state.withLock { state in
            guard !state.stopped else { return }
            let wanted = Dictionary(channels.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
            for (name, runner) in state.runners where wanted[name]?.revision != runner.channel.revision {
                state.runners[name] = nil
                var leaving = runner
                leaving.stopping = true
                state.leaving[runner.id] = leaving
                stopping.append(leaving)
            }
            let added = channels.filter { state.runners[$0.name] == nil }
            let share = max(options.minimumShare, options.maximumBufferedBytes / UInt64(max(1, channels.count)))
            let places = Dictionary(channels.enumerated().map { ($1.name, $0) }, uniquingKeysWith: { first, _ in first })
            for (index, channel) in added.enumerated() {
                state.next += 1
                let id = state.next
                let previous = state.leaving.values.first { $0.channel.name == channel.name }?.task
                let delay = options.startSpread * (Double(index) / Double(added.count))
                var spread = channel
                spread.options.pollOffset = options.pollSpread * (Double(places[channel.name] ?? 0) / Double(channels.count))
                let channel = spread
                var runner = Runner(id: id, channel: channel, tally: ChannelTally(name: channel.name, url: channel.url, now: options.now))
                state.active += 1
                runner.task = Task { [self] in
                    await record(channel, id: id, share: share, delay: delay, after: previous)
                    ended(id, name: channel.name)
                }
                state.runners[channel.name] = runner
            }
            state.order = channels.map(\.name)
        }
        for runner in stopping { Self.halt(runner) }
    }

    /// Ends every channel cleanly: no channel takes a further segment, each commits what it has.
    /// `run` returns once all have.
    public func stop() {
        let runners = state.withLock { state -> [Runner] in
            state.stopped = true
            for name in state.runners.keys { state.runners[name]?.stopping = true }
            return Array(state.runners.values)
        }
        for runner in runners { Self.halt(runner) }
    }

    /// Publishes what channel `name` holds as a snapshot package beside its folder
    /// (`RecordingControl.snapshot()`).
    /// - Throws: `cancelled` when the channel is not recording now; as `RecordingControl.snapshot()`.
    public func snapshot(_ name: String) async throws(HLSError) -> RecordingSnapshot {
        guard let control = state.withLock({ $0.runners[name]?.control }) else {
            throw HLSError(.cancelled, "The channel \(name) is not recording now: no snapshot was taken.")
        }
        return try await control.snapshot()
    }

    /// Every channel's status: the list's order, then channels leaving it until they end.
    public var status: [ChannelStatus] {
        let tallies = state.withLock { state in
            state.order.compactMap { state.runners[$0]?.tally } + state.leaving.keys.sorted().compactMap { state.leaving[$0]?.tally }
        }
        return tallies.map(\.status)
    }

    private static func halt(_ runner: Runner) {
        runner.control?.stop()
        runner.pause?.cancel()
    }

    /// Runner `id` is over.
    private func ended(_ id: Int, name: String) {
        let idle = state.withLock { state -> CheckedContinuation<Void, Never>? in
            state.leaving[id] = nil
            // A channel still listed keeps its runner (its status) after it ends; one removed goes.
            if state.runners[name]?.id == id, !state.order.contains(name) { state.runners[name] = nil }
            state.active -= 1
            guard state.active == 0 else { return nil }
            defer { state.idle = nil }
            return state.idle
        }
        idle?.resume()
    }

    /// Whether runner `id` is to stop.
    private func isStopping(_ id: Int, name: String) -> Bool {
        state.withLock { state in state.leaving[id] != nil || state.runners[name]?.id != id || state.runners[name]?.stopping == true }
    }

    /// Says `kind` of channel `name` through its tally and the events.
    private func emit(_ kind: ChannelEvent.Kind, of channel: String, tally: ChannelTally) {
        tally.note(kind)
        let events = state.withLock { $0.events }
        events(ChannelEvent(channel: channel, kind: kind))
    }

    /// Sets what `stop()` and `update(_:)` halt for runner `id`; false when it is already to stop.
    private func install(_ id: Int, name: String, control: RecordingControl?, pause: Task<Void, Never>?) -> Bool {
        state.withLock { state in
            if state.leaving[id] != nil {
                state.leaving[id]?.control = control
                state.leaving[id]?.pause = pause
                return false
            }
            guard state.runners[name]?.id == id else { return false }
            state.runners[name]?.control = control
            state.runners[name]?.pause = pause
            return state.runners[name]?.stopping != true
        }
    }

    /// Waits `wait`, or less when the runner is halted or cancelled.
    private func pause(_ wait: Duration, id: Int, name: String) async {
        // The sleep throws only when halted or cancelled: either ends the wait early, as meant.
        let pause = Task { _ = try? await Task.sleep(for: wait) }
        guard install(id, name: name, control: nil, pause: pause) else { pause.cancel(); return }
        await withTaskCancellationHandler { await pause.value } onCancel: { pause.cancel() }
    }

    /// Runner `id`: records `channel` until it is over (after `previous`, the runner it replaces).
    private func record(_ channel: RecordingChannel, id: Int, share: UInt64, delay: Duration, after previous: Task<Void, Never>?) async {
        let name = channel.name
        guard let tally = state.withLock({ $0.runners[name]?.id == id ? $0.runners[name]?.tally : nil }) else { return }
        await previous?.value
        if delay > .zero { await pause(delay, id: id, name: name) }
        var options = channel.options
        options.bounds.sharedBudget = budget
        options.bounds.maximumBufferedBytes = min(options.bounds.maximumBufferedBytes, share)
        if let most = self.options.maximumPlaylistBytes { options.parser.limits.maximumBytes = min(options.parser.limits.maximumBytes, most) }
        var attempt = 0
        var failures = 0
        while !Task.isCancelled {
            let control = RecordingControl()
            guard install(id, name: name, control: control, pause: nil) else { break }
            attempt += 1
            let destination = ChannelDestination.next(in: directory, name: name)
            emit(.started(destination: destination, attempt: attempt), of: name, tally: tally)
            let recording = LiveRecording(url: channel.url, destination: destination, client: channel.client, options: options)
            let failure: HLSError
            do throws(HLSError) {
                let report = try await recording.run(control: control) { [self] event in emit(.recording(event), of: name, tally: tally) }
                emit(.committed(report), of: name, tally: tally)
                failures = 0
                switch report.end {
                case .duration, .endList:
                    emit(.ended(.finished), of: name, tally: tally)
                    return
                case .stopped:
                    emit(.ended(.stopped), of: name, tally: tally)
                    return
                case .sourceRestarted:
                    // `--on-restart end`: each source in a recording of its own, the next at once.
                    guard !isStopping(id, name: name), self.options.onFailure != .stop else {
                        emit(.ended(isStopping(id, name: name) ? .stopped : .finished), of: name, tally: tally)
                        return
                    }
                    continue
                case .failed(let code, let reason):
                    failure = HLSError(code, reason)
                }
            } catch {
                failure = error
            }
            let stopping = isStopping(id, name: name) || Task.isCancelled
            if failure.code == .cancelled || (stopping && failure.code == .nothingRecorded) { break }
            failures += 1
            let wait = stopping || failure.code == .destinationBusy ? nil : self.options.onFailure.wait(after: failures)
            emit(.failed(failure, retryIn: wait), of: name, tally: tally)
            guard let wait else {
                emit(.ended(stopping ? .stopped : .failed), of: name, tally: tally)
                return
            }
            await pause(wait, id: id, name: name)
        }
        emit(.ended(.stopped), of: name, tally: tally)
    }
}
