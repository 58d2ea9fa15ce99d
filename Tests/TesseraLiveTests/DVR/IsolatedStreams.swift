import Foundation
import Testing
import TesseraHLS
import TesseraHTTP
import TesseraHTTPTesting
import TesseraLive
import TesseraTestSupport

/// LL-HLS test origins whose streams must not see each other, for the isolation tests: stream i
/// serves the TS fixture's segments rotated by i, even ones rotate AES-128 keys every segment,
/// and the `silent` one serves no media (it fails alone).
struct IsolatedStreams {
    let fixtures: [[UInt8]]
    let hosts: [LiveOriginHost]

    init(count: Int, silent: Int) throws {
        let fixtures = try (0..<4).map { try FixtureStore.bytes("a_ts_vod/seg_00\($0).ts") }
        self.fixtures = fixtures
        hosts = try (0..<count).map { index in
            var origin = LiveOriginPlaylist.Configuration()
            origin.partsPerSegment = 2
            origin.canSkipUntil = nil
            origin.segmentExtension = "ts"
            if index % 2 == 0 { origin.keyEvery = 1 }
            return try LiveOriginHost(LiveOrigin(origin, published: 12, media: index == silent ? [] : (0..<4).map { fixtures[($0 + index) % 4] }))
        }
    }

    /// One client for every job: no retries; retry waits pass at once on the immediate clock, so
    /// every job turns resource deadlines off (their watcher would see sleeps that never wait).
    static func client(_ transport: CurlTransport) -> HLSClient {
        var configuration = HLSClient.defaultConfiguration
        configuration.retry = .never
        return HLSClient(transport: transport, configuration: configuration, clock: ImmediateClock())
    }

    /// Records stream `index` from its window start for 8 s (four segments) into `destination`.
    func record(_ index: Int, to destination: URL, client: HLSClient) async -> Result<RecordingReport, HLSError> {
        var options = LiveRecording.Options()
        options.start = .windowStart
        options.duration = .seconds(8)
        options.bounds.resourceDeadline = nil
        let publisher = LiveRecordingTests.Publisher(hosts[index].origin)
        let recording = LiveRecording(url: hosts[index].playlistURL, destination: destination, client: client, options: options)
        do throws(HLSError) {
            return .success(try await recording.run { event in
                if case .progress(let progress) = event { publisher.publish(after: progress) }
            })
        } catch {
            return .failure(error)
        }
    }

    /// A recording of stream `index` ended by its duration with its own four segments, decrypted
    /// with its own keys, in a package that verifies.
    func expectOwn(_ report: RecordingReport, stream index: Int, at destination: URL) throws {
        #expect(report.end == .duration && report.segments == 4 && report.gaps == 0, "stream \(index): \(report.end)")
        #expect(PackageStore(folder: destination).verify().isVerified, "stream \(index)")
        for msn in 0..<4 {
            let stored = try Data(contentsOf: destination.appendingPathComponent("video/\(msn).ts"))
            #expect(Array(stored) == fixtures[(msn + index) % 4], "stream \(index) segment \(msn): its own bytes, decrypted with its own keys")
        }
    }
}
