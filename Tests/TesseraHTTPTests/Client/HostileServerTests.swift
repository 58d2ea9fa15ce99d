import Foundation
import Testing
import TesseraHTTP
import TesseraHTTPTesting
import TesseraTestSupport
import TesseraSupport

/// Counts refreshes; every token is rejected by the storm server.
private final class CountingTokens: TokenSource {
    let refreshes = Lock(0)
    func currentToken() async throws(HTTPError) -> String { "t0" }
    func refreshToken() async throws(HTTPError) -> String {
        let n = refreshes.withLock { $0 += 1; return $0 }
        return "t\(n)"
    }
}

@Suite("Hostile servers over libcurl: each a typed error, nothing hangs")
struct HostileServerTests {
    private func failure(_ harness: ClientHarness, _ path: String,
                         _ adjust: (inout HTTPClientConfiguration) -> Void = { _ in }) async throws -> HTTPError? {
        let client = try harness.client(adjust)
        return await #expect(throws: HTTPError.self) { try await client.send(RequestBuilder.get(path, as: [UInt8].self)) }
    }

    @Test("malformed status lines and headers are protocol errors")
    func malformedHeads() async throws {
        let harness = try ClientHarness { request in
            switch request.path {
            case "/api/v1/status": .raw("HTTX/9 ???\r\n\r\n")
            case "/api/v1/length": .raw("HTTP/1.1 200 OK\r\nContent-Length: abc\r\n\r\nxyz")
            case "/api/v1/lengths": .raw("HTTP/1.1 200 OK\r\nContent-Length: 3\r\nContent-Length: 5\r\n\r\nxyz")
            case "/api/v1/huge-head": .raw("HTTP/1.1 200 OK\r\n" + String(repeating: "X-Pad: " + String(repeating: "a", count: 1000) + "\r\n", count: 80) + "\r\n")
            default: .raw("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nshort")
            }
        }
        for path in ["status", "length"] {
            let error = try await failure(harness, path) { $0.pipeline.retry = .never }
            #expect(error?.category == .protocol, "\(path): \(String(describing: error))")
        }
        // Two different lengths: curl goes by the last one, and the body falls short of it.
        let lengths = try await failure(harness, "lengths") { $0.pipeline.retry = .never }
        #expect(lengths?.category == .connectionLost)
        let huge = try await failure(harness, "huge-head") { $0.pipeline.retry = .never }
        #expect(huge?.code == .headersTooLarge)
        let short = try await failure(harness, "short") { $0.pipeline.retry = .never }
        #expect(short?.category == .connectionLost)
    }

    @Test("a 1 MB header line is headers-too-large, a redirect elsewhere than http(s) names the scheme, a body over the limit names it")
    func namedLimits() async throws {
        let harness = try ClientHarness { request in
            switch request.path {
            case "/api/v1/long-line": .raw("HTTP/1.1 200 OK\r\nX-Long: " + String(repeating: "a", count: 1 << 20) + "\r\nContent-Length: 0\r\n\r\n")
            case "/api/v1/ftp": ScriptedServer.Reply(302, headers: ["Location": "ftp://files.example/x"])
            default: ScriptedServer.Reply(200, body: Array(repeating: 0x61, count: 5000))
            }
        }
        let long = try await failure(harness, "long-line") { $0.pipeline.retry = .never }
        #expect(long?.code == .headersTooLarge, "\(String(describing: long))")
        let ftp = try await failure(harness, "ftp")
        #expect(ftp?.code == .badRedirect && ftp?.message.contains("ftp scheme") == true, "\(String(describing: ftp))")
        let large = try await failure(harness, "large") {
            $0.pipeline.retry = .never
            $0.limits.maximumBodyBytes = 1000
            $0.collectionLimit = nil
        }
        #expect(large?.code == .bodyTooLarge && large?.message.contains("1000 bytes") == true, "\(String(describing: large))")
    }

    @Test("endless redirects stop at the hop limit; a loop is named")
    func endlessRedirects() async throws {
        let counter = Lock(0)
        let harness = try ClientHarness { request in
            if request.path == "/api/v1/a" { return ScriptedServer.Reply(302, headers: ["Location": "/api/v1/b"]) }
            if request.path == "/api/v1/b" { return ScriptedServer.Reply(302, headers: ["Location": "/api/v1/a"]) }
            let n = counter.withLock { $0 += 1; return $0 }
            return ScriptedServer.Reply(302, headers: ["Location": "/api/v1/next\(n)"])
        }
        let endless = try await failure(harness, "start")
        #expect(endless?.code == .tooManyRedirects)
        #expect(harness.server.log.count == RedirectPolicy().maximumHops + 1)
        let loop = try await failure(harness, "a")
        #expect(loop?.code == .redirectLoop)
    }

    @Test("hostile Retry-After values: huge is clamped, garbage and negative fall back to backoff, a past date is no wait")
    func hostileRetryAfter() async throws {
        let values = ["999999999999", "soon", "-5", "Mon, 01 Jan 1990 00:00:00 GMT"]
        for value in values {
            let harness = try ClientHarness { _ in ScriptedServer.Reply(503, headers: ["Retry-After": value]) }
            let error = try await failure(harness, "busy") {
                $0.pipeline.retry.maximumAttempts = 2
                $0.pipeline.retry.initialBackoff = .milliseconds(100)
            }
            #expect(error?.status == 503 && error?.stage == .status)
            let sleeps = harness.clock.sleeps
            switch value {
            case "999999999999": #expect(sleeps == [RetryPolicy().maximumRetryAfter])
            case "Mon, 01 Jan 1990 00:00:00 GMT": #expect(sleeps == [.zero])
            default: #expect(sleeps == [.milliseconds(100)], "\(value)")
            }
        }
    }

    @Test("a 401 storm: concurrent 401s share one refresh, each request is replayed once, then a status error")
    func unauthorizedStorm() async throws {
        let concurrent = 8   // the transport's per-host connection bound: all first attempts in flight together
        let arrivals = NSCondition()
        let firstAttempts = Lock(0)
        let harness = try ClientHarness { request in
            if request.headers["Authorization"] == "Bearer t0" {
                // Hold every first attempt until all have arrived, so all carry the same rejected token.
                firstAttempts.withLock { $0 += 1 }
                arrivals.lock()
                arrivals.broadcast()
                let deadline = Date().addingTimeInterval(10)
                while firstAttempts.withLock({ $0 }) < concurrent, arrivals.wait(until: deadline) {}
                arrivals.unlock()
            }
            return ScriptedServer.Reply(401)
        }
        let tokens = CountingTokens()
        let client = try harness.client { $0.pipeline.tokenSource = tokens }
        let failures = await withTaskGroup(of: HTTPError?.self) { group in
            for _ in 0..<concurrent {
                group.addTask {
                    do throws(HTTPError) {
                        _ = try await client.send(RequestBuilder.get("me", as: [UInt8].self).authentication(.required()))
                        return nil
                    } catch { return error }
                }
            }
            return await group.reduce(into: [HTTPError?]()) { $0.append($1) }
        }
        #expect(failures.count == concurrent && failures.allSatisfy { $0?.status == 401 })
        #expect(tokens.refreshes.withLock { $0 } == 1)
        let authorizations = harness.server.log.map { $0.headers["Authorization"] ?? "" }
        #expect(authorizations.filter { $0 == "Bearer t0" }.count == concurrent)
        #expect(authorizations.filter { $0 == "Bearer t1" }.count == concurrent)
    }
}

@Suite("Non-idempotent requests are never re-sent by libcurl")
struct NoSilentResendTests {
    @Test("a POST without Idempotency-Key goes on a fresh connection: a connection closed without reply is an error, sent once")
    func postNotResent() async throws {
        let harness = try ClientHarness { request in
            request.path == "/api/v1/warm" ? ScriptedServer.Reply(200) : .raw("")
        }
        let client = try harness.client { $0.pipeline.retry = .never }
        _ = try await client.send(RequestBuilder.get("warm", as: [UInt8].self))   // leaves a connection to reuse
        let error = await #expect(throws: HTTPError.self) {
            try await client.send(RequestBuilder<HTTPNoContent>(.post, "mutate").body(.text("once")))
        }
        #expect(error?.category == .connectionLost)
        #expect(harness.server.log.filter { $0.path == "/api/v1/mutate" }.count == 1)
    }
}
