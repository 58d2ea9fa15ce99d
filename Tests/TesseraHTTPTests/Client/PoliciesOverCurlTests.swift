import Foundation
import Testing
import TesseraHTTPTesting
import TesseraTestSupport
@testable import TesseraHTTP
import TesseraSupport

private struct Stamp: HTTPInterceptor {
    func intercept(_ request: inout HTTPRequest) async throws(HTTPError) {
        request.headers.set("X-Signed", "yes")
    }
}

@Suite("Policies over libcurl and a scripted origin")
struct PoliciesOverCurlTests {
    @Test("the circuit opens after the threshold: later calls fail at once without reaching the host")
    func circuitBreaker() async throws {
        let harness = try ClientHarness { _ in ScriptedServer.Reply(500) }
        let client = try harness.client {
            $0.pipeline.retry = .never
            var breaker = CircuitBreakerPolicy()
            breaker.failureThreshold = 3
            $0.pipeline.circuitBreaker = breaker
        }
        for _ in 0..<3 {
            let error = await #expect(throws: HTTPError.self) { try await client.send(RequestBuilder.get("x", as: [UInt8].self)) }
            #expect(error?.status == 500)
        }
        let open = await #expect(throws: HTTPError.self) { try await client.send(RequestBuilder.get("x", as: [UInt8].self)) }
        #expect(open?.code == .circuitOpen)
        #expect(harness.server.log.count == 3)
    }

    @Test("identical concurrent GETs share one request on the wire")
    func coalescing() async throws {
        let release = NSCondition()
        let released = Lock(false)
        let harness = try ClientHarness { _ in
            release.lock()
            let deadline = Date().addingTimeInterval(10)   // a bound, should the test fail before opening
            while !released.withLock({ $0 }), release.wait(until: deadline) {}
            release.unlock()
            return ScriptedServer.Reply(200, body: Array("shared".utf8))
        }
        var configuration = HTTPPipelineConfiguration()
        configuration.coalescesIdenticalGETs = true
        let pipeline = HTTPPipeline(transport: harness.transport, configuration: configuration, clock: harness.clock)
        let request = HTTPRequest(url: harness.server.baseURL.appendingPathComponent("key.bin"))
        let bodies = try await withThrowingTaskGroup(of: [UInt8].self) { group in
            for _ in 0..<10 { group.addTask { try await pipeline.data(request, upTo: 1 << 20).body } }
            while await pipeline.coalescedCallers(request, limit: 1 << 20) < 10 { await Task.yield() }
            Self.open(release, released)
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(bodies.count == 10 && bodies.allSatisfy { $0 == Array("shared".utf8) })
        #expect(harness.server.log.count == 1)
    }

    /// Sets the flag and wakes the server threads waiting on it (synchronous: NSCondition).
    private static func open(_ condition: NSCondition, _ flag: Lock<Bool>) {
        condition.lock()
        flag.withLock { $0 = true }
        condition.broadcast()
        condition.unlock()
    }

    @Test("interceptors and trace context reach the wire; a valid incoming traceparent is continued")
    func interceptorsAndTrace() async throws {
        let harness = try ClientHarness.echo()
        let client = try harness.client {
            $0.pipeline.interceptors = [Stamp()]
            $0.pipeline.propagatesTraceContext = true
        }
        let parent = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"
        let echo = try await client.send(RequestBuilder.get("t", as: Echo.self).header("traceparent", parent))
        let sent = try #require(echo.header("traceparent").first)
        #expect(echo.header("X-Signed") == ["yes"])
        #expect(sent.hasPrefix("00-4bf92f3577b34da6a3ce929d0e0e4736-") && sent != parent && TraceParent(headerValue: sent) != nil)
    }

    @Test("a cross-origin redirect strips Authorization, Cookie and API-key-like headers; same-origin keeps them")
    func redirectStripsCredentials() async throws {
        let other = try ClientHarness.echo()
        let target = other.server.baseURL.appendingPathComponent("landing").absoluteString
        let harness = try ClientHarness { request in
            switch request.path {
            case "/api/v1/away": ScriptedServer.Reply(302, headers: ["Location": target])
            case "/api/v1/near": ScriptedServer.Reply(302, headers: ["Location": "/api/v1/echo"])
            default: .json(Echo(request).json)
            }
        }
        let client = try harness.client()
        let credentials: [(String, String)] = [("Authorization", "Basic c2VjcmV0"), ("Cookie", "s=1"), ("X-Api-Key", "k"), ("X-Trace", "keep")]
        var away = RequestBuilder.get("away", as: Echo.self)
        var near = RequestBuilder.get("near", as: Echo.self)
        for (name, value) in credentials {
            away = away.header(name, value)
            near = near.header(name, value)
        }
        let stripped = try await client.send(away)
        #expect(stripped.path == "/landing")
        #expect(stripped.header("Authorization").isEmpty && stripped.header("Cookie").isEmpty && stripped.header("X-Api-Key").isEmpty)
        #expect(stripped.header("X-Trace") == ["keep"])
        let kept = try await client.send(near)
        #expect(kept.header("Authorization") == ["Basic c2VjcmV0"] && kept.header("X-Api-Key") == ["k"])
    }
}
