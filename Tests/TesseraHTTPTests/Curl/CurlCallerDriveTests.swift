import Foundation
import Testing
@testable import TesseraHTTP
import TesseraTestSupport

/// A request from a task on the global executor, with nothing else in flight, is driven by its
/// caller (`CurlTransport.Configuration.callerDriveBudget`); the engine thread takes over what
/// the caller leaves in flight. The budgets here are far from the time a request takes (ten
/// minutes, or a nanosecond against an answer held back), so which way each request goes does not
/// depend on the machine's speed. The suite runs one test at a time with a drive limit of its own
/// (the process's is taken by the tests running beside it, so counts would not be exact): at most
/// one of its callers holds a pool thread, as the process's limit allows one more elsewhere.
@Suite("CurlTransport: callers driving their own transfers", .serialized)
struct CurlCallerDriveTests {
    /// The suite's drive limit: one place, as the process's has on two cores (none on one).
    private static let limit = CallerDriveLimit(maximum: CallerDriveLimit.process.maximum > 0 ? 1 : 0)

    private static func harness(budget: Duration) throws -> TransportHarness {
        var configuration = CurlTransport.loopbackConfiguration
        configuration.callerDriveBudget = budget
        configuration.callerDriveLimit = limit
        return try TransportHarness(configuration: configuration)
    }

    /// Until a caller drives `path`'s request (it has reached the origin); at once on one core,
    /// where no caller drives.
    private static func untilDriving(_ harness: TransportHarness, _ path: String) async {
        guard limit.maximum > 0 else { return }
        while harness.origin.attempts(path) == 0 || !harness.transport.isCallerDriving { await Task.yield() }
    }

    /// Until the engine thread waits with nothing in flight (it goes on to wait after its start,
    /// and after the last transfer it was handed).
    private static func untilIdle(_ harness: TransportHarness) async {
        while !harness.transport.isEngineIdle { await Task.yield() }
    }

    @Test("a sequential request loop on the global executor is driven by its callers, every body exact, nothing handed back")
    func sequentialLoop() async throws {
        let harness = try Self.harness(budget: .seconds(600))
        await Self.untilIdle(harness)
        for _ in 0..<20 {
            let (head, body) = try await harness.fetch("/small.bin")
            #expect(head.status == 200)
            #expect(body == TransportHarness.small)
        }
        // Each caller finds the multi idle: the one before it left nothing in flight.
        let drives = harness.transport.callerDrives
        #expect(drives.settled == (Self.limit.maximum > 0 ? 20 : 0))
        #expect(drives.handedBack == 0)
        #expect(harness.origin.attempts("/small.bin") == 20)
    }

    @Test("a request the budget does not cover is handed to the engine thread and answered there")
    func budgetSpent() async throws {
        let harness = try Self.harness(budget: .nanoseconds(1))
        harness.origin.inject(.delay(.milliseconds(100)), path: "/small.bin")
        await Self.untilIdle(harness)
        let before = harness.transport.callerDrives
        let (_, body) = try await harness.fetch("/small.bin")
        #expect(body == TransportHarness.small)
        let after = harness.transport.callerDrives
        #expect(after.handedBack == before.handedBack + (Self.limit.maximum > 0 ? 1 : 0))
        #expect(after.settled == before.settled)
    }

    @Test("a body larger than its buffer pauses the caller's drive; the engine thread streams the rest, exact")
    func pausedBody() async throws {
        let harness = try Self.harness(budget: .seconds(600))
        await Self.untilIdle(harness)
        let response = try await harness.transport.send(harness.request("/big.bin") {
            $0.limits.bufferHighWatermark = 64 << 10
            $0.limits.bufferLowWatermark = 16 << 10
        })
        let body = try await response.body.collect(upTo: 8 << 20)
        #expect(body == TransportHarness.big)
        #expect(harness.transport.callerDrives.handedBack == (Self.limit.maximum > 0 ? 1 : 0))
    }

    @Test("cancelling a request its caller drives ends it with cancelled, and the next request is answered")
    func cancelledWhileDriving() async throws {
        let harness = try Self.harness(budget: .seconds(600))
        await Self.untilIdle(harness)
        harness.origin.inject(.hang, path: "/hang.bin")
        let task = Task { () async throws(HTTPError) -> Int in
            try await harness.transport.send(harness.request("/hang.bin")).head.status
        }
        await Self.untilDriving(harness, "/hang.bin")
        task.cancel()
        switch await task.result {
        case .success(let status): Issue.record("a hung request ended with \(status)")
        case .failure(let error): #expect((error as? HTTPError)?.category == .cancelled)
        }
        let (_, body) = try await harness.fetch("/small.bin")
        #expect(body == TransportHarness.small)
    }

    @Test("shutting down while a caller drives ends its request with transport-shut-down")
    func shutdownWhileDriving() async throws {
        let harness = try Self.harness(budget: .seconds(600))
        await Self.untilIdle(harness)
        harness.origin.inject(.hang, path: "/hang.bin")
        let task = Task { await harness.failure("/hang.bin") }
        await Self.untilDriving(harness, "/hang.bin")
        harness.transport.shutdown()
        let error = await task.value
        #expect(error?.code == .transportShutDown)
        #expect(await harness.failure("/small.bin")?.code == .transportShutDown)
    }

    @Test("concurrent requests while a caller drives are all answered exact, by the caller or the engine thread")
    func othersJoin() async throws {
        let harness = try Self.harness(budget: .seconds(600))
        await Self.untilIdle(harness)
        let bodies = try await withThrowingTaskGroup(of: [UInt8].self) { group in
            for _ in 0..<16 { group.addTask { try await harness.fetch("/small.bin").1 } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(bodies.count == 16)
        #expect(bodies.allSatisfy { $0 == TransportHarness.small })
    }

    @Test("a task preferring an executor never drives, even an idle engine: it would hold up that executor's thread")
    func preferringAnExecutor() async throws {
        let harness = try Self.harness(budget: .seconds(600))
        // Another engine's thread: not this engine's, which never finds itself idle while it runs.
        let elsewhere = try CurlTransport.loopback()
        defer { elsewhere.shutdown() }
        await Self.untilIdle(harness)
        let before = harness.transport.callerDrives
        let bodies = try await withTaskExecutorPreference(elsewhere.executor) { () async throws -> [[UInt8]] in
            var bodies: [[UInt8]] = []
            for _ in 0..<5 { bodies.append(try await harness.fetch("/small.bin").1) }
            return bodies
        }
        #expect(bodies.allSatisfy { $0 == TransportHarness.small })
        let after = harness.transport.callerDrives
        #expect(after.settled == before.settled)
        #expect(after.handedBack == before.handedBack)
    }
}
