#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Sends mutations in the background, in order, through an `HTTPClient`, surviving failures and
/// restarts.
///
/// - `enqueue` stores the mutation (durably, with a `FileMutationStore`) and returns at once. A
///   waiting mutation with the same `key` is replaced (`superseded`): the latest desired state
///   wins. One being sent or waiting to retry is not interrupted; the newer one follows it.
/// - One mutation is sent at a time, oldest first. A retryable outcome (a transport failure, 408,
///   429, 5xx) is tried again after exponential backoff (or the server's `Retry-After`, clamped)
///   up to `retry.maximumAttempts`; a final status (other 4xx) or exhausted attempts fail it.
///   Either way it leaves the store. The client's own retry policy also applies to each attempt.
/// - Every step is a `MutationEvent` on `events` (bounded; the oldest are dropped for a slow
///   reader). Mutations found in the store at `start()` are sent first.
public actor MutationQueue {
    private let client: HTTPClient
    private let store: any MutationStore
    private let retry: RetryPolicy
    private let sleep: @Sendable (Duration) async throws -> Void
    private let wallClock: @Sendable () -> Int64
    private let continuation: AsyncStream<MutationEvent>.Continuation
    /// Status events for every mutation.
    public nonisolated let events: AsyncStream<MutationEvent>
    private var pending: [Mutation] = []
    /// The most mutations waiting at once; `enqueue` refuses more (`queue-full`).
    public let maximumPending: Int
    private var isStarted = false
    private var worker: Task<Void, Never>?
    private var idleWaiters: [CheckedContinuation<Void, Never>] = []

    /// A queue sending through `client`, keeping mutations in `store`, retrying under `retry`,
    /// sleeping on `clock`.
    public init<C: Clock>(client: HTTPClient, store: any MutationStore = InMemoryMutationStore(),
                          retry: RetryPolicy = MutationQueue.defaultRetry, clock: C, eventCapacity: Int = 1024,
                          maximumPending: Int = 10_000,
                          wallClock: @escaping @Sendable () -> Int64 = { Int64(Date().timeIntervalSince1970) }) where C.Duration == Duration {
        self.client = client
        self.store = store
        self.retry = retry
        self.maximumPending = max(1, maximumPending)
        self.sleep = { try await clock.sleep(for: $0) }
        self.wallClock = wallClock
        (events, continuation) = AsyncStream.makeStream(of: MutationEvent.self, bufferingPolicy: .bufferingNewest(max(1, eventCapacity)))
    }

    /// Eight attempts, backoff from 1 s to 5 min.
    public static var defaultRetry: RetryPolicy {
        var policy = RetryPolicy()
        policy.maximumAttempts = 8
        policy.initialBackoff = .seconds(1)
        policy.maximumBackoff = .seconds(300)
        policy.maximumRetryAfter = .seconds(3600)
        return policy
    }

    /// Loads what the store holds (ahead of anything enqueued since) and starts sending.
    /// - Throws: the store's `file` errors.
    public func start() throws(HTTPError) {
        guard !isStarted else { return }
        let stored = try store.load()
        let ids = Set(stored.map(\.idempotencyKey))
        pending = stored + pending.filter { !ids.contains($0.idempotencyKey) }
        isStarted = true
        wake()
    }

    /// Stores `mutation` and schedules it (sending begins at `start()`); returns its id (its
    /// `Idempotency-Key`).
    /// - Throws: `configuration` errors `credentials-in-mutation` (credential-like headers or
    ///   query items) and `queue-full`; the store's `file` errors.
    @discardableResult
    public func enqueue(_ mutation: Mutation) throws(HTTPError) -> String {
        let policy = RedirectPolicy()
        if let field = mutation.headers.first(where: { $0.first.map(policy.isSensitive) ?? false }) {
            throw HTTPError(.invalidRequest, code: .credentialsInMutation,
                            "Mutations are stored; the header \(field[0]) must come from the token source, not the mutation.",
                            stage: .configuration)
        }
        if let item = mutation.query.first(where: { $0.first.map(PayloadRedaction.isSensitive) ?? false }) {
            throw HTTPError(.invalidRequest, code: .credentialsInMutation,
                            "Mutations are stored; the credential-like query item \(item[0]) cannot be part of one.",
                            stage: .configuration)
        }
        guard pending.count < maximumPending else {
            throw HTTPError(.invalidRequest, code: .queueFull,
                            "\(maximumPending) mutations are already waiting; this one was not accepted.", stage: .configuration)
        }
        try store.save(mutation)
        // Replace a waiting mutation with the same key (not the one being sent: index 0 while running).
        let firstReplaceable = worker == nil ? 0 : 1
        if let index = pending.indices.dropFirst(firstReplaceable).first(where: { pending[$0].key == mutation.key }) {
            let old = pending.remove(at: index)
            forget(old)
            emit(old, .superseded)
        }
        pending.append(mutation)
        emit(mutation, .queued)
        wake()
        return mutation.idempotencyKey
    }

    /// Mutations not yet done, oldest first (the one being sent included).
    public var waiting: [Mutation] { pending }

    /// Returns when nothing is waiting.
    public func drained() async {
        guard !pending.isEmpty || worker != nil else { return }
        await withCheckedContinuation { idleWaiters.append($0) }
    }

    /// Stops sending after the current attempt; what is left stays in the store.
    public func stop() {
        isStarted = false
        worker?.cancel()
    }

    private func wake() {
        guard isStarted, worker == nil, !pending.isEmpty else { return }
        worker = Task { await self.run() }
    }

    private func run() async {
        while let mutation = pending.first, !Task.isCancelled {
            await send(mutation)
            if pending.first?.idempotencyKey == mutation.idempotencyKey { pending.removeFirst() }
        }
        worker = nil
        if pending.isEmpty || Task.isCancelled {
            let waiters = idleWaiters
            idleWaiters.removeAll()
            for waiter in waiters { waiter.resume() }
        }
        if !Task.isCancelled { wake() }
    }

    /// Sends one mutation until it succeeds, fails finally, or runs out of attempts.
    private func send(_ mutation: Mutation) async {
        var machine = RetryStateMachine(policy: retry, request: request(for: mutation))
        var budget = RetryBudget(capacity: Double(retry.maximumAttempts))   // the policy's attempts bound it
        var random = SystemRandomNumberGenerator()
        var attempt = 0
        while true {
            attempt += 1
            emit(mutation, .sending(attempt: attempt))
            let outcome: RetryStateMachine.Outcome
            let final: MutationEvent.Status
            do throws(HTTPError) {
                let metadata = try await client.response(endpoint(for: mutation)).metadata
                if (200..<300).contains(metadata.status) {
                    emit(mutation, .succeeded(status: metadata.status))
                    forget(mutation)
                    return
                }
                outcome = .response(status: metadata.status, headers: metadata.headers)
                final = .failed(code: .unacceptableStatus, status: metadata.status)
            } catch {
                if error.stage == .cancelled { return }
                outcome = .failure(error)
                final = .failed(code: error.code, status: error.status)
            }
            switch machine.decide(after: outcome, now: wallClock(), budget: &budget, using: &random) {
            case .retry(let delay):
                emit(mutation, .retrying(attempt: attempt, delay: delay, reason: RetryStateMachine.reason(outcome)))
                do { try await sleep(delay) } catch { return }
            case .stop:
                emit(mutation, final)
                forget(mutation)
                return
            }
        }
    }

    /// Drops a done or superseded mutation from the store. When the store cannot write (a full
    /// disk), the entry stays and is sent again after a restart — at least once, made safe by
    /// its `Idempotency-Key` — so the failure is not an error of the mutation itself.
    private func forget(_ mutation: Mutation) {
        do throws(HTTPError) { try store.remove(mutation.idempotencyKey) } catch { _ = error }
    }

    private func emit(_ mutation: Mutation, _ status: MutationEvent.Status) {
        continuation.yield(MutationEvent(id: mutation.idempotencyKey, key: mutation.key, status: status))
    }

    private func endpoint(for mutation: Mutation) -> RequestBuilder<HTTPNoContent> {
        var builder = RequestBuilder<HTTPNoContent>(HTTPMethod(mutation.method), mutation.path, decoding: .nothing)
        builder.query = mutation.query.compactMap { $0.count == 2 ? ($0[0], $0[1]) : nil }
        for field in mutation.headers where field.count == 2 { builder.headers.add(field[0], field[1]) }
        builder.headers.set("Idempotency-Key", mutation.idempotencyKey)
        if let body = mutation.body {
            builder.body = .bytes(body, contentType: mutation.contentType ?? "application/octet-stream")
        }
        builder.authentication = mutation.authenticated ? .required() : .anonymous
        builder.acceptableStatus = .any   // the queue judges the status itself, with its headers
        return builder
    }

    /// The request the retry rules judge (method and the idempotency key).
    private func request(for mutation: Mutation) -> HTTPRequest {
        var request = HTTPRequest(url: client.baseURL)
        request.method = HTTPMethod(mutation.method)
        request.headers.set("Idempotency-Key", mutation.idempotencyKey)
        return request
    }

}
