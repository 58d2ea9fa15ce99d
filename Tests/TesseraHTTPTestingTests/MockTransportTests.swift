import Foundation
import Testing
import TesseraHTTP
import TesseraHTTPTesting

@Suite("MockTransport")
struct MockTransportTests {
    let url = URL(string: "https://example.test/a.ts")!

    @Test("answers stubbed URLs, records requests, and fails loudly on the rest")
    func stubs() async throws {
        let mock = MockTransport()
        mock.stub(url, .ok([1, 2, 3], headers: ["Content-Type": "video/mp2t"]))
        let response = try await mock.send(HTTPRequest(url: url))
        #expect(response.head.status == 200 && response.head.headers["content-type"] == "video/mp2t")
        #expect(try await response.body.collect(upTo: 10) == [1, 2, 3])
        do {
            _ = try await mock.send(HTTPRequest(url: URL(string: "https://example.test/b")!))
            Issue.record("an unstubbed route answered")
        } catch {
            #expect(error.code == .unstubbedRoute && error.message.contains("GET https://example.test/b"))
        }
        #expect(mock.requests.map(\.url.lastPathComponent) == ["a.ts", "b"])
    }

    @Test("an origin-like mock answers unstubbed URLs with a chosen status")
    func unstubbedStatus() async throws {
        let mock = MockTransport(unstubbed: .status(404))
        #expect(try await mock.send(HTTPRequest(url: url)).head.status == 404)
    }

    @Test("successive stubs answer successive attempts; the last repeats")
    func attempts() async throws {
        let mock = MockTransport()
        mock.stub(url, .response(status: 503, chunks: []))
        mock.stub(url, .ok([9]))
        #expect(try await mock.send(HTTPRequest(url: url)).head.status == 503)
        #expect(try await mock.send(HTTPRequest(url: url)).head.status == 200)
        #expect(try await mock.send(HTTPRequest(url: url)).head.status == 200)
    }

    @Test("byte ranges of a stubbed body are served as 206 with Content-Range, or 416")
    func ranges() async throws {
        let mock = MockTransport()
        mock.stub(url, .ok(Array(0..<100)))
        var request = HTTPRequest(url: url)
        request.byteRange = ByteRange(offset: 10, length: 5)
        let response = try await mock.send(request)
        #expect(response.head.status == 206 && response.head.headers["Content-Range"] == "bytes 10-14/100")
        #expect(try await response.body.collect(upTo: 100) == [10, 11, 12, 13, 14])
        request.byteRange = ByteRange(offset: 200, length: 5)
        #expect(try await mock.send(request).head.status == 416)
    }

    @Test("transport failures and failures mid-body are thrown as stubbed")
    func failures() async throws {
        let mock = MockTransport()
        let lost = HTTPError(.connectionLost, code: .connectionLost, "gone")
        mock.stub(url, .failure(HTTPError(.dns, code: .dnsFailed, "no name")))
        mock.stub(url, .response(status: 200, chunks: [[1]], failure: lost))
        await #expect(throws: HTTPError.self) { try await mock.send(HTTPRequest(url: url)) }
        let response = try await mock.send(HTTPRequest(url: url))
        do {
            _ = try await response.body.collect(upTo: 10)
            Issue.record("expected failure")
        } catch {
            #expect(error.category == .connectionLost)
        }
    }
}

@Suite("HTTPClient.stub for users' tests")
struct StubClientTests {
    private struct Greeting: Decodable, Equatable, Sendable { let text: String }

    @Test("scripted responses in order, the last repeating; requests recorded; backoff instant")
    func stubClient() async throws {
        let mock = MockTransport()
        let url = URL(string: "https://api.test/v1/greeting")!
        mock.stub(url, .response(status: 503, headers: ["Retry-After": "30"], chunks: []))
        mock.stub(url, .ok(Array(#"{"text":"hi"}"#.utf8)))
        let clock = ImmediateClock()
        let client = try HTTPClient.stub(baseURL: URL(string: "https://api.test/v1")!, transport: mock, clock: clock)
        let first = try await client.send(RequestBuilder.get("greeting", as: Greeting.self))
        let second = try await client.send(RequestBuilder.get("greeting", as: Greeting.self))
        #expect(first == Greeting(text: "hi") && second == first)
        #expect(mock.requests.map(\.url) == [url, url, url])
        #expect(clock.sleeps == [.seconds(30)])
    }

    @Test("an unstubbed route fails loudly through the client")
    func unstubbed() async throws {
        let client = try HTTPClient.stub(baseURL: URL(string: "https://api.test")!, transport: MockTransport())
        let error = await #expect(throws: HTTPError.self) { try await client.send(RequestBuilder.get("nothing", as: [UInt8].self)) }
        #expect(error?.code == .unstubbedRoute)
    }
}
