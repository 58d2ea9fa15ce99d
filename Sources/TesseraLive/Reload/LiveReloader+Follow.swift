#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TesseraHLS
import TesseraHTTP
import TesseraPlaylist
import TesseraSupport

extension LiveReloader {
    /// Where a follow is: the playlist held, where it came from, and the recoveries under way.
    struct Position: Sendable {
        var url: URL
        var pathway: String?
        var held: MediaPlaylist?
        /// The SHA-256 of the whole playlist `held` was read from, and where it was answered: a
        /// reload answering the same bytes from the same place is `held` again, not parsed anew.
        var heldBody: (digest: SHA256Digest, url: URL)?
        var receivedAt = Duration.zero
        var loadStart = Duration.zero
        /// Whether the last load changed the playlist (§6.3.4 polls sooner after a change).
        var changed = true
        /// The last response's `Age`, seconds.
        var cachedAge: Double = 0
        var tuneInGoal: Double?
        var scheduler = ReloadScheduler()
        /// When the next segment will be listed, for timing polls.
        var phase = PublicationPhase()
        var backoff: OutageBackoff?
        var outageStart: Duration?
        /// Pathways tried in this outage: a move to one of them waits as a retry does.
        var triedPathways: Set<String> = []
        /// The first request after a pathway move: the rendition report's next part, else nil
        /// (a plain load).
        var afterMove: DeliveryDirectives??
        /// Responses in a row whose edge was behind the held copy's.
        var regressions = 0
        /// When a new segment last appeared (tune-in, else the last reload that listed one).
        var lastNewSegment = Duration.zero
        /// How far past due the next segment was when that was last reported (nil: not yet).
        var stallReported: Duration?
    }

    /// What one reload gave.
    enum Outcome {
        /// `body`: the SHA-256 of a whole playlist's bytes (nil for a delta update).
        case loaded(MediaPlaylist, head: HTTPResponseHead, body: SHA256Digest?)
        case refusedBlocking(Int)
        case refusedDelta(String)
        case failed(HLSError)
    }

    /// Responses whose edge went back that are set aside before the stream is taken to have
    /// restarted there (a cache serving an old copy answers one or two; an origin that restarted
    /// keeps answering).
    public static let regressionsTolerated = 2

    func follow(_ loader: PlaylistLoader, _ channel: SnapshotChannel) async throws(HLSError) {
        let clock = ElapsedClock(client.clock)
        let entry = try await tuneIn(loader, clock)
        var position = Position(url: entry.url, pathway: entry.pathway, cachedAge: entry.age, lastNewSegment: clock.elapsed())
        if let first = entry.first {
            channel.offer(Self.snapshot(first, after: nil, mode: .full, at: clock.elapsed(), missed: nil, freshness: entry.freshness, url: entry.url))
            if first.hasEndList { return }
            position.held = first
            position.receivedAt = clock.elapsed()
            // Asked for at or after the clock's start (a multivariant playlist may have come first).
            position.phase.observe(first, start: .zero, answered: position.receivedAt)
        }
        let steeringReloads = entry.steering.flatMap { steering in steering.runsController ? Task { await steering.controller.run() } : nil }
        defer { steeringReloads?.cancel() }
        while true {
            // No new segment is an outage whether or not the origin answers; reloads that fail
            // are the outage policy's (`outage`), from the first failure on.
            if position.outageStart == nil, let held = position.held { try stall(&position, held: held, now: clock.elapsed()) }
            if let steering = entry.steering, let pathway = position.pathway, let move = await steering.moved(from: pathway) {
                self.move(&position, to: move, reason: "the steering manifest prefers it")
            }
            let plan = self.plan(&position, now: clock.elapsed())
            guard let plan else { return }
            if plan.wait > .zero { try await Self.sleep(plan.wait, clock) }
            position.loadStart = clock.elapsed()
            let request = Self.request(position.url, plan, maximumBytes: options.parser.limits.maximumBytes, first: position.held == nil)
            switch await reload(request, plan: plan, held: position.held, heldBody: position.heldBody, loader: loader, importing: entry.variables) {
            case .refusedBlocking(let status):
                onEvent(.blockingRefused(status: status))
                position.scheduler.blockingRefused()
            case .refusedDelta(let reason):
                onEvent(.deltaRefused(reason: reason))
                position.scheduler.deltaRefused()
            case .failed(let error):
                if error.code == .cancelled || Task.isCancelled { throw HLSError(.cancelled, "Following the live playlist was cancelled.") }
                if let timeout = plan.timeout, plan.directives?.blocks == true, Self.timedOut(error) {
                    onEvent(.blockingTimedOut(after: timeout))
                    position.scheduler.blockingRefused()
                    continue
                }
                try await outage(error, &position, steering: entry.steering, clock: clock)
            case .loaded(let playlist, let head, let body):
                var restarted = false
                if let held = position.held, !playlist.hasEndList, Self.edge(of: playlist).lexicographicallyPrecedes(Self.edge(of: held)) {
                    restarted = true
                    if let evidence = SourceRestart.evidence(playlist, behind: held) {
                        // The source started again: taken at once, whatever came before.
                        onEvent(.sourceRestarted(reason: evidence))
                    } else if position.regressions < Self.regressionsTolerated {
                        // Maybe a copy older than the one held (a cache behind the origin): the
                        // held copy stays the latest state, and the next part is asked for again.
                        position.regressions += 1
                        onEvent(.edgeRegressed(held: Self.edgeText(held), got: Self.edgeText(playlist)))
                        position.scheduler.blockingRefused()
                        continue
                    } else {
                        onEvent(.sourceRestarted(reason: "its edge stayed behind \(Self.edgeText(held)) for \(Self.regressionsTolerated + 1) responses in a row"))
                    }
                }
                position.regressions = 0
                if restarted || (playlist.segments.last?.mediaSequence).map({ $0 > position.held?.segments.last?.mediaSequence ?? 0 }) ?? false
                    || playlist.hasEndList {
                    position.lastNewSegment = clock.elapsed()
                    position.stallReported = nil
                }
                position.cachedAge = Self.age(head)
                if plan.directives?.blocks == true { position.scheduler.resetRefusals() }
                // After a restart nothing of the held copy carries over: all it lists is new.
                let held = restarted ? nil : position.held
                position.changed = held.map { Self.edge(of: $0) != Self.edge(of: playlist) || $0.hasEndList != playlist.hasEndList } ?? true
                let missed = position.outageStart == nil ? nil
                    : OutageBackoff.missed(lastSeen: held?.segments.last?.mediaSequence, firstNow: playlist.segments.first?.mediaSequence ?? playlist.mediaSequence)
                channel.offer(Self.snapshot(playlist, after: held, mode: plan.mode, at: clock.elapsed(), missed: missed, pathway: position.pathway,
                                           freshness: LiveHealth.Freshness(headers: head.headers), url: head.url))
                position.held = playlist
                position.heldBody = body.map { ($0, head.url) }
                position.receivedAt = clock.elapsed()
                position.phase.observe(playlist, start: position.loadStart, answered: position.receivedAt)
                position.backoff = nil
                position.outageStart = nil
                position.triedPathways = []
                if playlist.hasEndList { return }
            }
        }
    }

    /// The stall rule: the next segment was due one target duration after the last new one; past
    /// that, the follow reports how long it has waited (at one target duration, then each time
    /// the wait doubles) and gives up once it has waited the outage limit — the same limit a
    /// failing origin gets (`OutageBackoff`: by default the window) — with `source-stopped`.
    /// - Throws: `source-stopped`.
    private func stall(_ position: inout Position, held: MediaPlaylist, now: Duration) throws(HLSError) {
        guard !held.hasEndList, let last = held.segments.last else { return }
        let target = Duration.seconds(held.targetDuration ?? 6)
        let due = position.lastNewSegment + target
        guard now > due else { return }
        let overdue = now - due
        let window = Duration.milliseconds(Int64(held.segments.reduce(0) { $0 + $1.duration } * 1000))
        let limit = options.outageLimit ?? max(window, target)
        let waited = now - position.lastNewSegment
        if overdue >= limit {
            throw HLSError(.sourceStopped, "\(URLRedaction.redact(position.url)) listed no new segment after \(last.mediaSequence) for \(Self.text(waited)) (target duration \(Self.text(target)), the limit \(Self.text(limit)) past due): the source stopped producing media.")
        }
        guard overdue >= (position.stallReported.map { $0 * 2 } ?? max(target, .seconds(2))) else { return }
        position.stallReported = overdue
        onEvent(.noNewSegment(waited: waited, endsAfter: limit - overdue))
    }

    /// The next reload: the first request after a pathway move, else the scheduler's plan (moved
    /// on by CDN tune-in while responses come from a cache); nil after ENDLIST.
    private func plan(_ position: inout Position, now: Duration) -> ReloadScheduler.Plan? {
        let full = ReloadScheduler.Plan(mode: .full, directives: nil, wait: .zero, timeout: nil)
        if let afterMove = position.afterMove {
            position.afterMove = nil
            guard let directives = afterMove, let held = position.held else { return full }
            return ReloadScheduler.Plan(mode: .blocking, directives: directives, wait: .zero, timeout: DeliveryDirectives.blockingTimeout(for: held))
        }
        guard let held = position.held else { return full }
        guard let next = position.scheduler.next(after: held, changed: position.changed, age: now - position.receivedAt,
                                                 sinceLoadStart: now - position.loadStart) else { return nil }
        if options.alignPolls, next.mode == .poll {
            return ReloadScheduler.Plan(mode: .poll, directives: nil, wait: position.phase.nextReload(earliest: now + next.wait, offset: options.pollOffset) - now,
                                        timeout: nil)
        }
        guard options.tuneIn, position.cachedAge > 0, let directives = next.directives, directives.blocks else { return next }
        let adjusted = TuneIn.adjust(directives, after: held, age: position.cachedAge, sinceAdvanced: 0, previousGoal: position.tuneInGoal)
        position.tuneInGoal = adjusted.goal
        return adjusted.directives.map { ReloadScheduler.Plan(mode: next.mode, directives: $0, wait: next.wait, timeout: next.timeout) } ?? full
    }

    /// A reload failed with `error`: the next pathway's equivalent is tried at once when the
    /// presentation steers and one is left untried in this outage; otherwise the outage policy
    /// waits (or gives up with the typed error).
    private func outage(_ error: HLSError, _ position: inout Position, steering: LiveSteering?, clock: ElapsedClock) async throws(HLSError) {
        position.scheduler.resetRefusals()
        let now = clock.elapsed()
        let started = position.outageStart ?? now
        position.outageStart = started
        if let steering, let pathway = position.pathway {
            position.triedPathways.insert(pathway)
            if let move = await steering.failed(pathway) {
                self.move(&position, to: move, reason: error.message)
                if !position.triedPathways.contains(move.pathway) { return }
            }
        }
        let held = position.held
        let target = Duration.seconds(held?.targetDuration ?? 6)
        let window = Duration.milliseconds(Int64((held?.segments.reduce(0) { $0 + $1.duration } ?? 0) * 1000))
        var policy = position.backoff ?? OutageBackoff(targetDuration: target, window: window, limit: options.outageLimit)
        let decision = policy.failed(outageSoFar: now - started)
        position.backoff = policy
        switch decision {
        case .retry(let wait, let attempt):
            onEvent(.retry(attempt: attempt, wait: wait, reason: error.message))
            try await Self.sleep(wait, clock)
            position.loadStart = clock.elapsed()
        case .giveUp(let after, let attempts):
            throw HLSError(error.code, "\(URLRedaction.redact(url)) could not be reloaded for \(Self.text(after)) (\(attempts) attempts): \(error.message)", cause: error)
        }
    }

    /// Follows the equivalent playlist on `move`'s pathway from the next request on.
    private func move(_ position: inout Position, to move: LiveSteering.Move, reason: String) {
        guard move.pathway != position.pathway || move.url != position.url else { return }
        onEvent(.pathwayChanged(from: position.pathway ?? ".", to: move.pathway, reason: reason))
        position.afterMove = .some(LiveSteering.tuneIn(at: move.url, after: position.held, heldURL: position.url))
        position.url = move.url
        position.pathway = move.pathway
        // The held copy's URIs are the old pathway's: the new one's delta updates could not be
        // merged into it, so the next reloads ask for whole playlists until one is held.
        position.scheduler.deltaRefused()
        position.tuneInGoal = nil
        position.cachedAge = 0
    }

    /// The request of `plan` for the playlist at `url`: bounded by the parser's byte limit, never
    /// retried by the pipeline (a refused or unanswered blocking request gets one plain reload,
    /// an outage the reloader's backoff, each reported); a blocking one waits as long as the
    /// server may hold it (`plan.timeout`).
    static func request(_ url: URL, _ plan: ReloadScheduler.Plan, maximumBytes: Int, first: Bool) -> HTTPRequest {
        let purpose: RequestPurpose = plan.directives?.blocks == true ? .blockingReload : first ? .mediaPlaylist : .liveReload
        var request = HTTPRequest(url: DeliveryDirectives.url(url, with: plan.directives), purpose: purpose)
        request.limits.maximumBodyBytes = UInt64(maximumBytes)
        if let timeout = plan.timeout {
            // Blocking: the server may hold it; then it is a playlist like any other.
            request.limits.timeToFirstByte = timeout
            request.limits.total = timeout + PurposeLimits.playlistDeadline
        }
        request.retry = .never
        return request
    }

    /// Whether `error` is a request that got no answer in time.
    static func timedOut(_ error: HLSError) -> Bool {
        guard let cause = error.cause as? HTTPError else { return false }
        return cause.category == .timeout
    }

    /// "12.3" (segment 12, 3 parts of the next), for events.
    static func edgeText(_ playlist: MediaPlaylist) -> String {
        let edge = edge(of: playlist)
        return "\(edge[0]).\(edge[1])"
    }

    /// One reload through the house's playlist reader: its bounds and checks, the multivariant
    /// playlist's `variables` importable. A whole playlist answered with the bytes `held` was
    /// read from (`heldBody`), from the same URL, is `held` again: not parsed a second time — a
    /// playlist that does not move on costs its channel no new copy of its model at each reload.
    func reload(_ request: HTTPRequest, plan: ReloadScheduler.Plan, held: MediaPlaylist?, heldBody: (digest: SHA256Digest, url: URL)?,
                loader: PlaylistLoader, importing variables: [String: String]) async -> Outcome {
        let response: (head: HTTPResponseHead, body: [UInt8])
        do { response = try await loader.answer(request, what: "Live playlist") } catch {
            return .failed(error)
        }
        if plan.directives?.blocks == true, response.head.status == 400 || response.head.status == 503 {
            return .refusedBlocking(response.head.status)
        }
        guard response.head.isSuccess else {
            return .failed(HLSError(.httpStatus, "The live playlist \(URLRedaction.redact(request.url)) answered HTTP \(response.head.status)."))
        }
        let digest = plan.directives?.skip == nil ? SHA256Hasher.hash(response.body) : nil
        if let held, let digest, let heldBody, heldBody.digest == digest, heldBody.url == response.head.url {
            return .loaded(held, head: response.head, body: digest)
        }
        let parsed: Playlist
        do throws(HLSError) {
            parsed = try loader.parse(response.body, at: response.head.url, named: request.url, importing: variables).playlist
        } catch {
            return .failed(error)
        }
        guard case .media(let playlist) = parsed else {
            return .failed(HLSError(.multivariantPlaylist, "\(URLRedaction.redact(request.url)) is a multivariant playlist; the reloader follows one media playlist."))
        }
        guard let held else { return playlist.skip == nil ? .loaded(playlist, head: response.head, body: digest) : .refusedDelta("a first load cannot be a delta update") }
        switch DeltaMerge.merge(playlist, into: held) {
        case .success(let merged): return .loaded(merged, head: response.head, body: playlist.skip == nil ? digest : nil)
        case .failure(let refusal): return .refusedDelta(refusal.reason)
        }
    }
}
