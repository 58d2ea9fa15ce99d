import Foundation
import Testing
import TesseraHTTPTesting
@testable import TesseraHTTP

@Suite("HTTPPipeline interceptors and trace context")
struct HTTPPipelineInterceptorTests {
    struct AddHeader: HTTPInterceptor {
        let name: String, value: String
        func intercept(_ request: inout HTTPRequest) async throws(HTTPError) { request.headers.set(name, value) }
    }

    struct Refuse: HTTPInterceptor {
        func intercept(_ request: inout HTTPRequest) async throws(HTTPError) {
            throw HTTPError(.invalidRequest, code: HTTPError.Code("refused-by-interceptor"), "no")
        }
    }

    let url = URL(string: "https://api.example/x")!

    @Test("interceptors run in order once per request; a throwing one stops it before the transport")
    func order() async throws {
        let mock = MockTransport()
        mock.stub(url, .response(status: 503, chunks: []))
        mock.stub(url, .ok([1]))
        var configuration = HTTPPipelineConfiguration()
        configuration.retry.jitter = 0
        configuration.interceptors = [AddHeader(name: "X-A", value: "1"), AddHeader(name: "X-A", value: "2")]
        _ = try await HTTPPipeline(transport: mock, configuration: configuration, clock: ImmediateClock()).data(HTTPRequest(url: url), upTo: 10)
        #expect(mock.requests.map { $0.headers.values("X-A") } == [["2"], ["2"]])

        configuration.interceptors = [Refuse()]
        let refused = MockTransport()
        do {
            _ = try await HTTPPipeline(transport: refused, configuration: configuration, clock: ImmediateClock()).send(HTTPRequest(url: url))
            Issue.record("sent despite the interceptor")
        } catch {
            #expect(error.code == HTTPError.Code("refused-by-interceptor"))
        }
        #expect(refused.requests.isEmpty)
    }

    @Test("trace context: new traces for bare requests, child spans for traced ones, the same on every attempt")
    func traceContext() async throws {
        let mock = MockTransport()
        mock.stub(url, .response(status: 503, chunks: []))
        mock.stub(url, .ok([1]))
        var configuration = HTTPPipelineConfiguration()
        configuration.retry.jitter = 0
        configuration.propagatesTraceContext = true
        let pipeline = HTTPPipeline(transport: mock, configuration: configuration, clock: ImmediateClock())
        _ = try await pipeline.data(HTTPRequest(url: url), upTo: 10)
        let sent = mock.requests.compactMap { $0.headers["traceparent"].flatMap(TraceParent.init(headerValue:)) }
        #expect(sent.count == 2 && sent[0] == sent[1])

        let caller = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"
        var traced = HTTPRequest(url: url)
        traced.headers.add("traceparent", caller)
        _ = try await pipeline.data(traced, upTo: 10)
        let child = try #require(mock.requests.last?.headers["traceparent"].flatMap(TraceParent.init(headerValue:)))
        let parent = try #require(TraceParent(headerValue: caller))
        #expect(child.traceID == parent.traceID && child.parentID != parent.parentID)
    }
}
