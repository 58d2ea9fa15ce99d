import Foundation
import Testing
import TesseraHLS
import TesseraHTTP
import TesseraPlayback
import TesseraSupport
import TesseraTestSupport

/// A steered presentation on two loopback hosts (127.0.0.1 is pathway A, 127.0.0.2 pathway B),
/// each serving the fixtures' video and audio, with a steering manifest on A.
@Suite("Steered packages: stable IDs on every pathway, failover of every track mid-transfer")
struct PackageSteeringTests {
    final class Pathways: Sendable {
        let origins: TwoPathwayOrigins
        private let recorded = Lock<[PackageDownload.Event]>([])
        var events: [PackageDownload.Event] { recorded.withLock { $0 } }
        var a: OriginSimulator { origins.a }
        var b: OriginSimulator { origins.b }

        init(renditionIds: Bool = true) throws {
            origins = try TwoPathwayOrigins { directory in
                for entry in try FixtureStore.entries() where entry.path.hasPrefix("e_multivariant/hi/") || entry.path.hasPrefix("e_multivariant/audio/") {
                    _ = try directory.write(entry.path, try FixtureStore.bytes(entry.path))
                }
            }
            let rendition = renditionIds ? ",STABLE-RENDITION-ID=\"en\"" : ""
            var lines = ["#EXTM3U", "#EXT-X-VERSION:6", "#EXT-X-CONTENT-STEERING:SERVER-URI=\"/steer.json\",PATHWAY-ID=\"A\""]
            for (pathway, origin) in [("A", origins.a), ("B", origins.b)] {
                lines.append("#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\"aud-\(pathway)\",NAME=\"en\",LANGUAGE=\"en\",DEFAULT=YES\(rendition),URI=\"\(origin.url("/e_multivariant/audio/index.m3u8").absoluteString)\"")
                lines.append("#EXT-X-STREAM-INF:BANDWIDTH=167200,CODECS=\"avc1.4d400c,mp4a.40.2\",AUDIO=\"aud-\(pathway)\",PATHWAY-ID=\"\(pathway)\",STABLE-VARIANT-ID=\"hi\"")
                lines.append(origin.url("/e_multivariant/hi/index.m3u8").absoluteString)
            }
            _ = try origins.tree.write("master.m3u8", Array(lines.joined(separator: "\n").utf8))
            _ = try origins.tree.write("steer.json", Array("{\"VERSION\":1,\"TTL\":300,\"PATHWAY-PRIORITY\":[\"A\",\"B\"]}".utf8))
        }

        var destination: URL { origins.output.url.appendingPathComponent("package") }

        /// The package, through the origins' client.
        func package(steering: Bool = true) async throws(HLSError) -> PackageReport {
            var options = PackageDownload.Options()
            options.resourceDeadline = nil
            options.steering = steering
            options.parallelism = 1
            options.capacity = .bestEffort
            return try await PackageDownload(url: a.url("/master.m3u8"), destination: destination, client: origins.client(), options: options)
                .run { [recorded] event in recorded.withLock { $0.append(event) } }
        }
    }

    @Test("pathway A dies mid-package: video and audio continue from B, and the package is the same")
    func failover() async throws {
        let pathways = try Pathways()
        pathways.a.inject(.status(503), path: "/e_multivariant/hi/seg_002.ts")
        pathways.a.inject(.status(503), path: "/e_multivariant/audio/seg_001.ts")
        let report = try await pathways.package()
        #expect(pathways.a.attempts("/e_multivariant/hi/seg_000.ts") == 1)
        #expect(pathways.b.attempts("/e_multivariant/hi/index.m3u8") == 1 && pathways.b.attempts("/e_multivariant/audio/index.m3u8") == 1)
        #expect(pathways.b.attempts("/e_multivariant/hi/seg_003.ts") == 1 && pathways.b.attempts("/e_multivariant/audio/seg_004.ts") == 1)
        #expect(pathways.events.contains(.steering(.switched(from: "A", to: "B", reason: "pathway A failed"))))
        #expect(report.manifest.tracks.map(\.id) == ["video", "audio-1"])
        for index in 0..<4 {
            let file = try Data(contentsOf: pathways.destination.appendingPathComponent("video/seg_00\(index).ts"))
            #expect([UInt8](file) == (try FixtureStore.bytes("e_multivariant/hi/seg_00\(index).ts")))
        }
        #expect(PackageStore(folder: pathways.destination).verify().isVerified)
        let master = try String(contentsOf: pathways.destination.appendingPathComponent("master.m3u8"), encoding: .utf8)
        #expect(!master.contains("CONTENT-STEERING") && !master.contains("PATHWAY-ID") && !master.contains("127.0.0"))
    }

    @Test("a track without a stable ID on every pathway is refused before any media byte; --no-steering packages it")
    func refusedWithoutStableIds() async throws {
        let pathways = try Pathways(renditionIds: false)
        await #expect { try await pathways.package() } throws: { error in
            (error as? HLSError)?.code == .unsupported && (error as? HLSError)?.message.contains("STABLE-RENDITION-ID") == true
        }
        #expect(pathways.a.log.allSatisfy { $0.path.hasSuffix(".m3u8") } && pathways.b.log.isEmpty)
        let report = try await pathways.package(steering: false)
        #expect(report.manifest.tracks.map(\.id) == ["video", "audio-1"])
        #expect(pathways.a.attempts("/steer.json") == 0)
    }
}
