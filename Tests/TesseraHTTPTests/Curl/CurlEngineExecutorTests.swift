import Foundation
import Testing
@testable import TesseraHTTP
import TesseraTestSupport

/// `client.executor`: a request loop on the libcurl engine's own thread.
@Suite("HTTPClient on the engine's executor")
struct CurlEngineExecutorTests {
    private func client(_ harness: TransportHarness) throws -> HTTPClient {
        var configuration = HTTPClientConfiguration()
        configuration.allowsHTTP = true
        return try HTTPClient(baseURL: harness.origin.url(""), configuration: configuration,
                              transport: harness.transport, clock: ContinuousClock())
    }

    @Test("a request loop preferring client.executor gets every body exact, and after its first wait runs on the engine's thread")
    func loopOnTheEngineThread() async throws {
        let harness = try TransportHarness()
        let client = try client(harness)
        let executor = try #require(client.executor as? LoopExecutor)
        let (bodies, onThread) = try await withTaskExecutorPreference(client.executor) { () async throws -> ([[UInt8]], [Bool]) in
            var bodies: [[UInt8]] = []
            var onThread: [Bool] = []
            for _ in 0..<50 {
                bodies.append(try await client.send(RequestBuilder.get("small.bin", as: [UInt8].self)))
                onThread.append(executor.isCurrentThread)
            }
            return (bodies, onThread)
        }
        #expect(bodies.allSatisfy { $0 == TransportHarness.small })
        #expect(onThread.allSatisfy { $0 }, "\(onThread.filter { !$0 }.count) of 50 requests ended off the engine's thread: \(onThread.enumerated().filter { !$0.element }.map(\.offset)) attempts \(harness.origin.attempts("/small.bin"))")
        #expect(harness.origin.attempts("/small.bin") == 50)
    }

    @Test("cancelAll() from elsewhere ends a request waiting on the engine's thread; the loop goes on")
    func cancelledFromElsewhere() async throws {
        let harness = try TransportHarness()
        harness.origin.inject(.hang, path: "/small.bin", attempts: 1...1)
        let client = try client(harness)
        let loop = Task(executorPreference: client.executor) { () async -> (HTTPError?, [UInt8]?) in
            var first: HTTPError?
            do throws(HTTPError) { _ = try await client.send(RequestBuilder.get("small.bin", as: [UInt8].self)) } catch { first = error }
            return (first, try? await client.send(RequestBuilder.get("small.bin", as: [UInt8].self)))   // nil: the check below fails
        }
        while harness.origin.attempts("/small.bin") == 0 { await Task.yield() }
        client.cancelAll()
        let (first, second) = await loop.value
        #expect(first?.category == .cancelled)
        #expect(second == TransportHarness.small)
    }

    @Test("after the transport shuts down, a task preferring its executor runs on: its request fails typed, nothing hangs")
    func afterShutdown() async throws {
        let harness = try TransportHarness()
        let client = try client(harness)
        let executor = try #require(client.executor as? LoopExecutor)
        let outcome = try await withTaskExecutorPreference(client.executor) { () async throws -> (HTTPError?, Bool) in
            #expect(try await client.send(RequestBuilder.get("small.bin", as: [UInt8].self)) == TransportHarness.small)   // on the thread now
            harness.transport.shutdown()
            var failure: HTTPError?
            do throws(HTTPError) { _ = try await client.send(RequestBuilder.get("small.bin", as: [UInt8].self)) } catch { failure = error }
            for _ in 0..<100 { await Task.yield() }
            return (failure, executor.isCurrentThread)
        }
        #expect(outcome.0?.code == .transportShutDown)
        #expect(!outcome.1)
    }
}
