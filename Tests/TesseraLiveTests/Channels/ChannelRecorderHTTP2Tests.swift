import Foundation
import Testing
import TesseraHLS
import TesseraHTTP
import TesseraLive
import TesseraTestSupport

/// The channels of one recorder ride one transport: where their origin offers HTTP/2 (ALPN over
/// TLS), every request goes over it, multiplexed on the connections already open.
@Suite("ChannelRecorder over HTTPS: HTTP/2 and shared connections", .serialized)
struct ChannelRecorderHTTP2Tests {
    @Test("four channels of one HTTP/2 origin: every request over HTTP/2, on at most two connections, every package verified",
          .timeLimit(.minutes(1)))
    func sharedConnections() async throws {
        let root = try TemporaryDirectory()
        let source = FixtureStore.root.appendingPathComponent("e_multivariant/lo")
        let names = ["a", "b", "c", "d"]
        for name in names {
            try FileManager.default.copyItem(at: source, to: root.url.appendingPathComponent(name))
        }
        let origin = try TLSOrigin(root: root.url, logRequests: true)
        defer { origin.shutdown() }
        var configuration = CurlTransport.loopbackConfiguration
        configuration.certificateAuthorities = origin.certificateAuthorities
        let transport = try CurlTransport(configuration: configuration)
        defer { transport.shutdown() }
        let client = HLSClient(transport: transport)
        var options = LiveRecording.Options()
        options.start = .windowStart
        let channels = try names.map { name in
            try RecordingChannel(name: name, url: origin.baseURL.appendingPathComponent("\(name)/index.m3u8"), client: client, options: options)
        }
        let folder = try TemporaryDirectory()
        let recorder = ChannelRecorder(directory: folder.url)
        await recorder.run(channels)

        for status in recorder.status {
            #expect(status.state == .finished && status.committed == 1 && status.segments == 4, "\(status)")
            #expect(PackageStore(folder: folder.url.appendingPathComponent(status.name)).verify().isVerified, "\(status.name)")
        }
        let requests = origin.requests
        #expect(requests.count >= 4 * 5, "each channel's playlist and segments: \(requests)")
        #expect(requests.allSatisfy { $0.hasPrefix("HTTP/2.0 ") }, "\(requests)")
        let connections = Set(requests.map { $0.split(separator: " ")[1] })
        #expect(connections.count <= 2, "the channels share the origin's connections: \(connections.count) for \(requests.count) requests")
    }
}
