import Foundation
import TesseraHLS
import TesseraHTTP
import TesseraLive
import TesseraPlayback
import TesseraSupport
import TesseraTestSupport

/// Live test origins for the channel tests: `IsolatedStreams` for the healthy channels (each its
/// own bytes and keys, published as its recording goes), and the faults — a refused port, an
/// origin trickling its playlist at 40 bytes a second, one whose source restarts (its numbering
/// goes back) and one answering a 5 MB live playlist whose segments are missing.
final class ChannelOrigins: Sendable {
    let streams: IsolatedStreams
    let publishers: [LiveRecordingTests.Publisher]
    let refused: RefusingPort
    let trickling: OriginSimulator
    let huge: OriginSimulator
    let restarting: SwitchingOrigin
    let restartingServer: LoopbackServer
    let root: TemporaryDirectory

    init(healthy: Int) throws {
        streams = try IsolatedStreams(count: healthy, silent: -1)
        publishers = streams.hosts.map { LiveRecordingTests.Publisher($0.origin) }
        refused = try RefusingPort()
        root = try TemporaryDirectory()
        let segment = try FixtureStore.bytes("a_ts_vod/seg_000.ts")
        var live = "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:2\n#EXT-X-MEDIA-SEQUENCE:0\n"
        for index in 0..<6 { live += "#EXTINF:2.0,\nt\(index).ts\n" }
        _ = try root.write("trickle/live.m3u8", Array(live.utf8))
        for index in 0..<6 { _ = try root.write("trickle/t\(index).ts", segment) }
        var big = "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:2\n#EXT-X-MEDIA-SEQUENCE:0\n"
        var index = 0
        while big.utf8.count < 5_000_000 {
            big += "#EXTINF:2.0,\nmissing-segment-with-a-long-name-\(index).ts\n"
            index += 1
        }
        _ = try root.write("huge/live.m3u8", Array(big.utf8))
        trickling = try OriginSimulator(root: root.url.appendingPathComponent("trickle"))
        trickling.inject(.trickle(bytesPerSecond: 40), path: "/live.m3u8")
        huge = try OriginSimulator(root: root.url.appendingPathComponent("huge"))
        restarting = SwitchingOrigin(fixtures: streams.fixtures)
        restartingServer = try LoopbackServer(responder: restarting)
    }

    var restartingURL: URL { restartingServer.baseURL.appendingPathComponent("live.m3u8") }

    func shutdown() {
        trickling.shutdown()
        huge.shutdown()
        restartingServer.shutdown()
    }

    /// Options of a healthy channel: four segments from the window start.
    static var healthyOptions: LiveRecording.Options {
        var options = LiveRecording.Options()
        options.start = .windowStart
        options.duration = .seconds(8)
        options.bounds.resourceDeadline = nil   // the immediate clock would expire it at once
        return options
    }
}

/// A live origin whose source restarts: it serves one `LiveOrigin` until `restart()`, then a new
/// one numbered from 0 again (another encoder in its place).
final class SwitchingOrigin: HTTPResponder {
    let origins: [LiveOrigin]
    private let current = Lock(0)

    init(fixtures: [[UInt8]]) {
        var configuration = LiveOriginPlaylist.Configuration()
        configuration.partsPerSegment = 2
        configuration.canSkipUntil = nil
        configuration.segmentExtension = "ts"
        origins = [LiveOrigin(configuration, published: 40, media: fixtures), LiveOrigin(configuration, published: 4, media: fixtures.reversed())]
    }

    func restart() { current.withLock { $0 = 1 } }

    var restarted: Bool { current.withLock { $0 == 1 } }

    /// Publishes one more segment on both.
    func advance() { for origin in origins { origin.advance(parts: 2) } }

    func reply(to request: ServerRequest) -> ServerReply {
        origins[current.withLock { $0 }].reply(to: request)
    }
}

/// What most channel tests start from: one transport and client (`IsolatedStreams.client`),
/// `count` healthy streams with their publishers, and a folder for the channels.
final class ChannelHarness: Sendable {
    let transport: CurlTransport
    let client: HLSClient
    let streams: IsolatedStreams
    let publishers: [LiveRecordingTests.Publisher]
    let folder: TemporaryDirectory

    init(count: Int) throws {
        transport = try CurlTransport.loopback()
        client = IsolatedStreams.client(transport)
        streams = try IsolatedStreams(count: count, silent: -1)
        publishers = streams.hosts.map { LiveRecordingTests.Publisher($0.origin) }
        folder = try TemporaryDirectory()
    }

    /// Channel `name` of stream `index`.
    func channel(_ name: String, _ index: Int, options: LiveRecording.Options = ChannelOrigins.healthyOptions,
                 revision: String? = nil) throws -> RecordingChannel {
        try RecordingChannel(name: name, url: streams.hosts[index].playlistURL, client: client, options: options, revision: revision)
    }

    /// Publishes on stream `index` after `event`'s progress; the progress, if it was one.
    @discardableResult
    func publish(after event: ChannelEvent, on index: Int?) -> RecordingProgress? {
        guard case .recording(.progress(let progress)) = event.kind else { return nil }
        if let index { publishers[index].publish(after: progress) }
        return progress
    }

    deinit { transport.shutdown() }
}
