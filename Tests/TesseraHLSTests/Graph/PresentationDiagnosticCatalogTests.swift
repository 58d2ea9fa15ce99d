import Foundation
import Testing
import TesseraHLS
import TesseraPlaylist
import TesseraTestSupport

/// One presentation per cross-playlist diagnostic ID that shows exactly that problem.
@Suite("Presentation diagnostics: one case per ID")
struct PresentationDiagnosticCatalogTests {
    typealias H = GraphHarness
    static let pdt = "#EXT-X-PROGRAM-DATE-TIME:2026-01-01T00:00:00Z\n"
    static func variant(_ uri: String, _ attributes: String = "") -> String {
        "#EXT-X-STREAM-INF:BANDWIDTH=1000000,CODECS=\"avc1.4d401f,mp4a.40.2\"\(attributes)\n\(uri)"
    }
    static let two = H.multivariant(variant("a.m3u8"), variant("b.m3u8"))

    static let cases: [(DiagnosticID, String, [String: String])] = [
        (.playlistUnavailable, H.multivariant(variant("gone.m3u8")), [:]),
        (.notMediaPlaylist, H.multivariant(variant("nested.m3u8")), ["nested.m3u8": H.multivariant(variant("a.m3u8"))]),
        (.iFramePlaylistNotIFramesOnly, H.multivariant(variant("a.m3u8"), "#EXT-X-I-FRAME-STREAM-INF:BANDWIDTH=1,CODECS=\"avc1.4d401f\",URI=\"i.m3u8\""),
         ["a.m3u8": H.media(), "i.m3u8": H.media()]),
        (.variantPlaylistIFramesOnly, H.multivariant(variant("a.m3u8")), ["a.m3u8": H.media(header: "#EXT-X-I-FRAMES-ONLY\n")]),
        (.targetDurationMismatch, two, ["a.m3u8": H.media(target: 6, count: 2), "b.m3u8": H.media(target: 4, count: 3)]),
        (.partTargetMismatch, two, [
            "a.m3u8": H.media(target: 4, header: "#EXT-X-PART-INF:PART-TARGET=1\n#EXT-X-SERVER-CONTROL:PART-HOLD-BACK=4\n", live: true),
            "b.m3u8": H.media(target: 4, header: "#EXT-X-PART-INF:PART-TARGET=2\n#EXT-X-SERVER-CONTROL:PART-HOLD-BACK=4\n", live: true)]),
        (.playlistTypeMismatch, two, ["a.m3u8": H.media(header: "#EXT-X-PLAYLIST-TYPE:VOD\n"), "b.m3u8": H.media(header: "#EXT-X-PLAYLIST-TYPE:EVENT\n")]),
        (.endListMismatch, two, ["a.m3u8": H.media(), "b.m3u8": H.media(live: true)]),
        (.discontinuitySequenceMisaligned, two, ["a.m3u8": H.media(), "b.m3u8": H.media(count: 2) + "#EXT-X-DISCONTINUITY\n#EXTINF:6,\nx.ts\n"]),
        (.mediaSequenceMisaligned, two, ["a.m3u8": H.media(), "b.m3u8": H.media(header: "#EXT-X-MEDIA-SEQUENCE:5\n")]),
        (.durationMismatch, two, ["a.m3u8": H.media(count: 3), "b.m3u8": H.media(count: 5)]),
        (.dateTimeInconsistent, two, ["a.m3u8": H.media(header: pdt), "b.m3u8": H.media()]),
        (.dateTimeMisaligned, two, ["a.m3u8": H.media(header: pdt), "b.m3u8": H.media(header: "#EXT-X-PROGRAM-DATE-TIME:2026-01-01T00:00:10Z\n")]),
        (.dateRangeMismatch, two, [
            "a.m3u8": H.media(header: pdt + "#EXT-X-DATERANGE:ID=\"ad\",START-DATE=\"2026-01-01T00:00:01Z\",DURATION=5\n"),
            "b.m3u8": H.media(header: pdt + "#EXT-X-DATERANGE:ID=\"ad\",START-DATE=\"2026-01-01T00:00:01Z\",DURATION=6\n")]),
        (.dateRangeMissing, two, [
            "a.m3u8": H.media(header: pdt + "#EXT-X-DATERANGE:ID=\"ad\",START-DATE=\"2026-01-01T00:00:01Z\"\n#EXT-X-DATERANGE:ID=\"x\",START-DATE=\"2026-01-01T00:00:02Z\"\n"),
            "b.m3u8": H.media(header: pdt + "#EXT-X-DATERANGE:ID=\"ad\",START-DATE=\"2026-01-01T00:00:01Z\"\n")]),
        (.serverControlMismatch, two, ["a.m3u8": H.media(header: "#EXT-X-SERVER-CONTROL:CAN-BLOCK-RELOAD=YES\n", live: true),
                                       "b.m3u8": H.media(live: true)]),
        (.independentSegmentsInconsistent, two, ["a.m3u8": H.media(header: "#EXT-X-INDEPENDENT-SEGMENTS\n"), "b.m3u8": H.media()]),
        (.startMismatch, "#EXTM3U\n#EXT-X-VERSION:6\n#EXT-X-START:TIME-OFFSET=10\n" + variant("a.m3u8") + "\n",
         ["a.m3u8": H.media(header: "#EXT-X-START:TIME-OFFSET=5\n")]),
        (.versionInconsistent, two, ["a.m3u8": H.media(version: 3), "b.m3u8": H.media(version: 6)]),
        (.codecsMismatch, H.multivariant("#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\"a\",NAME=\"en\",URI=\"en.m3u8\"",
                                         "#EXT-X-STREAM-INF:BANDWIDTH=1,CODECS=\"avc1.4d401f\",AUDIO=\"a\"\nv.m3u8"),
         ["v.m3u8": H.media(), "en.m3u8": H.media(ext: "aac")]),
        (.segmentFormatMismatch, H.multivariant("#EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID=\"s\",NAME=\"en\",URI=\"subs.m3u8\"", variant("v.m3u8", ",SUBTITLES=\"s\"")),
         ["v.m3u8": H.media(), "subs.m3u8": H.media(ext: "ts")]),
        (.renditionGroupsDiffer, H.multivariant("#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\"lo\",NAME=\"en\"",
                                                "#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\"hi\",NAME=\"en\"",
                                                "#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\"hi\",NAME=\"fr\"",
                                                variant("a.m3u8", ",AUDIO=\"lo\""), variant("b.m3u8", ",AUDIO=\"hi\"")),
         ["a.m3u8": H.media(), "b.m3u8": H.media()]),
        (.stableVariantIdDuplicate, H.multivariant(variant("a.m3u8", ",STABLE-VARIANT-ID=\"v\""), variant("b.m3u8", ",STABLE-VARIANT-ID=\"v\"")),
         ["a.m3u8": H.media(), "b.m3u8": H.media()]),
        (.stableRenditionIdDuplicate, H.multivariant("#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\"a\",NAME=\"en\",STABLE-RENDITION-ID=\"r\"",
                                                     "#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\"a\",NAME=\"fr\",STABLE-RENDITION-ID=\"r\"",
                                                     variant("a.m3u8", ",AUDIO=\"a\"")), ["a.m3u8": H.media()]),
        (.pathwayNotEquivalent, H.multivariant(variant("a.m3u8", ",PATHWAY-ID=\"A\",STABLE-VARIANT-ID=\"hd\""),
                                               variant("b.m3u8", ",PATHWAY-ID=\"B\",STABLE-VARIANT-ID=\"sd\"")),
         ["a.m3u8": H.media(), "b.m3u8": H.media()]),
        (.encryptionInconsistent, two, ["a.m3u8": H.media(header: "#EXT-X-KEY:METHOD=AES-128,URI=\"k\"\n"), "b.m3u8": H.media()]),
        (.sessionKeyMismatch, H.multivariant("#EXT-X-SESSION-KEY:METHOD=AES-128,URI=\"k\"", variant("a.m3u8")),
         ["a.m3u8": H.media(header: "#EXT-X-KEY:METHOD=SAMPLE-AES,URI=\"k\"\n")]),
    ]

    @Test("the presentation for each ID reports it with the catalogued severity and section, naming a playlist", arguments: cases.map(\.0))
    func reports(id: DiagnosticID) async throws {
        let (_, multivariant, children) = try #require(Self.cases.first { $0.0 == id })
        let entry = try #require(PresentationDiagnosticCatalog.entries.first { $0.id == id })
        let graph = try await GraphHarness(multivariant, children).load()
        let found = try #require(graph.diagnostics.first { $0.id == id }, "\(graph.diagnostics)")
        #expect(found.severity == entry.severity && found.section == entry.section)
        #expect(!found.message.isEmpty && found.message.hasSuffix("."), "\(found.message)")
        #expect(found.source != nil || found.line != nil, "a finding names a playlist or a line of the multivariant playlist")
    }

    @Test("every catalogued ID has a case, and none is also a single-playlist ID")
    func coverage() {
        let ids = PresentationDiagnosticCatalog.entries.map(\.id)
        #expect(Set(Self.cases.map(\.0)) == Set(ids) && Self.cases.count == ids.count)
        #expect(Set(ids).isDisjoint(with: DiagnosticCatalog.entries.map(\.id)))
    }

    @Test("a clean presentation has no cross-playlist diagnostic")
    func clean() async throws {
        let graph = try await GraphHarness(Self.two, ["a.m3u8": GraphHarness.media(), "b.m3u8": GraphHarness.media()]).load()
        #expect(graph.diagnostics.isEmpty, "\(graph.diagnostics)")
    }

    @Test("docs/DIAGNOSTICS.md lists every cross-playlist ID")
    func documented() throws {
        let text = try RepositoryFiles.text("docs/DIAGNOSTICS.md")
        for entry in PresentationDiagnosticCatalog.entries { #expect(text.contains("`\(entry.id)`"), "\(entry.id)") }
    }
}
