import Foundation
import Testing
@testable import TesseraHTTP
import TesseraTestSupport

@Suite("WebSocket task executor: a consumer on the connection's own thread")
struct WebSocketExecutorTests {
    typealias H = WebSocketHarness

    @Test("a consumer preferring the executor moves onto the connection's thread at its first wait and stays there: every answer sent from it, in order")
    func consumerOnTheConnectionThread() async throws {
        let server = try WebSocketTestServer.echo()
        let task = try H.client().task(server.url("echo"), protocols: [])
        let executor = try #require(task.executor as? LoopExecutor)
        // Until its first suspension the closure runs where it started (the thread had not
        // started yet); every resumption after that is on the connection's thread.
        let (echoes, onThread) = try await withTaskExecutorPreference(task.executor) { () async throws -> ([String], [Bool]) in
            var events = task.events.makeAsyncIterator()
            task.start()
            var onThread: [Bool] = []
            var echoes: [String] = []
            while let event = await events.next() {
                onThread.append(executor.isCurrentThread)
                switch event {
                case .opened:
                    try await task.send(.text("0"))
                case .message(.text(let text)):
                    echoes.append(text)
                    if echoes.count == 200 {
                        task.close()
                    } else {
                        try await task.send(.text(String(echoes.count)))
                        onThread.append(executor.isCurrentThread)
                    }
                case .closed:
                    return (echoes, onThread)
                default:
                    break
                }
            }
            return (echoes, onThread)
        }
        #expect(echoes == (0..<200).map(String.init))
        let afterArrival = onThread.drop { !$0 }
        #expect(afterArrival.allSatisfy { $0 }, "left the connection's thread after reaching it")
        #expect(afterArrival.count >= 2 * 199, "only \(afterArrival.count) of \(onThread.count) steps on the connection's thread")
        withExtendedLifetime(server) {}   // the server lives to the end of the test
    }

    @Test("after the connection has ended, a task that prefers its executor runs on, off that thread")
    func outlivesTheConnection() async throws {
        let server = try WebSocketTestServer { try $0.refuse(404) }
        let task = try H.client().task(server.url())
        let executor = try #require(task.executor as? LoopExecutor)
        let finished = await withTaskExecutorPreference(task.executor) { () async -> Bool in
            task.start()
            for await event in task.events { if case .closed = event { break } }
            // The thread is gone (or going): each await below is a hop through the executor.
            while task.state != .closed { await Task.yield() }
            for _ in 0..<100 { await Task.yield() }
            let clock = ManualClock()
            async let slept: Void? = try? clock.sleep(for: .seconds(1))   // nil only if cancelled: nothing cancels this task
            await clock.waitForSleepers(1)
            clock.advance(by: .seconds(1))
            _ = await slept
            return !executor.isCurrentThread
        }
        #expect(finished)
        withExtendedLifetime(server) {}   // the server lives to the end of the test
    }
}
