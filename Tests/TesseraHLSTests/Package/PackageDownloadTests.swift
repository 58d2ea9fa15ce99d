import Foundation
import Testing
@testable import TesseraHLS
import TesseraHTTP
import TesseraPlaylist
import TesseraSupport
import TesseraTestSupport

@Suite("Offline packages: selection to local playlists, whole files, manifests, atomic commit, resume")
struct PackageDownloadTests {
    static let singleTS = """
    #EXTM3U
    #EXT-X-VERSION:4
    #EXT-X-STREAM-INF:BANDWIDTH=300000,CODECS="avc1.4d400d",RESOLUTION=320x180
    ../d_ts_single/index.m3u8?token=secret
    #EXT-X-I-FRAME-STREAM-INF:BANDWIDTH=60000,CODECS="avc1.4d400d",RESOLUTION=320x180,URI="iframes.m3u8"
    """
    /// I-frames inside the single-file TS: its first 1,880 bytes of each segment.
    static let iFrames = """
    #EXTM3U
    #EXT-X-VERSION:4
    #EXT-X-TARGETDURATION:1
    #EXT-X-PLAYLIST-TYPE:VOD
    #EXT-X-I-FRAMES-ONLY
    #EXTINF:1.0,
    #EXT-X-BYTERANGE:1880@0
    ../d_ts_single/media.ts
    #EXTINF:1.0,
    #EXT-X-BYTERANGE:1880@19740
    ../d_ts_single/media.ts
    #EXT-X-ENDLIST
    """
    /// The single-file fMP4 with its first segment not listed: the package still holds its bytes.
    static let skipping = """
    #EXTM3U
    #EXT-X-VERSION:7
    #EXT-X-TARGETDURATION:1
    #EXT-X-PLAYLIST-TYPE:VOD
    #EXT-X-MAP:URI="../d_fmp4_single/media.mp4",BYTERANGE="1366@0"
    #EXTINF:1.0,
    #EXT-X-BYTERANGE:13544@17058
    ../d_fmp4_single/media.mp4
    #EXT-X-ENDLIST
    """
    static let skippingMaster = """
    #EXTM3U
    #EXT-X-STREAM-INF:BANDWIDTH=300000,CODECS="avc1.4d400d"
    skipping.m3u8
    """

    /// A VOD playlist whose second segment is EXT-X-GAP (its URI names nothing on the origin).
    static let gapped = """
    #EXTM3U
    #EXT-X-VERSION:8
    #EXT-X-TARGETDURATION:1
    #EXT-X-PLAYLIST-TYPE:VOD
    #EXTINF:1.0,
    ../a_ts_vod/seg_000.ts
    #EXT-X-GAP
    #EXTINF:1.0,
    missing.ts
    #EXTINF:1.0,
    ../a_ts_vod/seg_002.ts
    #EXT-X-ENDLIST
    """

    static func harness() throws -> PackageHarness {
        try PackageHarness(extra: ["t/single.m3u8": singleTS, "t/iframes.m3u8": iFrames,
                                   "t/skipping.m3u8": skipping, "t/skipping-master.m3u8": skippingMaster, "t/gapped.m3u8": gapped,
                                   "t/gapped-master.m3u8": "#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=300000,CODECS=\"avc1.4d400d\"\ngapped.m3u8\n"])
    }

    static func checkManifest(_ files: [String: [UInt8]]) throws -> PackageManifest {
        let manifest = try PackageManifest.decode(try #require(files[PackageManifest.fileName]))
        #expect(manifest.schema == "tessera-package" && manifest.schemaVersion == 1 && manifest.entry == "master.m3u8")
        let listed = Set(manifest.files.map(\.path))
        #expect(listed == Set(files.keys).subtracting([PackageManifest.fileName, PackageChecksums.fileName]))
        for file in manifest.files {
            let bytes = try #require(files[file.path])
            #expect(UInt64(bytes.count) == file.size && SHA256Hasher.hash(bytes).hex == file.sha256, "\(file.path)")
        }
        let sumsText = String(decoding: try #require(files[PackageChecksums.fileName]), as: UTF8.self)
        let sums = try #require(PackageChecksums.parse(sumsText))
        #expect(Set(sums.map(\.path)) == Set(files.keys).subtracting([PackageChecksums.fileName]))
        for sum in sums { #expect(SHA256Hasher.hash(try #require(files[sum.path])).hex == sum.sha256) }
        // URL-free, key-free playlists and manifest.
        for (path, bytes) in files where path.hasSuffix(".m3u8") || path == PackageManifest.fileName {
            let text = String(decoding: bytes, as: UTF8.self)
            #expect(!text.contains("http") && !text.contains("127.0.0.1") && !text.contains("token") && !text.contains("EXT-X-KEY")
                    && !text.contains("EXT-X-SESSION-KEY") && !text.contains("EXT-X-DEFINE"), "\(path)")
        }
        return manifest
    }

    @Test("a multivariant presentation: the variant, its audio and every subtitle track, local and verified")
    func multivariant() async throws {
        let harness = try Self.harness()
        var options = PackageDownload.Options()
        options.selection.subtitles = try #require(RenditionPolicy("all"))
        let report = try await harness.job("/e_multivariant/master.m3u8", options: options).run()
        let files = try harness.published()
        let manifest = try Self.checkManifest(files)
        #expect(manifest.tracks.map(\.id) == ["video", "audio-1", "subtitles-1", "subtitles-2"])
        #expect(manifest.tracks.map(\.role) == [.video, .audio, .subtitles, .subtitles])
        #expect(manifest.tracks[0].bandwidth == 167_200 && manifest.tracks[0].provenance.hasPrefix("variant best"))
        #expect(manifest.tracks[1].language == "en" && manifest.tracks[1].name == "audio_2")
        #expect(report.manifest == manifest)
        // Media files are the origin's bytes.
        #expect(files["video/seg_000.ts"] == (try FixtureStore.bytes("e_multivariant/hi/seg_000.ts")))
        #expect(files["audio-1/seg_004.ts"] == (try FixtureStore.bytes("e_multivariant/audio/seg_004.ts")))
        #expect(files["subtitles-2/index0.vtt"] == (try FixtureStore.bytes("e_multivariant/hi/index0.vtt")))
        // master.m3u8: one variant, its groups, local URIs that resolve to files of the package.
        guard case .multivariant(let master) = try PlaylistParser().parse(try #require(files["master.m3u8"])).playlist else {
            Issue.record("master.m3u8 is not a multivariant playlist")
            return
        }
        #expect(master.variants.map(\.uri) == ["video/index.m3u8"])
        #expect(master.variants[0].codecs == "avc1.4d400c,mp4a.40.2" && master.variants[0].resolution == Resolution(width: 320, height: 180))
        #expect(master.renditions.map(\.uri) == ["audio-1/index.m3u8", "subtitles-1/index.m3u8", "subtitles-2/index.m3u8"])
        let subtitleDefaults = master.renditions.filter { $0.type == .subtitles && $0.isDefault }
        #expect(subtitleDefaults.isEmpty, "subtitles stay off unless the source made one default")
        for track in manifest.tracks {
            guard case .media(let media) = try PlaylistParser().parse(try #require(files[track.playlist])).playlist else {
                Issue.record("\(track.playlist) is not a media playlist")
                continue
            }
            #expect(media.hasEndList && media.segments.count == track.segments)
            for segment in media.segments { #expect(files["\(track.id)/\(segment.uri)"] != nil, "\(track.id)/\(segment.uri)") }
        }
        #expect(try harness.hiddenFiles().isEmpty, "no staging, checkpoint, spill or lock is left")
    }

    @Test("a single-file TS keeps its byte ranges exact, and the I-frame stream points into the same file")
    func byteRangesAndIFrames() async throws {
        let harness = try Self.harness()
        var options = PackageDownload.Options()
        options.iFrames = true
        _ = try await harness.job("/t/single.m3u8", options: options).run()
        let files = try harness.published()
        let manifest = try Self.checkManifest(files)
        #expect(manifest.tracks.map(\.id) == ["video", "iframes-1"])
        #expect(files["video/media.ts"] == (try FixtureStore.bytes("d_ts_single/media.ts")))
        #expect(manifest.files.filter { $0.role == .media }.map(\.path) == ["video/media.ts"], "the I-frame stream adds no file")
        let iFrames = String(decoding: try #require(files["iframes-1/index.m3u8"]), as: UTF8.self)
        #expect(iFrames.contains("#EXT-X-BYTERANGE:1880@19740") && iFrames.contains("../video/media.ts"))
        let video = String(decoding: try #require(files["video/index.m3u8"]), as: UTF8.self)
        #expect(video.contains("#EXT-X-BYTERANGE:17860@19740\nmedia.ts"))
        // Each range was asked for with the token, which never reached the package.
        #expect(harness.origin.log.contains { $0.path == "/d_ts_single/index.m3u8" })
    }

    @Test("an EXT-X-GAP segment is never fetched; its URI names an empty file of the package, so players that do not honour the tag play on")
    func gapSegments() async throws {
        let harness = try Self.harness()
        let report = try await harness.job("/t/gapped-master.m3u8").run()
        #expect(report.manifest.gaps.map(\.mediaSequence) == [1])
        #expect(!harness.origin.log.contains { $0.path.hasSuffix("missing.ts") }, "a gap is not requested")
        let files = try harness.published()
        let manifest = try Self.checkManifest(files)
        #expect(files["video/missing.ts"] == [], "the gap's file is there, empty")
        #expect(manifest.files.contains { $0.path == "video/missing.ts" && $0.size == 0 && $0.role == .media })
        let video = String(decoding: try #require(files["video/index.m3u8"]), as: UTF8.self)
        #expect(video.contains("#EXT-X-GAP\n#EXTINF:1.0,\nmissing.ts"))
        #expect(PackageStore(folder: harness.destination).verify().findings == [])
    }

    @Test("bytes between listed ranges are fetched, so every BYTERANGE offset stays exact")
    func unlistedBytes() async throws {
        let harness = try Self.harness()
        _ = try await harness.job("/t/skipping-master.m3u8").run()
        let files = try harness.published()
        _ = try Self.checkManifest(files)
        let source = try FixtureStore.bytes("d_fmp4_single/media.mp4")
        #expect(files["video/media.mp4"] == Array(source[0..<(17058 + 13544)]))
    }

    @Test("a failed transfer leaves nothing at the destination; the rerun resumes and gives identical files")
    func failureThenResume() async throws {
        let reference = try Self.harness()
        _ = try await reference.job("/e_multivariant/master.m3u8").run()
        let expected = try reference.published()

        let harness = try Self.harness()
        harness.origin.inject(.status(404), path: "/e_multivariant/audio/seg_003.ts", attempts: 1...1)
        await #expect(throws: HLSError.self) { try await harness.job("/e_multivariant/master.m3u8").run() }
        #expect(harness.origin.attempts("/e_multivariant/audio/seg_003.ts") == 1)
        #expect(!FileManager.default.fileExists(atPath: harness.destination.path))
        #expect(try harness.hiddenFiles().contains { $0.hasSuffix(".tessera-checkpoint") })
        let fetchedFirst = harness.origin.log.count
        let events = PackageHarness.Events()
        _ = try await harness.job("/e_multivariant/master.m3u8").run(events: events.record)
        #expect(events.all.contains { if case .resumed(let resources, _) = $0 { resources > 0 } else { false } })
        #expect(try harness.published() == expected)
        #expect(harness.origin.log.count - fetchedFirst < reference.origin.log.count, "only what was missing was fetched again")
        #expect(try harness.hiddenFiles().isEmpty)
    }

    @Test("the destination must not exist; a plan is made without any media byte")
    func planAndRefusals() async throws {
        let harness = try Self.harness()
        let summary = try await harness.job("/e_multivariant/master.m3u8").plan()
        #expect(summary.tracks.map(\.id) == ["video", "audio-1"])
        #expect(summary.resourcesByTrack == ["video": 4, "audio-1": 5])
        #expect(harness.origin.log.allSatisfy { $0.path.hasSuffix(".m3u8") })
        try FileManager.default.createDirectory(at: harness.destination, withIntermediateDirectories: true)
        await #expect { try await harness.job("/e_multivariant/master.m3u8").run() } throws: { error in
            (error as? HLSError)?.code == .destinationExists
        }
    }

    @Test("a plain media playlist (ffmpeg's default output) is packaged as one variant whose BANDWIDTH is its measured peak; the package verifies")
    func mediaPlaylist() async throws {
        let harness = try Self.harness()
        let report = try await harness.job("/a_ts_vod/index.m3u8").run()
        #expect(report.manifest.tracks.map(\.id) == ["video"])
        let files = try harness.published()
        guard case .multivariant(let master) = try PlaylistParser().parse(try #require(files["master.m3u8"])).playlist else {
            Issue.record("master.m3u8 is not a multivariant playlist")
            return
        }
        #expect(master.variants.map(\.uri) == ["video/index.m3u8"] && master.variants[0].bandwidth > 1)
        #expect(files["video/seg_000.ts"] == (try FixtureStore.bytes("a_ts_vod/seg_000.ts")))
        #expect(PackageStore(folder: harness.destination).verify().isVerified)
    }
}
