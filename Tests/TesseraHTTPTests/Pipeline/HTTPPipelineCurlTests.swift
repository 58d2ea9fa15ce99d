import Foundation
import Testing
import TesseraHTTP
import TesseraHTTPTesting
import TesseraTestSupport

@Suite("HTTPPipeline over libcurl and the origin simulator")
struct HTTPPipelineCurlTests {
    private func pipeline(_ harness: TransportHarness, _ clock: ImmediateClock) -> HTTPPipeline<ImmediateClock> {
        var configuration = HTTPPipelineConfiguration()
        configuration.retry.jitter = 0
        configuration.retry.initialBackoff = .milliseconds(100)
        return HTTPPipeline(transport: harness.transport, configuration: configuration, clock: clock)
    }

    @Test("a 503 with Retry-After and a 502 are retried; the third attempt's body is exact")
    func retries() async throws {
        let harness = try TransportHarness()
        harness.origin.inject(.status(503, ["Retry-After": "1"]), path: "/small.bin", attempts: 1...1)
        harness.origin.inject(.status(502), path: "/small.bin", attempts: 2...2)
        let clock = ImmediateClock()
        let response = try await pipeline(harness, clock).send(harness.request("/small.bin"))
        #expect(response.head.status == 200)
        #expect(try await response.body.collect(upTo: 1 << 20) == TransportHarness.small)
        #expect(clock.sleeps == [.seconds(1), .milliseconds(200)])
        #expect(harness.origin.attempts("/small.bin") == 3)
    }

    @Test("a body cut off mid-transfer is fetched again whole")
    func truncatedBody() async throws {
        let harness = try TransportHarness()
        harness.origin.inject(.truncate(afterBytes: 1_000), path: "/small.bin", attempts: 1...1)
        let clock = ImmediateClock()
        let (head, bytes) = try await pipeline(harness, clock).data(harness.request("/small.bin"), upTo: 1 << 20)
        #expect(head.status == 200 && bytes == TransportHarness.small)
        #expect(clock.sleeps == [.milliseconds(100)])
        #expect(harness.origin.attempts("/small.bin") == 2)
    }

    @Test("a relative redirect is followed to the real file")
    func redirect() async throws {
        let harness = try TransportHarness()
        harness.origin.inject(.status(302, ["Location": "/small.bin?from=moved"]), path: "/moved", attempts: 1...1)
        let response = try await pipeline(harness, ImmediateClock()).send(harness.request("/moved"))
        #expect(response.head.status == 200)
        #expect(try await response.body.collect(upTo: 1 << 20) == TransportHarness.small)
        #expect(harness.origin.attempts("/moved") == 1)
    }

    @Test("a refused connection is retried up to the attempt limit, then its typed error is thrown")
    func refused() async throws {
        let harness = try TransportHarness()
        let clock = ImmediateClock()
        var request = HTTPRequest(url: URL(string: "http://127.0.0.1:1/x")!)
        request.limits.connectTimeout = .seconds(5)
        do {
            _ = try await pipeline(harness, clock).send(request)
            Issue.record("a refused connection succeeded")
        } catch {
            #expect(error.category == .connect)
        }
        #expect(clock.sleeps == [.milliseconds(100), .milliseconds(200)])
    }
}
