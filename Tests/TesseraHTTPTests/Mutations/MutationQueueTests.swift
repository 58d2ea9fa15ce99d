import Foundation
import Testing
import TesseraHTTP
import TesseraHTTPTesting
import TesseraTestSupport
import TesseraSupport

@Suite("MutationQueue over libcurl")
struct MutationQueueTests {
    /// A queue over a client of `harness` without the client's own retries (the queue's are under test).
    private func queue(_ harness: ClientHarness, store: any MutationStore = InMemoryMutationStore(),
                       attempts: Int = 4) throws -> MutationQueue {
        var retry = MutationQueue.defaultRetry
        retry.maximumAttempts = attempts
        retry.jitter = 0
        let client = try harness.client { $0.pipeline.retry = .never }
        return MutationQueue(client: client, store: store, retry: retry, clock: harness.clock)
    }

    private func events(_ queue: MutationQueue, count: Int) async -> [MutationEvent] {
        var out: [MutationEvent] = []
        for await event in queue.events {
            out.append(event)
            if out.count == count { break }
        }
        return out
    }

    @Test("mutations are sent in order with their Idempotency-Key and body; events trace each")
    func sendsInOrder() async throws {
        let harness = try ClientHarness { _ in ScriptedServer.Reply(204) }
        let queue = try queue(harness)
        let first = try await queue.enqueue(Mutation(key: "a", method: .put, path: "items/a", body: Array("1".utf8), contentType: "text/plain"))
        let second = try await queue.enqueue(try Mutation.json(key: "b", method: .post, path: "items", ["name": "b"]))
        try await queue.start()
        await queue.drained()
        #expect(harness.server.log.map(\.path) == ["/api/v1/items/a", "/api/v1/items"])
        #expect(harness.server.log.map { $0.headers["Idempotency-Key"] } == [first, second])
        #expect(harness.server.log[0].body == Array("1".utf8) && harness.server.log[1].headers["Content-Type"] == "application/json")
        let seen = await events(queue, count: 6)
        #expect(seen.map(\.status) == [.queued, .queued, .sending(attempt: 1), .succeeded(status: 204), .sending(attempt: 1), .succeeded(status: 204)])
        #expect(await queue.waiting.isEmpty)
    }

    @Test("the latest desired state wins: waiting mutations with the same key are superseded")
    func coalescesByKey() async throws {
        let harness = try ClientHarness { _ in ScriptedServer.Reply(200) }
        let queue = try queue(harness)
        for value in ["red", "green", "blue"] {
            try await queue.enqueue(Mutation(key: "colour", method: .put, path: "colour", body: Array(value.utf8), contentType: "text/plain"))
        }
        try await queue.enqueue(Mutation(key: "size", method: .put, path: "size", body: Array("9".utf8), contentType: "text/plain"))
        try await queue.start()
        await queue.drained()
        #expect(harness.server.log.map { String(decoding: $0.body, as: UTF8.self) } == ["blue", "9"])
        let statuses = await events(queue, count: 10).map(\.status)
        #expect(statuses.filter { $0 == .superseded }.count == 2)
    }

    @Test("retryable answers are retried after Retry-After or backoff; final statuses and exhausted attempts fail")
    func retriesAndFailures() async throws {
        let counter = Lock(0)
        let harness = try ClientHarness { request in
            switch request.path {
            case "/api/v1/flaky":
                let n = counter.withLock { $0 += 1; return $0 }
                return n <= 2 ? ScriptedServer.Reply(503, headers: ["Retry-After": "7"]) : ScriptedServer.Reply(201)
            case "/api/v1/bad": return ScriptedServer.Reply(400)
            default: return ScriptedServer.Reply(500)
            }
        }
        let store = InMemoryMutationStore()
        let queue = try queue(harness, store: store, attempts: 3)
        try await queue.enqueue(Mutation(key: "f", method: .post, path: "flaky"))
        try await queue.enqueue(Mutation(key: "b", method: .post, path: "bad"))
        try await queue.enqueue(Mutation(key: "d", method: .post, path: "down"))
        try await queue.start()
        await queue.drained()
        let statuses = await events(queue, count: 3 + 6 + 2 + 6).map(\.status)
        #expect(statuses.contains(.succeeded(status: 201)))
        #expect(statuses.contains(.failed(code: .unacceptableStatus, status: 400)))
        #expect(statuses.contains(.failed(code: .unacceptableStatus, status: 500)))
        #expect(harness.server.log.filter { $0.path == "/api/v1/down" }.count == 3)
        #expect(harness.clock.sleeps.prefix(2) == [.seconds(7), .seconds(7)])
        #expect(try store.load().isEmpty)
    }

    @Test("a file store survives a restart and a torn last line; credentials are refused")
    func survivesRestart() async throws {
        let harness = try ClientHarness { _ in ScriptedServer.Reply(200) }
        let folder = try TemporaryDirectory()
        let file = folder.url.appendingPathComponent("state/mutations.log")
        do {
            let queue = try queue(harness, store: try FileMutationStore(file: file))
            try await queue.enqueue(Mutation(key: "one", method: .put, path: "one"))
            try await queue.enqueue(Mutation(key: "two", method: .put, path: "two"))
            // Never started: the process "dies" here.
        }
        let handle = try FileHandle(forWritingTo: file)
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(#"{"put":{"key":"torn"#.utf8))
        try handle.close()
        let store = try FileMutationStore(file: file)
        #expect(try store.load().map(\.key) == ["one", "two"])
        let queue = try queue(harness, store: store)
        try await queue.start()
        await queue.drained()
        #expect(harness.server.log.map(\.path) == ["/api/v1/one", "/api/v1/two"])
        #expect(try FileMutationStore(file: file).load().isEmpty)
        let refused = await #expect(throws: HTTPError.self) {
            try await queue.enqueue(Mutation(key: "x", method: .post, path: "x", headers: ["Authorization": "Bearer secret"]))
        }
        #expect(refused?.code == .credentialsInMutation && refused?.stage == .configuration)
        let signed = await #expect(throws: HTTPError.self) {
            try await queue.enqueue(Mutation(key: "y", method: .post, path: "y", query: [("access_token", "secret")]))
        }
        #expect(signed?.code == .credentialsInMutation)
        #expect(!String(decoding: try Data(contentsOf: file), as: UTF8.self).contains("secret"))
    }

    @Test("the queue is bounded: past maximumPending, enqueue refuses")
    func bounded() async throws {
        let harness = try ClientHarness { _ in ScriptedServer.Reply(200) }
        let queue = MutationQueue(client: try harness.client(), clock: harness.clock, maximumPending: 2)
        try await queue.enqueue(Mutation(key: "a", method: .put, path: "a"))
        try await queue.enqueue(Mutation(key: "b", method: .put, path: "b"))
        let full = await #expect(throws: HTTPError.self) { try await queue.enqueue(Mutation(key: "c", method: .put, path: "c")) }
        #expect(full?.code == .queueFull)
        #expect(await queue.waiting.map(\.key) == ["a", "b"])
    }
}
