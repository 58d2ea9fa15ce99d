#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TesseraHTTP
import TesseraSupport

/// The one runner of media jobs: a download, a package and a recording are each a
/// `JobPlanner` (with its output and report) on it. It owns the lifecycle they share — the
/// fetcher (retries reported), the destination lock, the plan, one Content Steering controller
/// for the whole job, the checkpoint (opened against the plan's fingerprint, the keys it vouches
/// for checked again), the spill folder, the budgets and free space, the transfer engine, the
/// commit, and after a failure what stays for the next run — and runs a job again from its
/// plan, without resuming, when its source changed under a checkpoint (`source-changed`).
///
/// Lifecycle of one attempt (nothing is at the destination before the commit):
///
///     plan → budgets → `planned` → staging → checkpoint (+ keys re-checked) → spill folder
///          → output restored (`resumed`) → free space → transfer → finish → commit
///          ↘ failure: transient (`keepsCheckpoint`) and something written → keep staging and
///            checkpoint; else discard both
package struct MediaJob<Planner: JobPlanner>: Sendable {
    package typealias Event = Planner.Event

    /// What one attempt came to.
    enum Outcome {
        case finished(Planner.Report)
        /// The source changed under the checkpoint: the job runs again without resuming.
        case sourceChanged(HLSError)
    }

    package let planner: Planner
    package let client: HLSClient

    package init(_ planner: Planner, client: HLSClient) {
        self.planner = planner
        self.client = client
    }

    /// Loads and plans without fetching media or touching the destination (a dry run): what the
    /// `planned` event would say. `events` hears the playlists' retries.
    /// - Throws: the failures of the playlist and plan stages.
    package func plan(events: (@Sendable (Event) -> Void)? = nil) async throws(HLSError) -> Planner.Summary {
        planner.summary(of: try await planned(events: events))
    }

    /// The plan `plan` summarises, for a `run` that follows (its playlists then not loaded again);
    /// with `memo`, the playlists another plan of this decision read are not fetched again.
    /// - Throws: as `plan`.
    package func planned(events: (@Sendable (Event) -> Void)? = nil, memo: PlaylistMemo? = nil) async throws(HLSError) -> Planner.Planned {
        try await loading(events: events, memo: memo) { loader throws(HLSError) in try await planner.plan(loader, events: { _ in }) }
    }

    /// `body` on the playlist loader a plan of this job reads through (its retries said to
    /// `events`; with `memo`, what another plan of this decision read is not fetched again).
    /// - Throws: what `body` throws.
    package func loading<Result: Sendable>(events: (@Sendable (Event) -> Void)?, memo: PlaylistMemo?,
                                           _ body: (PlaylistLoader) async throws(HLSError) -> Result) async throws(HLSError) -> Result {
        try await client.withFetcher(retry: events.map(Self.retries)) { fetcher throws(HLSError) in
            try await body(PlaylistLoader(fetcher: fetcher, parser: planner.settings.parser, memo: memo))
        }
    }

    /// The fetcher's retry observer that says each retry to `events`.
    private static func retries(to events: @escaping @Sendable (Event) -> Void) -> @Sendable (HTTPEvent) -> Void {
        { event in
            if case .retry(let attempt, let delay, let reason) = event.kind {
                events(.retry(url: event.url, attempt: attempt, delay: delay, reason: reason))
            }
        }
    }

    /// Loads, plans and runs the job — its first attempt on `planned` when a dry plan was just
    /// made (`planned(events:)`); `events` hears everything in order, from several threads.
    /// - Throws: the job's failure; `source-changed` when the source changed again on the second
    ///   attempt.
    package func run(planned given: Planner.Planned? = nil, events: @escaping @Sendable (Event) -> Void) async throws(HLSError) -> Planner.Report {
        try await client.withFetcher(retry: Self.retries(to: events)) { fetcher throws(HLSError) in
            let loader = PlaylistLoader(fetcher: fetcher, parser: planner.settings.parser)
            let destination = planner.destination
            let paths = JobPaths(destination: destination)
            try? FileManager.default.createDirectory(at: destination.deletingLastPathComponent(), withIntermediateDirectories: true)   // else the lock says why
            let lock: DestinationLock
            do throws(SupportError) { lock = try DestinationLock(destination: destination, path: paths.lock) } catch { throw HLSError(destination: error) }
            defer { lock.release() }
            var resumes = planner.settings.resumes
            var restarted = false
            var given = given
            while true {
                let planned: Planner.Planned
                if let plan = given.take() { planned = plan } else { planned = try await planner.plan(loader, events: events) }
                let outcome = try await steered(planned, loader: loader, events: events) { resolver, controller throws(HLSError) in
                    try await attempt(planned, fetcher: fetcher, loader: loader, paths: paths, resolver: resolver, steering: controller, resumes: resumes, events: events)
                }
                switch outcome {
                case .finished(let report):
                    return report
                case .sourceChanged(let error):
                    guard !restarted, planner.restartsWhenSourceChanges else { throw error }
                    events(.checkpointDiscarded(reason: error.message))
                    resumes = false
                    restarted = true
                }
            }
        }
    }

    /// Runs `work` with the job's one `SteeringController` when `planned` steers (its manifest
    /// reloaded while the work runs) and the resolver: every steered track on the pathway the
    /// controller has in use; else each stream against its playlist's URL.
    private func steered(_ planned: Planner.Planned, loader: PlaylistLoader, events: @escaping @Sendable (Event) -> Void,
                         _ work: (any TransferURLResolver, SteeringController?) async throws(HLSError) -> Outcome) async throws(HLSError) -> Outcome {
        guard let steering = planner.steering(of: planned, events: events) else { return try await work(planner.resolver(of: planned), nil) }
        let state = try SteeringState(multivariant: steering.multivariant, url: steering.url, steering: steering.steering,
                                      penalty: planner.settings.steeringPenalty)
        let controller = SteeringController(state: state, url: steering.url, client: client) { events(.steering($0)) }
        let reloads = Task { await controller.run() }
        defer { reloads.cancel() }
        guard let first = steering.tracks.first else { return try await work(planner.resolver(of: planned), controller) }
        var resolvers: [StreamIdentity: any TransferURLResolver] = [:]
        for track in steering.tracks {
            resolvers[track.stream] = SteeringResolver(controller: controller, stream: track.stream, equivalent: track.equivalent,
                                                       planned: track.playlist, plannedURL: track.url, plannedPathway: steering.pathway,
                                                       multivariantURL: steering.url) { [variables = steering.variables] url throws(HLSError) in
                try await loader.loadMediaPlaylist(url, importing: variables)
            }
        }
        return try await work(StreamResolvers(resolvers, primary: resolvers[first.stream]!), controller)
    }

    /// One attempt with the destination locked (the lifecycle drawn above).
    private func attempt(_ planned: Planner.Planned, fetcher: ResourceFetcher, loader: PlaylistLoader, paths: JobPaths, resolver: any TransferURLResolver,
                         steering: SteeringController?, resumes: Bool, events: @escaping @Sendable (Event) -> Void) async throws(HLSError) -> Outcome {
        let bounds = planner.settings.bounds
        let sizes = planner.sizes(of: planned)
        try bounds.checkBudgets(knownBytes: sizes.known, largestRange: sizes.largestRange)
        events(.planned(planner.summary(of: planned)))
        let keys = KeyCache(fetcher: fetcher, resolver: resolver, prefetched: planner.prefetchedKeys(of: planned))
        let engine = bounds.engine(fetcher: fetcher, resolver: resolver, keys: keys, preparation: planner.preparation(of: planned),
                                   spillFolder: paths.spill, clock: client.clock)
        let context = JobContext(loader: loader, paths: paths, clock: client.clock, engine: engine, steering: steering)
        let staging = try planner.staging(for: planned, context: context)
        var checkpoint: CheckpointLog<Planner.Output.Record>?
        var output: Planner.Output?
        do throws(HLSError) {
            let log = try CheckpointLog<Planner.Output.Record>(path: paths.checkpoint, fingerprint: planner.fingerprint(of: planned), resume: resumes)
            checkpoint = log
            var records = log.restorable
            if let reason = log.discarded {
                events(.checkpointDiscarded(reason: reason))
            } else if let changed = try await keys.change(in: planner.encryption(of: records, in: planned)) {
                events(.checkpointDiscarded(reason: changed))
                records = []
            }
            try SpillFolder.prepare(paths.spill)
            let writer = try planner.output(for: planned, staging: staging, checkpoint: log, context: context, resumes: resumes)
            output = writer
            let restored = try writer.restore(records)
            // The history is not held while the job runs: the log has it.
            records = []
            log.releaseRestorable()
            if let resumed = planner.resumed(restored, output: writer) { events(resumed) }
            try bounds.checkCapacity(knownBytes: sizes.known, restoredBytes: restored.fetchedBytes, destination: planner.destination)
            do {
                try await planner.transfer(planned, into: writer, restored: restored, context: context, events: events)
            } catch where error.code == .cancelled {
                throw HLSError(.cancelled, "The \(planner.settings.noun) to \(paths.destination.path) was cancelled.", cause: error.cause)
            }
            let product = try writer.finish()
            try writer.commit()
            log.remove()
            FolderTree.remove(at: paths.spill)
            return .finished(planner.report(planned, product: product, output: writer, restored: restored))
        } catch {
            settle(error, staging: staging, output: output, checkpoint: checkpoint, paths: paths)
            if error.code == .sourceChanged { return .sourceChanged(error) }
            throw error
        }
    }

    /// After a failure: a transient one keeps the staged result and a checkpoint of what it holds
    /// (flushed now); anything else, or nothing written, removes both.
    private func settle(_ error: HLSError, staging: Planner.Staging, output: Planner.Output?, checkpoint: CheckpointLog<Planner.Output.Record>?,
                        paths: JobPaths) {
        FolderTree.remove(at: paths.spill)
        guard let output else {
            // Before the output took the staging place: an earlier run's state stays for a
            // transient failure, goes with a refusal.
            if error.code.keepsCheckpoint {
                staging.keep()
            } else {
                staging.discard()
                if let checkpoint { checkpoint.remove() } else { try? FileManager.default.removeItem(atPath: paths.checkpoint) }   // absent is fine
            }
            return
        }
        if error.code.keepsCheckpoint, output.resourcesDone > 0,
           (try? output.writer.checkpointIfDue(force: true)) != nil {   // else the checkpoint cannot vouch for what is written: drop both
            output.settle(keeping: true)
            return
        }
        output.settle(keeping: false)
        checkpoint?.remove()
    }
}
