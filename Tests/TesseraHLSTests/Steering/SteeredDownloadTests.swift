import Foundation
import Testing
import TesseraHLS
import TesseraHTTP
import TesseraHTTPTesting
import TesseraPlayback
import TesseraPlaylist
import TesseraSupport
import TesseraTestSupport

/// Two pathways, each a loopback host of its own (127.0.0.1 and 127.0.0.2) serving the same
/// media, and a steering manifest on the first.
@Suite("Steered downloads: failover between pathways mid-transfer, over real loopback hosts")
struct SteeredDownloadTests {
    final class Pathways: Sendable {
        let origins: TwoPathwayOrigins
        private let recorded = Lock<[SingleFileDownload.Event]>([])
        var events: [SingleFileDownload.Event] { recorded.withLock { $0 } }
        var a: OriginSimulator { origins.a }
        var b: OriginSimulator { origins.b }
        var output: TemporaryDirectory { origins.output }

        /// `otherPlaylist` replaces the playlist pathway B serves; `stableIds` puts STABLE-VARIANT-IDs on the variants.
        /// With `cloned`, the multivariant playlist lists pathway A only and the manifest clones C
        /// from it, its variant's URI (PER-VARIANT-URIS) on pathway B's host.
        init(otherPlaylist: String? = nil, stableIds: Bool = true, cloned: Bool = false) throws {
            origins = try TwoPathwayOrigins { directory in
                for index in 0..<4 {
                    _ = try directory.write("a_ts_vod/seg_00\(index).ts", try FixtureStore.bytes("a_ts_vod/seg_00\(index).ts"))
                }
            }
            let playlist = try FixtureStore.bytes("a_ts_vod/index.m3u8")
            _ = try origins.tree.write("a_ts_vod/index.m3u8", playlist)
            _ = try origins.other.write("a_ts_vod/index.m3u8", otherPlaylist.map { Array($0.utf8) } ?? playlist)
            let a = origins.a, b = origins.b
            let id = stableIds ? ",STABLE-VARIANT-ID=\"main\"" : ""
            let multivariant = """
            #EXTM3U
            #EXT-X-VERSION:6
            #EXT-X-CONTENT-STEERING:SERVER-URI="/steer.json",PATHWAY-ID="A"
            #EXT-X-STREAM-INF:BANDWIDTH=500000,CODECS="avc1.4d400c,mp4a.40.2",PATHWAY-ID="A"\(id)
            \(a.url("/a_ts_vod/index.m3u8").absoluteString)
            #EXT-X-STREAM-INF:BANDWIDTH=500000,CODECS="avc1.4d400c,mp4a.40.2",PATHWAY-ID="B"\(id)
            \(b.url("/a_ts_vod/index.m3u8").absoluteString)
            """
            let lines = multivariant.split(separator: "\n", omittingEmptySubsequences: false)
            _ = try origins.tree.write("master.m3u8", Array((cloned ? lines.dropLast(2).joined(separator: "\n") : multivariant).utf8))
            let clone = "{\"BASE-ID\":\"A\",\"ID\":\"C\",\"URI-REPLACEMENT\":{\"HOST\":\"unused.invalid\",\"PER-VARIANT-URIS\":{\"main\":\"\(b.url("/a_ts_vod/index.m3u8").absoluteString)\"}}}"
            let manifest = cloned ? "{\"VERSION\":1,\"TTL\":300,\"PATHWAY-PRIORITY\":[\"A\",\"C\"],\"PATHWAY-CLONES\":[\(clone)]}"
                : "{\"VERSION\":1,\"TTL\":300,\"PATHWAY-PRIORITY\":[\"A\",\"B\"]}"
            _ = try origins.tree.write("steer.json", Array(manifest.utf8))
        }

        /// The download, through the origins' client.
        func download(steering: Bool = true) async throws(HLSError) -> DownloadReport {
            var options = SingleFileDownload.Options()
            options.resourceDeadline = nil
            options.steering = steering
            options.parallelism = 1
            return try await SingleFileDownload(playlistURL: a.url("/master.m3u8"), destination: output.url.appendingPathComponent("out.ts"),
                                                client: origins.client(), options: options).run { [recorded] event in recorded.withLock { $0.append(event) } }
        }
    }

    @Test("a pathway that dies mid-download: the rest comes from the next pathway and the bytes are identical")
    func failover() async throws {
        let pathways = try Pathways()
        pathways.a.inject(.status(503), path: "/a_ts_vod/seg_002.ts")
        pathways.a.inject(.status(503), path: "/a_ts_vod/seg_003.ts")
        let report = try await pathways.download()
        let reference = try DownloadHarness.clearReference()
        #expect(report.sha256 == SHA256Hasher.hash(reference) && report.byteCount == UInt64(reference.count))
        #expect(pathways.a.attempts("/a_ts_vod/seg_000.ts") == 1 && pathways.b.attempts("/a_ts_vod/seg_000.ts") == 0)
        #expect(pathways.b.attempts("/a_ts_vod/seg_002.ts") == 1 && pathways.b.attempts("/a_ts_vod/seg_003.ts") == 1)
        #expect(pathways.a.attempts("/a_ts_vod/seg_003.ts") == 0, "once moved, the job stays on the new pathway")
        #expect(pathways.a.attempts("/steer.json") >= 1)
        #expect(pathways.events.contains(.steering(.switched(from: "A", to: "B", reason: "pathway A failed"))))
    }

    @Test("a pathway cloned by the manifest with PER-VARIANT-URIS takes over when the only listed one dies")
    func clonedPathway() async throws {
        let pathways = try Pathways(cloned: true)
        pathways.a.inject(.status(503), path: "/a_ts_vod/seg_001.ts")
        let report = try await pathways.download()
        #expect(report.sha256 == SHA256Hasher.hash(try DownloadHarness.clearReference()))
        #expect(pathways.b.attempts("/a_ts_vod/index.m3u8") == 1 && pathways.b.attempts("/a_ts_vod/seg_001.ts") == 1)
        #expect(pathways.events.contains(.steering(.switched(from: "A", to: "C", reason: "pathway A failed")))
                || pathways.events.contains(.steering(.switched(from: "A", to: "C", reason: "the manifest's priority"))))
    }

    @Test("the new pathway's playlist must match the plan, else the switch fails with pathway-mismatch")
    func mismatch() async throws {
        let shorter = String(decoding: try FixtureStore.bytes("a_ts_vod/index.m3u8"), as: UTF8.self)
            .replacingOccurrences(of: "#EXTINF:1.000000,\nseg_003.ts\n", with: "")
        let pathways = try Pathways(otherPlaylist: shorter)
        pathways.a.inject(.status(503), path: "/a_ts_vod/seg_001.ts")
        do {
            _ = try await pathways.download()
            Issue.record("downloaded from a pathway that does not match")
        } catch {
            #expect(error.code == .pathwayMismatch && error.message.contains("3 segments instead of 4"), "\(error)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: pathways.output.url.path).filter { !$0.hasPrefix(".") }.isEmpty)
    }

    @Test("without stable IDs it downloads with a warning and no failover; --no-steering never asks the steering server")
    func withoutStableIds() async throws {
        let pathways = try Pathways(stableIds: false)
        _ = try await pathways.download()
        #expect(pathways.events.contains { if case .warning(let text) = $0 { text.contains("STABLE-VARIANT-ID") } else { false } })
        #expect(pathways.a.attempts("/steer.json") == 0)
        let unsteered = try Pathways()
        _ = try await unsteered.download(steering: false)
        #expect(unsteered.a.attempts("/steer.json") == 0 && !unsteered.events.contains { if case .steering = $0 { true } else { false } })
    }
}

/// A steering server with scripted manifests on the origin simulator: each attempt at the
/// manifest gets the answer the script gives it, over the real client (retries, Retry-After).
@Suite("Steering against a scripted steering server on a real loopback origin")
struct ScriptedSteeringServerTests {
    @Test("429 (Retry-After) then a manifest, then another priority, then 410: applied in turn, and steering ends")
    func script() async throws {
        let pathways = try SteeredDownloadTests.Pathways()
        let manifest = { (priority: String) in Array("{\"VERSION\":1,\"TTL\":1,\"PATHWAY-PRIORITY\":[\(priority)]}".utf8) }
        pathways.a.inject(.status(429, ["Retry-After": "3"]), path: "/steer.json", attempts: 1...1)
        pathways.a.inject(.replaceBody(manifest("\"B\",\"A\"")), path: "/steer.json", attempts: 2...2)
        pathways.a.inject(.replaceBody(manifest("\"A\",\"B\"")), path: "/steer.json", attempts: 3...3)
        pathways.a.inject(.status(410), path: "/steer.json", attempts: 4...Int.max)
        let playlist = try SteeringStateTests.multivariant()
        var steering = try #require(playlist.contentSteering)
        steering.serverURI = pathways.a.url("/steer.json").absoluteString
        let master = pathways.a.url("/master.m3u8")
        let state = try SteeringState(multivariant: playlist, url: master, steering: steering)
        let events = SteeringControllerTests.Events()
        let client = HLSClient(transport: pathways.origins.transport, clock: ImmediateClock())
        let controller = SteeringController(state: state, url: master, client: client) { events.add($0) }
        await controller.run()
        #expect(pathways.a.attempts("/steer.json") == 4, "the pipeline waited out the 429 and asked again")
        let switches = events.events.compactMap { event -> String? in
            if case .switched(_, let to, _) = event { return to }
            return nil
        }
        #expect(switches == ["B", "A"] && events.events.last == .ended)
        #expect(pathways.a.log.filter { $0.path == "/steer.json" }.count == 4)
    }
}
