import Foundation
import Testing
import TesseraHLS
import TesseraHTTP
import TesseraHTTPTesting
import TesseraPlaylist

@Suite("External resources: session data, chapters, interstitials and asset lists (mock transport)")
struct ExternalResourcesTests {
    static let base = URL(string: "https://cdn.example/vod/master.m3u8")!

    static func multivariant(_ lines: String...) throws -> MultivariantPlaylist {
        let text = "#EXTM3U\n#EXT-X-VERSION:6\n" + lines.joined(separator: "\n") + "\n#EXT-X-STREAM-INF:BANDWIDTH=1\nv.m3u8\n"
        guard case .multivariant(let playlist) = try PlaylistParser().parse(Array(text.utf8)).playlist else { preconditionFailure() }
        return playlist
    }

    static func resources(_ mock: MockTransport) -> ExternalResources {
        ExternalResources(client: HLSClient(transport: mock, clock: ImmediateClock()))
    }

    static let chapters = """
    [{"chapter": 1, "start-time": 0, "duration": 60, "titles": [{"language": "en", "title": "Opening"}, {"language": "fr-CA", "title": "Ouverture"}],
      "images": [{"image-category": "chapter", "pixel-width": 640, "pixel-height": 360, "url": "img/1.jpg"}]},
     {"start-time": 60, "titles": [{"language": "und", "title": "Two"}]}]
    """

    @Test("inline VALUE, a JSON URI and a RAW URI; a 404, non-JSON, an oversized body and credentials are typed failures")
    func sessionData() async throws {
        let playlist = try Self.multivariant(
            "#EXT-X-SESSION-DATA:DATA-ID=\"com.example.title\",VALUE=\"Movie\",LANGUAGE=\"en\"",
            "#EXT-X-SESSION-DATA:DATA-ID=\"com.example.json\",URI=\"data.json\"",
            "#EXT-X-SESSION-DATA:DATA-ID=\"com.example.raw\",URI=\"blob.bin\",FORMAT=RAW",
            "#EXT-X-SESSION-DATA:DATA-ID=\"com.example.gone\",URI=\"gone.json\"",
            "#EXT-X-SESSION-DATA:DATA-ID=\"com.example.html\",URI=\"page.json\"",
            "#EXT-X-SESSION-DATA:DATA-ID=\"com.example.big\",URI=\"big.json\"",
            "#EXT-X-SESSION-DATA:DATA-ID=\"com.example.creds\",URI=\"https://user:pw@cdn.example/x.json\"")
        let mock = MockTransport(unstubbed: .status(404))
        mock.stub(URL(string: "https://cdn.example/vod/data.json")!, .ok(Array("{\"a\": [1, true, null]}".utf8)))
        mock.stub(URL(string: "https://cdn.example/vod/blob.bin")!, .ok([0, 1, 2]))
        mock.stub(URL(string: "https://cdn.example/vod/page.json")!, .ok(Array("<html>".utf8)))
        mock.stub(URL(string: "https://cdn.example/vod/big.json")!, .ok(Array(repeating: 0x20, count: 2_000)))
        var resources = Self.resources(mock)
        resources.maximumBytes = 1_000
        let entries = await resources.sessionData(of: playlist, url: Self.base)
        #expect(try entries[0].content.get().content == .value("Movie"))
        #expect(try entries[1].content.get().content == .json(Array("{\"a\": [1, true, null]}".utf8)))
        #expect(try entries[2].content.get().content == .raw([0, 1, 2]))
        let codes = entries.dropFirst(3).map { entry -> String in
            if case .failure(let error) = entry.content { return error.code.rawValue }
            return "loaded"
        }
        #expect(codes == ["http-status", "invalid-external-resource", "budget-exceeded", "unsupported"])
        #expect(mock.requests.allSatisfy { $0.purpose == .sessionData && $0.url.user == nil })
    }

    @Test("chapters: the entry and titles in the preferred language, images resolved from the answering URL")
    func chapters() async throws {
        let playlist = try Self.multivariant(
            "#EXT-X-SESSION-DATA:DATA-ID=\"com.apple.hls.chapters\",URI=\"chapters-en.json\",LANGUAGE=\"en\"",
            "#EXT-X-SESSION-DATA:DATA-ID=\"com.apple.hls.chapters\",URI=\"chapters-fr.json\",LANGUAGE=\"fr\"")
        let mock = MockTransport()
        mock.stub(URL(string: "https://cdn.example/vod/chapters-fr.json")!,
                  .response(status: 302, headers: ["Location": "https://meta.example/c/fr.json"], chunks: []))
        mock.stub(URL(string: "https://meta.example/c/fr.json")!, .ok(Array(Self.chapters.utf8)))
        let chapters = try #require(try await Self.resources(mock).chapters(of: playlist, url: Self.base, languages: ["fr-FR"]))
        #expect(chapters.count == 2 && chapters[0].number == 1 && chapters[0].start == 0 && chapters[0].duration == 60)
        #expect(chapters[0].title == "Ouverture" && chapters[0].titleLanguage == "fr-CA", "fr-FR finds fr-CA by the primary subtag")
        #expect(chapters[1].title == "Two", "und when nothing answers")
        #expect(chapters[0].images.first?.url == URL(string: "https://meta.example/c/img/1.jpg"))
        #expect(throws: HLSError.self) { try Chapter.parse(Array("[{\"chapter\": 1}]".utf8), from: Self.base) }
        #expect(throws: HLSError.self) { try Chapter.parse(Array(Self.chapters.utf8), from: Self.base, maximumChapters: 1) }
        #expect(try await Self.resources(MockTransport()).chapters(of: try Self.multivariant(), url: Self.base) == nil)
    }

    @Test("localized rendition names: the NAME's translation by primary subtag, else the NAME; malformed is typed")
    func localizedNames() async throws {
        let playlist = try Self.multivariant(
            "#EXT-X-SESSION-DATA:DATA-ID=\"_hls.localized-rendition-names\",URI=\"names.json\"",
            "#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\"a\",NAME=\"English\",LANGUAGE=\"en\",URI=\"en.m3u8\"",
            "#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\"a\",NAME=\"Commentary\",LANGUAGE=\"en\",URI=\"c.m3u8\"")
        let mock = MockTransport()
        mock.stub(URL(string: "https://cdn.example/vod/names.json")!, .ok(Array("{\"English\": {\"fr\": \"Anglais\", \"DE\": \"Englisch\"}}".utf8)))
        let names = try #require(try await Self.resources(mock).localizedRenditionNames(of: playlist, url: Self.base))
        #expect(names.name(of: playlist.renditions[0], for: ["fr-CA"]) == "Anglais")
        #expect(names.name(of: playlist.renditions[0], for: ["ja", "de-AT"]) == "Englisch")
        #expect(names.name(of: playlist.renditions[0], for: ["ja"]) == "English")
        #expect(names.name(of: playlist.renditions[1], for: ["fr"]) == "Commentary")
        #expect(throws: HLSError.self) { try LocalizedRenditionNames.parse(Array("{\"English\": \"Anglais\"}".utf8)) }
        #expect(try await Self.resources(MockTransport()).localizedRenditionNames(of: try Self.multivariant(), url: Self.base) == nil)
    }

    static func dateRange(_ attributes: String) throws -> DateRange {
        let text = "#EXTM3U\n#EXT-X-VERSION:6\n#EXT-X-TARGETDURATION:6\n#EXT-X-PROGRAM-DATE-TIME:2026-01-01T00:00:00Z\n"
            + "#EXT-X-DATERANGE:ID=\"ad1\",CLASS=\"com.apple.hls.interstitial\",START-DATE=\"2026-01-01T00:00:05Z\",\(attributes)\n#EXTINF:6,\na.ts\n"
        guard case .media(let media) = try PlaylistParser().parse(Array(text.utf8)).playlist else { preconditionFailure() }
        return try #require(media.dateRanges.first)
    }

    @Test("interstitial attributes are typed; wrong types, unknown values and a missing asset are problems")
    func interstitials() throws {
        let full = try #require(Interstitial(try Self.dateRange(
            "CUE=\"ONCE\",X-ASSET-LIST=\"list.json?_HLS_interstitial_id=ad1\",X-RESUME-OFFSET=0,X-PLAYOUT-LIMIT=30,X-SNAP=\"OUT,IN,SIDEWAYS\",X-RESTRICT=\"SKIP\",X-CONTENT-MAY-VARY=\"NO\",X-TIMELINE-OCCUPIES=\"RANGE\",X-TIMELINE-STYLE=\"PRIMARY\",X-SKIP-CONTROL-OFFSET=5,X-SKIP-CONTROL-DURATION=10,X-SKIP-CONTROL-LABEL-ID=\"Skip-Ad\"")))
        #expect(full.asset == .list("list.json?_HLS_interstitial_id=ad1") && full.cue == ["ONCE"] && full.resumeOffset == 0 && full.playoutLimit == 30)
        #expect(full.snap == [.out, .in] && full.restrictions == [.skip] && !full.contentMayVary)
        #expect(full.timelineOccupies == .range && full.timelineStyle == .primary)
        #expect(full.skipControlOffset == 5 && full.skipControlDuration == 10 && full.skipControlLabelId == "Skip-Ad" && full.problems.isEmpty)
        let bad = try #require(Interstitial(try Self.dateRange("X-ASSET-URI=\"relative.m3u8\",X-RESUME-OFFSET=\"0\",X-SKIP-CONTROL-LABEL-ID=\"skip ad\",X-TIMELINE-STYLE=\"LOUD\"")))
        #expect(bad.problems.count == 3 && bad.timelineStyle == .highlight, "\(bad.problems)")
        #expect(Interstitial(try Self.dateRange("X-ASSET-URI=\"https://a/b.m3u8\",X-ASSET-LIST=\"l.json\""))?.asset == nil)
        var plain = try Self.dateRange("X-ASSET-URI=\"https://a/b.m3u8\"")
        plain.dateRangeClass = "com.example.other"
        #expect(Interstitial(plain) == nil)
    }

    @Test("an asset list is fetched relative to its media playlist and parsed; malformed lists are typed errors")
    func assetLists() async throws {
        let interstitial = try #require(Interstitial(try Self.dateRange("X-ASSET-LIST=\"ads/list.json\"")))
        let mock = MockTransport()
        mock.stub(URL(string: "https://cdn.example/vod/ads/list.json")!, .ok(Array("""
        {"ASSETS": [{"URI": "https://ads.example/a/index.m3u8", "DURATION": 14.5}, {"URI": "https://ads.example/b/index.m3u8", "DURATION": 15}],
         "SKIP-CONTROL": {"OFFSET": 4, "DURATION": 12, "LABEL-ID": "Skip-Ad"}}
        """.utf8)))
        let list = try await Self.resources(mock).assetList(of: interstitial, playlistURL: URL(string: "https://cdn.example/vod/media.m3u8")!)
        #expect(list.assets.count == 2 && list.duration == 29.5 && list.skipControlOffset == 4 && list.skipControlLabelId == "Skip-Ad")
        for text in ["{\"ASSETS\": [{\"URI\": \"relative.m3u8\", \"DURATION\": 1}]}", "{\"ASSETS\": [{\"DURATION\": 1}]}", "[]", "{\"ASSETS\": [{\"URI\": \"https://a/b\", \"DURATION\": -1}]}"] {
            #expect(throws: HLSError.self) { try AssetList.parse(Array(text.utf8)) }
        }
        let direct = try #require(Interstitial(try Self.dateRange("X-ASSET-URI=\"https://ads.example/a.m3u8\"")))
        await #expect(throws: HLSError.self) { try await Self.resources(mock).assetList(of: direct, playlistURL: Self.base) }
    }
}
