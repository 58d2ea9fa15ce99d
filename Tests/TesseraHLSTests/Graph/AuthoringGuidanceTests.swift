import Foundation
import Testing
import TesseraHLS
import TesseraPlaylist
import TesseraTestSupport

/// One presentation per authoring ID that shows that problem; a presentation authored by the
/// book has none.
@Suite("Authoring guidance: one case per ID (opt-in)")
struct AuthoringGuidanceTests {
    typealias H = GraphHarness
    static let good = "#EXT-X-STREAM-INF:BANDWIDTH=2000000,AVERAGE-BANDWIDTH=1800000,CODECS=\"avc1.4d401f,mp4a.40.2\",RESOLUTION=1280x720,FRAME-RATE=25"
    static let iframes = "#EXT-X-I-FRAME-STREAM-INF:BANDWIDTH=100000,CODECS=\"avc1.4d401f\",RESOLUTION=1280x720,URI=\"i.m3u8\""
    static func mv(_ lines: String...) -> String {
        "#EXTM3U\n#EXT-X-VERSION:6\n#EXT-X-INDEPENDENT-SEGMENTS\n" + lines.joined(separator: "\n") + "\n"
    }
    static let vod = H.media(header: "#EXT-X-PLAYLIST-TYPE:VOD\n")
    static let iframePlaylist = H.media(header: "#EXT-X-PLAYLIST-TYPE:VOD\n#EXT-X-I-FRAMES-ONLY\n")
    static let clean: [String: String] = ["a.m3u8": vod, "i.m3u8": iframePlaylist]

    static let cases: [(DiagnosticID, String, [String: String], URL?)] = [
        (.authoringTargetDuration, mv(good + "\na.m3u8", iframes), ["a.m3u8": H.media(target: 10, header: "#EXT-X-PLAYLIST-TYPE:VOD\n"), "i.m3u8": iframePlaylist], nil),
        (.authoringSegmentOverTarget, mv(good + "\na.m3u8", iframes),
         ["a.m3u8": "#EXTM3U\n#EXT-X-VERSION:6\n#EXT-X-TARGETDURATION:6\n#EXT-X-PLAYLIST-TYPE:VOD\n#EXTINF:6.49,\na.ts\n#EXTINF:6.6,\nb.ts\n#EXT-X-ENDLIST\n", "i.m3u8": iframePlaylist], nil),
        (.authoringIndependentSegments, "#EXTM3U\n#EXT-X-VERSION:6\n" + good + "\na.m3u8\n" + iframes + "\n", clean, nil),
        (.authoringHTTPS, mv(good + "\na.m3u8", iframes), clean, URL(string: "http://cdn.example/master.m3u8")!),
        (.authoringFirstVariant, mv("#EXT-X-STREAM-INF:BANDWIDTH=64000,AVERAGE-BANDWIDTH=60000,CODECS=\"mp4a.40.2\"\naudio.m3u8", good + "\na.m3u8", iframes),
         ["a.m3u8": vod, "audio.m3u8": H.media(ext: "aac", header: "#EXT-X-PLAYLIST-TYPE:VOD\n"), "i.m3u8": iframePlaylist], nil),
        (.authoringVariantAttributes, mv("#EXT-X-STREAM-INF:BANDWIDTH=2000000,CODECS=\"avc1.4d401f,mp4a.40.2\"\na.m3u8", iframes), clean, nil),
        (.authoringVideoRange, mv(good + ",VIDEO-RANGE=PQ\na.m3u8", good + "\nb.m3u8", iframes), ["a.m3u8": vod, "b.m3u8": vod, "i.m3u8": iframePlaylist], nil),
        (.authoringScoreOrder, mv(good + ",SCORE=2\na.m3u8", "#EXT-X-STREAM-INF:BANDWIDTH=4000000,AVERAGE-BANDWIDTH=3600000,CODECS=\"avc1.4d401f,mp4a.40.2\",RESOLUTION=1920x1080,FRAME-RATE=25,SCORE=1\nb.m3u8", iframes),
         ["a.m3u8": vod, "b.m3u8": vod, "i.m3u8": iframePlaylist], nil),
        (.authoringRenditionLanguage, mv("#EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID=\"s\",NAME=\"subs\",URI=\"s.m3u8\"", good + ",SUBTITLES=\"s\"\na.m3u8", iframes),
         ["a.m3u8": vod, "s.m3u8": H.media(ext: "vtt", header: "#EXT-X-PLAYLIST-TYPE:VOD\n"), "i.m3u8": iframePlaylist], nil),
        (.authoringSteeringPathway, mv("#EXT-X-CONTENT-STEERING:SERVER-URI=\"s.json\"", good + ",STABLE-VARIANT-ID=\"a\"\na.m3u8", iframes), clean, nil),
        (.authoringPartHoldBack, mv(good + "\na.m3u8", iframes),
         ["a.m3u8": H.media(header: "#EXT-X-PROGRAM-DATE-TIME:2026-01-01T00:00:00Z\n#EXT-X-PART-INF:PART-TARGET=1\n#EXT-X-SERVER-CONTROL:PART-HOLD-BACK=2.5\n", live: true),
          "i.m3u8": H.media(header: "#EXT-X-I-FRAMES-ONLY\n#EXT-X-PROGRAM-DATE-TIME:2026-01-01T00:00:00Z\n#EXT-X-SERVER-CONTROL:PART-HOLD-BACK=2.5\n", live: true)], nil),
        (.authoringVersion, "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-INDEPENDENT-SEGMENTS\n" + good + "\na.m3u8\n" + iframes + "\n", clean, nil),
        (.authoringLiveDateTime, mv(good + "\na.m3u8", iframes), ["a.m3u8": H.media(live: true), "i.m3u8": H.media(header: "#EXT-X-I-FRAMES-ONLY\n", live: true)], nil),
        (.authoringPlaylistType, mv(good + "\na.m3u8", iframes), ["a.m3u8": H.media(), "i.m3u8": iframePlaylist], nil),
        (.authoringIFramePlaylists, mv(good + "\na.m3u8"), ["a.m3u8": vod], nil),
    ]

    static func load(_ multivariant: String, _ children: [String: String], root: URL? = nil) async throws -> PresentationGraph {
        try await GraphHarness(multivariant, children, root: root ?? GraphHarness.root).load { $0.authoring = true }
    }

    @Test("each case reports its ID with the catalogued severity and section", arguments: cases.map(\.0))
    func reports(id: DiagnosticID) async throws {
        let (_, multivariant, children, root) = try #require(Self.cases.first { $0.0 == id })
        let entry = try #require(AuthoringDiagnosticCatalog.entries.first { $0.id == id })
        let graph = try await Self.load(multivariant, children, root: root)
        let found = try #require(graph.diagnostics.first { $0.id == id }, "\(graph.diagnostics.map(\.id))")
        #expect(found.severity == entry.severity && found.section == entry.section && found.message.hasSuffix("."))
    }

    @Test("every catalogued ID has a case and is documented; a presentation by the book has no authoring finding; off by default")
    func coverage() async throws {
        #expect(Set(Self.cases.map(\.0)) == Set(AuthoringDiagnosticCatalog.entries.map(\.id)))
        let docs = try RepositoryFiles.text("docs/DIAGNOSTICS.md")
        for entry in AuthoringDiagnosticCatalog.entries { #expect(docs.contains("`\(entry.id)`"), "\(entry.id)") }
        let graph = try await Self.load(Self.mv(Self.good + "\na.m3u8", Self.iframes), Self.clean)
        #expect(graph.diagnostics.filter { $0.id.rawValue.hasPrefix("authoring-") }.isEmpty, "\(graph.diagnostics)")
        let off = try await GraphHarness(Self.mv(Self.good + "\na.m3u8"), ["a.m3u8": Self.vod]).load()
        #expect(!off.diagnostics.contains { $0.id.rawValue.hasPrefix("authoring-") })
    }
}
