import Foundation
import Synchronization
import Testing
import TesseraHTTPTesting
@testable import TesseraHTTP

@Suite("HTTPPipeline cancellation tags")
struct HTTPPipelineCancellationTests {
    /// Holds each request until the test releases its path, or its task is cancelled.
    final class HoldingTransport: HTTPTransport {
        private let waiting = Mutex<[String: CheckedContinuation<Void, Never>]>([:])
        private let answer = MockTransport(unstubbed: .status(200))
        let sends = Atomic<Int>(0)

        func send(_ request: HTTPRequest) async throws(HTTPError) -> HTTPResponse {
            let path = request.url.path
            await withTaskCancellationHandler {
                await withCheckedContinuation { continuation in
                    guard !Task.isCancelled else { return continuation.resume() }
                    waiting.withLock { $0[path] = continuation }
                    sends.add(1, ordering: .relaxed)
                }
            } onCancel: {
                release(path)
            }
            guard !Task.isCancelled else { throw HTTPError(.cancelled, code: .cancelled, "cancelled") }
            return try await answer.send(request)
        }

        func release(_ path: String) {
            waiting.withLock { $0.removeValue(forKey: path) }?.resume()
        }
    }


    private func request(_ path: String, tag: String?) -> HTTPRequest {
        var request = HTTPRequest(url: URL(string: "https://cdn.example/\(path)")!)
        request.cancellationTag = tag
        return request
    }

    private func waitForSends(_ transport: HoldingTransport, _ count: Int) async {
        while transport.sends.load(ordering: .relaxed) < count { await Task.yield() }
    }

    @Test("cancel(tag:) cancels only that tag's requests; the others finish")
    func byTag() async throws {
        let transport = HoldingTransport()
        var configuration = HTTPPipelineConfiguration()
        configuration.retry = .never
        let pipeline = HTTPPipeline(transport: transport, configuration: configuration, clock: ImmediateClock())
        async let a1 = pipeline.data(request("a1", tag: "a"), upTo: 10)
        async let a2 = pipeline.data(request("a2", tag: "a"), upTo: 10)
        async let b = pipeline.data(request("b", tag: "b"), upTo: 10)
        await waitForSends(transport, 3)
        pipeline.cancel(tag: "a")
        var cancelled = 0
        do { _ = try await a1 } catch { cancelled += (error as? HTTPError)?.category == .cancelled ? 1 : 0 }
        do { _ = try await a2 } catch { cancelled += (error as? HTTPError)?.category == .cancelled ? 1 : 0 }
        #expect(cancelled == 2)
        transport.release("/b")
        #expect(try await b.head.status == 200)
    }

    @Test("cancelAll() cancels everything in flight")
    func all() async throws {
        let transport = HoldingTransport()
        let pipeline = HTTPPipeline(transport: transport, configuration: HTTPPipelineConfiguration(), clock: ImmediateClock())
        async let one = pipeline.send(request("x", tag: nil))
        await waitForSends(transport, 1)
        pipeline.cancelAll()
        do {
            _ = try await one
            Issue.record("not cancelled")
        } catch {
            #expect((error as? HTTPError)?.category == .cancelled)
        }
    }
}
