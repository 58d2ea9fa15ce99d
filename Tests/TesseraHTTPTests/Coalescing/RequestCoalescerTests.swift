import Synchronization
import Testing
@testable import TesseraHTTP

@Suite("RequestCoalescer")
struct RequestCoalescerTests {
    /// An operation that counts its runs and waits until the test opens its gate.
    final class GatedOperation: Sendable {
        let runs = Atomic<Int>(0)
        let sawCancellation = Atomic<Bool>(false)
        let gate: AsyncStream<Result<String, HTTPError>>
        let opener: AsyncStream<Result<String, HTTPError>>.Continuation

        init() { (gate, opener) = AsyncStream.makeStream(of: Result<String, HTTPError>.self) }

        func callAsFunction() async throws(HTTPError) -> String {
            runs.add(1, ordering: .relaxed)
            for await outcome in gate { return try outcome.get() }
            sawCancellation.store(Task.isCancelled, ordering: .relaxed)
            throw HTTPError(.cancelled, code: .cancelled, "operation cancelled")
        }
    }

    private func waitForWaiters(_ coalescer: RequestCoalescer<String, String>, _ key: String, _ count: Int) async {
        while await coalescer.waiterCount(for: key) < count { await Task.yield() }
    }

    @Test("concurrent callers with one key share one run and its value")
    func sharesOneRun() async throws {
        let coalescer = RequestCoalescer<String, String>()
        let operation = GatedOperation()
        async let a = coalescer.run("k") { () async throws(HTTPError) in try await operation() }
        async let b = coalescer.run("k") { () async throws(HTTPError) in try await operation() }
        await waitForWaiters(coalescer, "k", 2)
        operation.opener.yield(.success("body"))
        #expect(try await a == "body")
        #expect(try await b == "body")
        let runs = operation.runs.load(ordering: .relaxed)
        #expect(runs == 1)
        #expect(await coalescer.waiterCount(for: "k") == 0)
    }

    @Test("an error is shared by every caller of the run; the next call runs again")
    func sharesErrorsThenRunsAgain() async throws {
        let coalescer = RequestCoalescer<String, String>()
        let operation = GatedOperation()
        async let a = coalescer.run("k") { () async throws(HTTPError) in try await operation() }
        async let b = coalescer.run("k") { () async throws(HTTPError) in try await operation() }
        await waitForWaiters(coalescer, "k", 2)
        operation.opener.yield(.failure(HTTPError(.connect, code: HTTPError.Code("refused"), "refused")))
        var failures = 0
        do { _ = try await a } catch { failures += (error as? HTTPError)?.category == .connect ? 1 : 0 }
        do { _ = try await b } catch { failures += (error as? HTTPError)?.category == .connect ? 1 : 0 }
        #expect(failures == 2)
        operation.opener.yield(.success("again"))
        #expect(try await coalescer.run("k") { () async throws(HTTPError) in try await operation() } == "again")
        let runs = operation.runs.load(ordering: .relaxed)
        #expect(runs == 2)
    }

    @Test("a cancelled caller leaves at once; the others still get the value and the run is not cancelled")
    func oneCallerCancels() async throws {
        let coalescer = RequestCoalescer<String, String>()
        let operation = GatedOperation()
        let leaver = Task { () async throws(HTTPError) -> String in try await coalescer.run("k") { () async throws(HTTPError) in try await operation() } }
        async let stayer = coalescer.run("k") { () async throws(HTTPError) in try await operation() }
        await waitForWaiters(coalescer, "k", 2)
        leaver.cancel()
        let left = await leaver.result
        #expect(throws: HTTPError.self) { try left.get() }
        if case .failure(let error) = left { #expect((error as? HTTPError)?.category == .cancelled) }
        await waitForWaiters(coalescer, "k", 1)
        #expect(await coalescer.waiterCount(for: "k") == 1)
        operation.opener.yield(.success("body"))
        #expect(try await stayer == "body")
        let runs = operation.runs.load(ordering: .relaxed)
        #expect(runs == 1)
        let cancelled = operation.sawCancellation.load(ordering: .relaxed)
        #expect(!cancelled)
    }

    @Test("when every caller has left, the shared run is cancelled")
    func everyoneCancels() async throws {
        let coalescer = RequestCoalescer<String, String>()
        let operation = GatedOperation()
        let caller = Task { () async throws(HTTPError) -> String in try await coalescer.run("k") { () async throws(HTTPError) in try await operation() } }
        await waitForWaiters(coalescer, "k", 1)
        caller.cancel()
        let outcome = await caller.result
        #expect(throws: HTTPError.self) { try outcome.get() }
        while !operation.sawCancellation.load(ordering: .relaxed) { await Task.yield() }
        #expect(await coalescer.waiterCount(for: "k") == 0)
    }

    @Test("different keys run separately")
    func separateKeys() async throws {
        let coalescer = RequestCoalescer<String, String>()
        let first = GatedOperation(), second = GatedOperation()
        async let a = coalescer.run("a") { () async throws(HTTPError) in try await first() }
        async let b = coalescer.run("b") { () async throws(HTTPError) in try await second() }
        await waitForWaiters(coalescer, "a", 1)
        await waitForWaiters(coalescer, "b", 1)
        first.opener.yield(.success("A"))
        second.opener.yield(.success("B"))
        #expect(try await a == "A")
        #expect(try await b == "B")
    }
}
