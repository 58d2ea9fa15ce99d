import Foundation
import Testing
import TesseraHTTPTesting
@testable import TesseraHTTP

@Suite("HTTPPipeline over a mock transport")
struct HTTPPipelineTests {
    let url = URL(string: "https://cdn.example/live/index.m3u8?token=secret")!

    private func configuration(_ change: (inout HTTPPipelineConfiguration) -> Void = { _ in }) -> HTTPPipelineConfiguration {
        var configuration = HTTPPipelineConfiguration()
        configuration.retry.jitter = 0
        configuration.retry.initialBackoff = .milliseconds(100)
        change(&configuration)
        return configuration
    }

    @Test("retryable statuses are retried with exponential backoff until a final answer")
    func retriesWithBackoff() async throws {
        let mock = MockTransport()
        mock.stub(url, .response(status: 503, chunks: []))
        mock.stub(url, .response(status: 502, chunks: []))
        mock.stub(url, .ok(Array("#EXTM3U".utf8)))
        let clock = ImmediateClock()
        let pipeline = HTTPPipeline(transport: mock, configuration: configuration(), clock: clock)
        let response = try await pipeline.send(HTTPRequest(url: url))
        #expect(response.head.status == 200)
        #expect(try await response.body.collect(upTo: 100) == Array("#EXTM3U".utf8))
        #expect(clock.sleeps == [.milliseconds(100), .milliseconds(200)])
        #expect(mock.requests.count == 3)
    }

    @Test("Retry-After is honoured and clamped; when attempts run out the last response is delivered")
    func retryAfter() async throws {
        let mock = MockTransport()
        mock.stub(url, .response(status: 503, headers: ["Retry-After": "7"], chunks: []))
        mock.stub(url, .response(status: 429, headers: ["Retry-After": "999999"], chunks: []))
        let clock = ImmediateClock()
        let pipeline = HTTPPipeline(transport: mock, configuration: configuration { $0.retry.maximumRetryAfter = .seconds(30) }, clock: clock)
        let response = try await pipeline.send(HTTPRequest(url: url))
        #expect(response.head.status == 429)
        #expect(clock.sleeps == [.seconds(7), .seconds(30)])
    }

    @Test("hostile Retry-After values fall back to the backoff or are clamped, never a hang")
    func hostileRetryAfter() async throws {
        let mock = MockTransport()
        for value in ["-5", "soon", "99999999999999999999999", "Fri, 31 Dec 9999 23:59:59 GMT"] {
            mock.stub(url, .response(status: 503, headers: ["Retry-After": value], chunks: []))
        }
        mock.stub(url, .ok([1]))
        let clock = ImmediateClock()
        let pipeline = HTTPPipeline(transport: mock, configuration: configuration {
            $0.retry.maximumAttempts = 5
            $0.retry.maximumRetryAfter = .seconds(30)
        }, clock: clock)
        #expect(try await pipeline.send(HTTPRequest(url: url)).head.status == 200)
        #expect(clock.sleeps == [.milliseconds(100), .milliseconds(200), .milliseconds(400), .seconds(30)])
    }

    @Test("a request's own retry policy replaces the pipeline's: .never sends once and hands back the 503")
    func requestRetryPolicy() async throws {
        let mock = MockTransport()
        mock.stub(url, .response(status: 503, chunks: []))
        mock.stub(url, .ok([1]))
        let clock = ImmediateClock()
        let pipeline = HTTPPipeline(transport: mock, configuration: configuration { $0.retry.maximumAttempts = 5 }, clock: clock)
        var request = HTTPRequest(url: url)
        request.retry = .never
        #expect(try await pipeline.send(request).head.status == 503)
        #expect(mock.requests.count == 1 && clock.sleeps.isEmpty)
        #expect(try await pipeline.send(HTTPRequest(url: url)).head.status == 200, "the pipeline's policy for the others")
    }

    @Test("unsafe methods are not retried without an Idempotency-Key; transport failures are retried for GET")
    func idempotency() async throws {
        let mock = MockTransport()
        mock.stub(url, .response(status: 503, chunks: []))
        let pipeline = HTTPPipeline(transport: mock, configuration: configuration(), clock: ImmediateClock())
        var post = HTTPRequest(url: url)
        post.method = .post
        #expect(try await pipeline.send(post).head.status == 503)
        #expect(mock.requests.count == 1)

        let flaky = MockTransport()
        flaky.stub(url, .failure(HTTPError(.connect, code: HTTPError.Code("connection-refused"), "refused")))
        flaky.stub(url, .ok([1]))
        let clock = ImmediateClock()
        #expect(try await HTTPPipeline(transport: flaky, configuration: configuration(), clock: clock).send(HTTPRequest(url: url)).head.status == 200)
        #expect(clock.sleeps.count == 1)
    }

    @Test("redirects are followed hop by hop, stripping credentials cross-origin; a downgrade is refused")
    func redirects() async throws {
        let mock = MockTransport()
        let other = URL(string: "https://other.example/index.m3u8")!
        mock.stub(url, .response(status: 302, headers: ["Location": other.absoluteString], chunks: []))
        mock.stub(other, .ok([7]))
        var request = HTTPRequest(url: url)
        request.headers.add("Authorization", "Bearer secret")
        let pipeline = HTTPPipeline(transport: mock, configuration: configuration(), clock: ImmediateClock())
        #expect(try await pipeline.send(request).head.status == 200)
        #expect(mock.requests.map(\.url) == [url, other])
        #expect(mock.requests.last?.headers["Authorization"] == nil)

        let downgrade = MockTransport()
        downgrade.stub(url, .response(status: 301, headers: ["Location": "http://cdn.example/index.m3u8"], chunks: []))
        do {
            _ = try await HTTPPipeline(transport: downgrade, configuration: configuration(), clock: ImmediateClock()).send(request)
            Issue.record("a downgrade was followed")
        } catch {
            #expect(error.category == .protocol)
        }
        #expect(downgrade.requests.count == 1)
    }

    @Test("endless redirects end in a typed error: loops are detected, chains stop at the hop limit")
    func endlessRedirects() async throws {
        let mock = MockTransport()
        let other = URL(string: "https://cdn.example/b")!
        mock.stub(url, .response(status: 302, headers: ["Location": other.absoluteString], chunks: []))
        mock.stub(other, .response(status: 302, headers: ["Location": url.absoluteString], chunks: []))
        do {
            _ = try await HTTPPipeline(transport: mock, configuration: configuration(), clock: ImmediateClock()).send(HTTPRequest(url: url))
            Issue.record("a redirect loop was followed forever")
        } catch {
            #expect(error.category == .protocol)
        }
        #expect(mock.requests.count == 2)

        let chain = MockTransport(unstubbed: .status(404))
        for n in 0..<10 {
            chain.stub(URL(string: "https://cdn.example/\(n)")!, .response(status: 307, headers: ["Location": "/\(n + 1)"], chunks: []))
        }
        do {
            _ = try await HTTPPipeline(transport: chain, configuration: configuration(), clock: ImmediateClock())
                .send(HTTPRequest(url: URL(string: "https://cdn.example/0")!))
            Issue.record("the hop limit was not enforced")
        } catch {
            #expect(error.code == .tooManyRedirects)
        }
        #expect(chain.requests.count == 6)
    }

    @Test("an open circuit refuses without sending; after the cool-down one probe goes")
    func circuitBreaker() async throws {
        let mock = MockTransport()
        mock.stub(url, .failure(HTTPError(.connect, code: HTTPError.Code("connection-refused"), "refused")))
        mock.stub(url, .failure(HTTPError(.connect, code: HTTPError.Code("connection-refused"), "refused")))
        mock.stub(url, .ok([1]))
        let clock = ImmediateClock()
        let pipeline = HTTPPipeline(transport: mock, configuration: configuration {
            $0.retry = .never
            var breaker = CircuitBreakerPolicy()
            breaker.failureThreshold = 2
            breaker.coolDown = .seconds(30)
            $0.circuitBreaker = breaker
        }, clock: clock)
        for _ in 0..<2 { await #expect(throws: HTTPError.self) { _ = try await pipeline.send(HTTPRequest(url: url)) } }
        do {
            _ = try await pipeline.send(HTTPRequest(url: url))
            Issue.record("an open circuit sent a request")
        } catch {
            #expect(error.code == .circuitOpen)
        }
        #expect(mock.requests.count == 2)
        clock.advance(by: .seconds(30))
        #expect(try await pipeline.send(HTTPRequest(url: url)).head.status == 200)
        #expect(mock.requests.count == 3)
    }

    @Test("data(): a failure mid-body retries the whole request; a body over the limit is not retried")
    func midBody() async throws {
        let mock = MockTransport()
        mock.stub(url, .response(status: 200, chunks: [[1, 2]], failure: HTTPError(.connectionLost, code: HTTPError.Code("partial-body"), "cut")))
        mock.stub(url, .ok([1, 2, 3]))
        let clock = ImmediateClock()
        let pipeline = HTTPPipeline(transport: mock, configuration: configuration(), clock: clock)
        let (head, bytes) = try await pipeline.data(HTTPRequest(url: url), upTo: 10)
        #expect(head.status == 200 && bytes == [1, 2, 3])
        #expect(clock.sleeps == [.milliseconds(100)])
        do {
            _ = try await pipeline.data(HTTPRequest(url: url), upTo: 2)
            Issue.record("an oversized body was accepted")
        } catch {
            #expect(error.code == .bodyTooLarge)
        }
        #expect(mock.requests.count == 3)
    }

    @Test("events tell the story with redacted URLs")
    func events() async throws {
        let mock = MockTransport()
        mock.stub(url, .response(status: 503, chunks: []))
        mock.stub(url, .ok([1]))
        let stream = HTTPEventStream()
        let pipeline = HTTPPipeline(transport: mock, configuration: configuration(), clock: ImmediateClock(), events: stream)
        _ = try await pipeline.send(HTTPRequest(url: url))
        stream.finish()
        var kinds: [HTTPEvent.Kind] = []
        var ids: Set<UInt64> = []
        for await event in stream.events {
            #expect(!event.url.contains("secret"))
            kinds.append(event.kind)
            ids.insert(event.requestID)
        }
        #expect(ids == [1])
        #expect(kinds == [.start, .response(status: 503), .retry(attempt: 1, delay: .milliseconds(100), reason: "status 503"), .response(status: 200)])
    }
}
