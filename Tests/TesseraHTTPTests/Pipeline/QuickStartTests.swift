import Foundation
import Testing
import TesseraHTTP
import TesseraTestSupport

@Suite("docs/HTTP.md quick start")
struct QuickStartTests {
    @Test("the quick start compiles and fetches through libcurl from the origin simulator")
    func quickStart() async throws {
        let directory = try TemporaryDirectory()
        _ = try directory.write("streams/42/master.m3u8", Array("#EXTM3U\n".utf8))
        let origin = try OriginSimulator(root: directory.url)
        defer { origin.shutdown() }
        let base = origin.url("/")
        var curl = CurlTransport.Configuration()
        curl.proxy = .none

        // From docs/HTTP.md (the transport gets the proxy setting the test needs).
        var configuration = HTTPPipelineConfiguration()
        configuration.retry.maximumAttempts = 4
        configuration.circuitBreaker = CircuitBreakerPolicy()
        configuration.cache = MemoryResponseCache()
        configuration.coalescesIdenticalGETs = true
        configuration.propagatesTraceContext = true
        let events = HTTPEventStream(capacity: 256)
        let transport = try CurlTransport(configuration: curl)
        defer { transport.shutdown() }
        let pipeline = HTTPPipeline(transport: transport, configuration: configuration,
                                    clock: ContinuousClock(), events: events)

        let url = try RequestURL.make(base: base, path: "streams/42/master.m3u8", query: [("lang", "en")], allowHTTP: true)
        let (head, body) = try await pipeline.data(HTTPRequest(url: url), upTo: 5 << 20)
        #expect(head.status == 200 && body == Array("#EXTM3U\n".utf8))
        #expect(origin.log.last?.path == "/streams/42/master.m3u8")
    }
}
