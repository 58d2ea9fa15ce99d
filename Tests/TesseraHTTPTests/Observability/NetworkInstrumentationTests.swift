import Foundation
import Testing
import TesseraHTTP
import TesseraHTTPTesting

@Suite("NetworkInstrumentation from the client's events")
struct NetworkInstrumentationTests {
    private struct Bytes: Endpoint {
        typealias Response = [UInt8]
        var path: String
        var query: [(String, String)] = []
    }

    @Test("records per request: bytes, a retry, a failure by code; URLs redacted; a summary")
    func records() async throws {
        let transport = MockTransport(unstubbed: .status(404))
        let base = URL(string: "https://api.example/")!
        transport.stub(URL(string: "https://api.example/ok?token=s3cret")!, .ok([UInt8](repeating: 1, count: 300)))
        transport.stub(URL(string: "https://api.example/flaky")!, .response(status: 503, chunks: []))
        transport.stub(URL(string: "https://api.example/flaky")!, .ok([1, 2]))
        transport.stub(URL(string: "https://api.example/down")!, .failure(HTTPError(.connect, code: .connectFailed, "refused")))
        let client = try HTTPClient.stub(baseURL: base, transport: transport)
        let instrumentation = NetworkInstrumentation()
        let events = client.events
        let observer = Task { await instrumentation.observe(events) }
        _ = try await client.send(Bytes(path: "ok", query: [("token", "s3cret")]))
        _ = try await client.send(Bytes(path: "flaky"))
        await #expect(throws: HTTPError.self) { _ = try await client.send(Bytes(path: "missing")) }
        await #expect(throws: HTTPError.self) { _ = try await client.send(Bytes(path: "down")) }
        while instrumentation.summary.requests < 4 { await Task.yield() }
        observer.cancel()
        let records = instrumentation.records
        #expect(records.count == 4)
        let ok = try #require(records.first { $0.url.contains("/ok") })
        #expect(ok.outcome == .finished(bytes: 300) && ok.status == 200 && ok.attempts == 1 && ok.method == "GET")
        #expect(!ok.url.contains("s3cret") && ok.firstResponse != nil && ok.timings != nil)
        let flaky = try #require(records.first { $0.url.hasSuffix("/flaky") })
        #expect(flaky.attempts == 2 && flaky.outcome == .finished(bytes: 2))
        let missing = try #require(records.first { $0.url.hasSuffix("/missing") })
        #expect(missing.status == 404 && missing.outcome == .finished(bytes: 0))
        let down = try #require(records.first { $0.url.hasSuffix("/down") })
        #expect(down.outcome == .failed(.connectFailed) && down.status == nil && down.attempts > 1)
        let summary = instrumentation.summary
        #expect(summary.requests == 4 && summary.failures == 1 && summary.failuresByCode["connect-failed"] == 1 && summary.errorResponses == 1)
        #expect(summary.retries == 1 + (down.attempts - 1) && summary.bytes == 302 && summary.medianDuration != nil && summary.p95Duration != nil)
        #expect(instrumentation.inFlight == 0)
    }

    @Test("bounded: the last records kept in order, requests in flight capped and counted abandoned")
    func bounds() {
        let instrumentation = NetworkInstrumentation(maximumRecords: 3, maximumInFlight: 2)
        let url = URL(string: "https://a.example/x")!
        for id in UInt64(1)...5 {
            instrumentation.take(HTTPEvent(requestID: id, method: "GET", url: url, kind: .start, elapsed: .zero))
            instrumentation.take(HTTPEvent(requestID: id, method: "GET", url: url, kind: .finish(bytes: 1), elapsed: .milliseconds(Int64(id))))
        }
        #expect(instrumentation.records.map(\.requestID) == [3, 4, 5])
        #expect(instrumentation.summary.requests == 5)
        for id in UInt64(10)...12 { instrumentation.take(HTTPEvent(requestID: id, method: "GET", url: url, kind: .start, elapsed: .zero)) }
        #expect(instrumentation.inFlight == 2 && instrumentation.summary.abandoned == 1)
    }

    @Test("the request in flight the longest is the one forgotten, after many that finished (the start queue swept)")
    func evictsOldestInFlight() {
        let instrumentation = NetworkInstrumentation(maximumRecords: 10, maximumInFlight: 3)
        let url = URL(string: "https://a.example/x")!
        func take(_ id: UInt64, _ kind: HTTPEvent.Kind) {
            instrumentation.take(HTTPEvent(requestID: id, method: "GET", url: url, kind: kind, elapsed: .zero))
        }
        take(1, .start)
        for id in UInt64(2)...101 {
            take(id, .start)
            take(id, .finish(bytes: 1))
        }
        take(200, .start)
        take(200, .response(status: 201))
        take(201, .start)
        take(202, .start)   // four in flight: request 1, the oldest, goes
        #expect(instrumentation.inFlight == 3 && instrumentation.summary.abandoned == 1)
        take(200, .finish(bytes: 5))
        #expect(instrumentation.records.last?.requestID == 200 && instrumentation.records.last?.status == 201)
        #expect(instrumentation.inFlight == 2 && instrumentation.summary.requests == 101)
    }
}
