import Foundation
import Testing
import TesseraHTTP
import TesseraHTTPTesting
import TesseraTestSupport

/// `data` and `send` over `CurlTransport` run in the caller's task, with no task of their own:
/// `cancelAll()` and `cancel(tag:)` must still reach every wait — the head, the body, a backoff
/// sleep, an interceptor — and must not leave the caller's task cancelled.
@Suite("HTTPPipeline cancellation over libcurl (no task per request)")
struct HTTPPipelineDirectCancellationTests {
    private func pipeline<C: Clock>(_ harness: TransportHarness, clock: C, events: HTTPEventStream? = nil,
                                    _ adjust: (inout HTTPPipelineConfiguration) -> Void = { _ in }) -> HTTPPipeline<C> where C.Duration == Duration {
        var configuration = HTTPPipelineConfiguration()
        configuration.retry.jitter = 0
        adjust(&configuration)
        return HTTPPipeline(transport: harness.transport, configuration: configuration, clock: clock, events: events)
    }

    private func tagged(_ harness: TransportHarness, _ path: String, _ tag: String?) -> HTTPRequest {
        harness.request(path) { $0.cancellationTag = tag }
    }

    /// A task running `body`, its outcome as a value.
    private func running<T: Sendable>(_ body: @escaping @Sendable () async throws(HTTPError) -> T) -> Task<Result<T, HTTPError>, Never> {
        Task { await Self.outcome(body) }
    }

    private static func outcome<T>(_ body: () async throws(HTTPError) -> T) async -> Result<T, HTTPError> {
        do throws(HTTPError) { return .success(try await body()) } catch { return .failure(error) }
    }

    private func expectCancelled<T>(_ result: Result<T, HTTPError>, sourceLocation: SourceLocation = #_sourceLocation) {
        switch result {
        case .success: Issue.record("not cancelled", sourceLocation: sourceLocation)
        case .failure(let error): #expect(error.category == .cancelled, "\(error)", sourceLocation: sourceLocation)
        }
    }

    @Test("cancel(tag:) ends a request waiting for its head; the caller's task is not cancelled and its next request succeeds")
    func headThenNextRequest() async throws {
        let harness = try TransportHarness()
        harness.origin.inject(.hang, path: "/small.bin", attempts: 1...1)
        let pipeline = pipeline(harness, clock: ImmediateClock())
        let caller = Task { () async -> (Result<Int, HTTPError>, Bool, Result<[UInt8], HTTPError>) in
            let first = await Self.outcome { () async throws(HTTPError) in
                try await pipeline.data(tagged(harness, "/small.bin", "a"), upTo: 1 << 20).body.count
            }
            let stillRunning = !Task.isCancelled
            let second = await Self.outcome { () async throws(HTTPError) in
                try await pipeline.data(tagged(harness, "/small.bin", "a"), upTo: 1 << 20).body
            }
            return (first, stillRunning, second)
        }
        while harness.origin.attempts("/small.bin") == 0 { await Task.yield() }
        pipeline.cancel(tag: "b")   // another tag: no effect
        pipeline.cancel(tag: "a")
        let (first, stillRunning, second) = await caller.value
        expectCancelled(first)
        #expect(stillRunning)
        #expect(try second.get() == TransportHarness.small)
        #expect(harness.origin.attempts("/small.bin") == 2)
    }

    @Test("cancelAll() ends data() in the middle of its body")
    func midBody() async throws {
        let harness = try TransportHarness()
        harness.origin.inject(.stall(afterBytes: 100_000), path: "/big.bin")
        let events = HTTPEventStream()
        let stream = events.events
        let pipeline = pipeline(harness, clock: ImmediateClock(), events: events) { $0.retry = .never }
        let caller = running { () async throws(HTTPError) in try await pipeline.data(harness.request("/big.bin"), upTo: 64 << 20).body.count }
        for await event in stream {
            if case .response(let status) = event.kind {
                #expect(status == 200)
                break
            }
        }
        pipeline.cancelAll()
        let result = await caller.value
        expectCancelled(result)
    }

    @Test("cancel(tag:) during a backoff sleep ends the request at once, without another attempt")
    func duringBackoff() async throws {
        let harness = try TransportHarness()
        harness.origin.inject(.status(503), path: "/small.bin")
        let clock = ManualClock()
        let pipeline = pipeline(harness, clock: clock) { $0.retry.initialBackoff = .seconds(30) }
        let caller = running { () async throws(HTTPError) in try await pipeline.data(tagged(harness, "/small.bin", "x"), upTo: 1 << 20).head.status }
        await clock.waitForSleepers(1)
        pipeline.cancel(tag: "x")
        let result = await caller.value
        expectCancelled(result)
        if case .failure(let error) = result { #expect(error.message.contains("waiting to retry")) }
        #expect(harness.origin.attempts("/small.bin") == 1)
    }

    @Test("cancelAll() interrupts an interceptor that is still waiting")
    func duringInterceptor() async throws {
        let harness = try TransportHarness()
        let pipeline = pipeline(harness, clock: ImmediateClock()) { $0.interceptors = [WaitingInterceptor()] }
        let caller = running { () async throws(HTTPError) in try await pipeline.send(harness.request("/small.bin")) }
        await WaitingInterceptor.entered.first { _ in true }
        pipeline.cancelAll()
        let result = await caller.value
        expectCancelled(result)
        #expect(harness.origin.attempts("/small.bin") == 0)
    }

    @Test("cancelling the caller's task still ends a direct request waiting for its head")
    func callerCancels() async throws {
        let harness = try TransportHarness()
        harness.origin.inject(.hang, path: "/small.bin")
        let pipeline = pipeline(harness, clock: ImmediateClock())
        let caller = running { () async throws(HTTPError) in try await pipeline.data(harness.request("/small.bin"), upTo: 1 << 20).head.status }
        while harness.origin.attempts("/small.bin") == 0 { await Task.yield() }
        caller.cancel()
        let result = await caller.value
        expectCancelled(result)
    }
}

/// Waits, until cancelled, before letting a request go; says on `entered` when it starts waiting.
private struct WaitingInterceptor: HTTPInterceptor {
    static let (entered, enteredContinuation) = AsyncStream<Void>.makeStream()

    func intercept(_ request: inout HTTPRequest) async throws(HTTPError) {
        let clock = ManualClock()   // never advanced: only cancellation ends the sleep
        Self.enteredContinuation.yield()
        do { try await clock.sleep(for: .seconds(3600)) } catch {
            throw HTTPError(.cancelled, code: .cancelled, "The interceptor was cancelled.")
        }
    }
}
