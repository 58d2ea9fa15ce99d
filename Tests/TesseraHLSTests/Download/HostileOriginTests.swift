import Foundation
import Testing
import TesseraHLS
import TesseraHTTP
import TesseraTestSupport

@Suite("SingleFileDownload against a hostile origin: bounded, typed, nothing left behind")
struct HostileOriginTests {
    /// A client of no retries whose `purpose` has its default limits with `adjust` applied (tests
    /// keep windows short).
    static func configuration(_ purpose: RequestPurpose, _ adjust: (inout TransferLimits) -> Void) -> HTTPPipelineConfiguration {
        var configuration = HLSClient.defaultConfiguration
        configuration.retry = .never
        var limits = PurposeLimits.hls[purpose] ?? TransferLimits()
        adjust(&limits)
        configuration.purposeLimits[purpose] = limits
        return configuration
    }

    @Test("a segment that trickles below the media low-speed floor fails as a timeout instead of holding the job")
    func trickle() async throws {
        let harness = try DownloadHarness()
        harness.origin.inject(.trickle(bytesPerSecond: 2), path: "/a_ts_vod/seg_000.ts")
        // The default window is 20 s; a short one keeps the test quick.
        let configuration = Self.configuration(.segment) { $0.lowSpeedWindow = .seconds(1) }
        var options = SingleFileDownload.Options()
        options.resourceDeadline = nil    // the immediate clock would end it at once
        let job = SingleFileDownload(playlistURL: harness.origin.url("/a_ts_vod/index.m3u8"), destination: harness.destination,
                                     client: HLSClient(transport: harness.transport, configuration: configuration, clock: harness.clock),
                                     options: options)
        do {
            _ = try await job.run()
            Issue.record("a trickling segment was accepted")
        } catch {
            #expect(error.code == .fetchFailed)
            #expect((error.cause as? HTTPError)?.category == .timeout, "\(error.message) \(String(describing: error.cause))")
        }
        #expect(try harness.leftovers().isEmpty)
    }

    @Test("a playlist that trickles below the small resources' floor fails as a timeout, one whose bytes come fast enough but never end at its deadline")
    func tricklingPlaylist() async throws {
        let harness = try DownloadHarness()
        harness.origin.inject(.trickle(bytesPerSecond: 2), path: "/a_ts_vod/index.m3u8")
        // The default window is 10 s; a short one keeps the test quick.
        let configuration = Self.configuration(.mediaPlaylist) { $0.lowSpeedWindow = .seconds(1) }
        let loader = PlaylistLoader(client: HLSClient(transport: harness.transport, configuration: configuration, clock: harness.clock))
        await #expect { _ = try await loader.loadMediaPlaylist(harness.origin.url("/a_ts_vod/index.m3u8")) } throws: { error in
            guard let error = error as? HLSError, error.code == .fetchFailed else { return false }
            return (error.cause as? HTTPError)?.category == .timeout
        }
        // Fast enough for the floor (2 KiB/s), but 20 KB of it: the whole-transfer deadline ends it.
        harness.origin.inject(.trickle(bytesPerSecond: 2048), path: "/a_ts_vod/seg_001.ts")
        let deadline = Self.configuration(.multivariantPlaylist) { $0.total = .seconds(2) }
        let bounded = PlaylistLoader(client: HLSClient(transport: harness.transport, configuration: deadline, clock: harness.clock))
        await #expect { _ = try await bounded.fetchPlaylist(harness.origin.url("/a_ts_vod/seg_001.ts"), purpose: .multivariantPlaylist) } throws: { error in
            guard let error = error as? HLSError, error.code == .fetchFailed else { return false }
            return (error.cause as? HTTPError)?.category == .timeout
        }
    }

    @Test("an endless chunked segment stops at the resource budget, spilled to disk rather than held in memory")
    func endless() async throws {
        let harness = try DownloadHarness()
        harness.origin.inject(.endless, path: "/a_ts_vod/seg_000.ts")
        var options = SingleFileDownload.Options()
        options.maximumResourceBytes = 4 << 20
        options.maximumInMemoryResourceBytes = 256 << 10
        let error = await harness.failure("/a_ts_vod/index.m3u8", options: options)
        #expect(error?.code == .budgetExceeded, "\(String(describing: error))")
        #expect(try harness.leftovers().isEmpty)
    }

    @Test("the media purpose carries the low-speed floor by default; the caller's limits win for what they set")
    func defaults() {
        let client = HLSClient(transport: MockTransportStub.transport)
        #expect(client.configuration.purposeLimits[.segment]?.lowSpeedBytesPerSecond == 1024)
        #expect(client.configuration.purposeLimits[.segment]?.lowSpeedWindow == .seconds(20))
        #expect(client.configuration.purposeLimits[.key]?.maximumBodyBytes == 4096)
    }
}

/// A transport nobody sends through.
enum MockTransportStub {
    static let transport: any HTTPTransport = NoTransport()

    struct NoTransport: HTTPTransport {
        func send(_ request: HTTPRequest) async throws(HTTPError) -> HTTPResponse {
            throw HTTPError(.invalidRequest, code: .noResponse, "not for sending")
        }
    }
}
