import Foundation
import Testing
import TesseraPlaylist
import TesseraTestSupport

/// One playlist per diagnostic ID that shows exactly that problem.
@Suite("Diagnostics: one case per ID")
struct DiagnosticCatalogTests {
    static let m = "#EXTM3U\n#EXT-X-VERSION:13\n#EXT-X-TARGETDURATION:4\n"
    static let mv = "#EXTM3U\n#EXT-X-VERSION:13\n"
    static let pdt = "#EXT-X-PROGRAM-DATE-TIME:2026-01-01T00:00:00Z\n"
    static let ll = "#EXT-X-PART-INF:PART-TARGET=1\n#EXT-X-SERVER-CONTROL:PART-HOLD-BACK=3\n"

    static let cases: [(DiagnosticID, String)] = [
        (.byteOrderMark, "\u{FEFF}" + m),
        (.malformedAttributeList, m + "#EXT-X-START:TIME-OFFSET=1,\n"),
        (.attributeNameCharacters, m + "#EXT-X-START:TIME-OFFSET=1,precise=YES\n"),
        (.malformedAttribute, m + "#EXT-X-START:TIME-OFFSET=one\n"),
        (.missingAttribute, m + "#EXT-X-START:PRECISE=YES\n"),
        (.unknownEnumeratedValue, m + "#EXT-X-KEY:METHOD=ROT13,URI=\"k\"\n"),
        (.malformedTagValue, m + "#EXTINF:soon,\na.ts\n"),
        (.repeatedTag, m + "#EXT-X-ENDLIST\n#EXT-X-ENDLIST\n"),
        (.variableVersion, "#EXTM3U\n#EXT-X-VERSION:7\n#EXT-X-DEFINE:NAME=\"a\",VALUE=\"b\"\n"),
        (.importInMultivariant, mv + "#EXT-X-DEFINE:IMPORT=\"a\"\n"),
        (.versionTooLow, "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:4\n#EXTINF:4,\n#EXT-X-BYTERANGE:10@0\na.ts\n"),
        (.missingTargetDuration, "#EXTM3U\n#EXTINF:4,\na.ts\n"),
        (.targetDurationTooSmall, "#EXTM3U\n#EXT-X-TARGETDURATION:0\n"),
        (.segmentExceedsTargetDuration, m + "#EXTINF:4.5,\na.ts\n"),
        (.sequenceTagAfterSegments, m + "#EXTINF:4,\na.ts\n#EXT-X-MEDIA-SEQUENCE:3\n"),
        (.segmentWithoutDuration, m + "a.ts\n"),
        (.danglingSegmentTags, m + "#EXTINF:4,\n"),
        (.byteRangeWithoutPrevious, m + "#EXTINF:4,\n#EXT-X-BYTERANGE:10\na.ts\n"),
        (.keyNoneWithAttributes, m + "#EXT-X-KEY:METHOD=NONE,URI=\"k\"\n"),
        (.keyIVNotAllowed, m + "#EXT-X-KEY:METHOD=AES-256-GCM,URI=\"k\",IV=0x00000000000000000000000000000001\n#EXTINF:4,\na.ts\n"),
        (.encryptedMapWithoutIV, m + "#EXT-X-KEY:METHOD=AES-128,URI=\"k\"\n#EXT-X-MAP:URI=\"i.mp4\"\n#EXTINF:4,\na.m4s\n"),
        (.dateTimeOverlap, m + pdt + "#EXTINF:4,\na.ts\n#EXT-X-PROGRAM-DATE-TIME:2026-01-01T00:00:02Z\n#EXTINF:4,\nb.ts\n"),
        (.dateTimeWithoutZone, m + "#EXT-X-PROGRAM-DATE-TIME:2026-01-01T00:00:00\n#EXTINF:4,\na.ts\n"),
        (.discontinuityWithoutDateTime, m + pdt + "#EXTINF:4,\na.ts\n#EXT-X-DISCONTINUITY\n#EXTINF:4,\nb.ts\n"),
        (.startOffsetBeyondDuration, m + "#EXT-X-START:TIME-OFFSET=100\n#EXTINF:4,\na.ts\n"),
        (.partWithoutPartInformation, m + "#EXT-X-PART:DURATION=1,URI=\"p\"\n"),
        (.partExceedsPartTarget, m + ll + "#EXT-X-PART:DURATION=1.5,URI=\"p\"\n"),
        (.partTooShort, m + ll + "#EXT-X-PART:DURATION=0.5,URI=\"p0\"\n#EXT-X-PART:DURATION=1,URI=\"p1\"\n"),
        (.partHoldBackMissing, m + "#EXT-X-PART-INF:PART-TARGET=1\n"),
        (.partHoldBackTooSmall, m + "#EXT-X-PART-INF:PART-TARGET=1\n#EXT-X-SERVER-CONTROL:PART-HOLD-BACK=1.5\n"),
        (.holdBackTooSmall, m + "#EXT-X-SERVER-CONTROL:HOLD-BACK=6\n"),
        (.skipBoundaryTooSmall, m + "#EXT-X-SERVER-CONTROL:CAN-SKIP-UNTIL=12\n"),
        (.skipDateRangesWithoutSkip, m + "#EXT-X-SERVER-CONTROL:CAN-SKIP-DATERANGES=YES\n"),
        (.preloadHintWithEndList, m + "#EXT-X-PRELOAD-HINT:TYPE=PART,URI=\"p\"\n#EXT-X-ENDLIST\n"),
        (.preloadHintDuplicateType, m + "#EXT-X-PRELOAD-HINT:TYPE=PART,URI=\"p\"\n#EXT-X-PRELOAD-HINT:TYPE=PART,URI=\"q\"\n"),
        (.renditionReportAbsoluteURI, m + "#EXT-X-RENDITION-REPORT:URI=\"https://x/a.m3u8\",LAST-MSN=1\n"),
        (.dateRangeWithoutDateTime, m + "#EXT-X-DATERANGE:ID=\"a\",START-DATE=\"2026-01-01T00:00:00Z\"\n"),
        (.dateRangeMissingStart, m + pdt + "#EXT-X-DATERANGE:ID=\"a\",DURATION=1\n"),
        (.dateRangeEndsBeforeStart, m + pdt + "#EXT-X-DATERANGE:ID=\"a\",START-DATE=\"2026-01-01T00:00:10Z\",END-DATE=\"2026-01-01T00:00:00Z\"\n"),
        (.dateRangeDurationMismatch, m + pdt + "#EXT-X-DATERANGE:ID=\"a\",START-DATE=\"2026-01-01T00:00:00Z\",END-DATE=\"2026-01-01T00:00:10Z\",DURATION=5\n"),
        (.dateRangeEndOnNextMisuse, m + pdt + "#EXT-X-DATERANGE:ID=\"a\",START-DATE=\"2026-01-01T00:00:00Z\",END-ON-NEXT=YES\n"),
        (.dateRangeCuePreAndPost, m + pdt + "#EXT-X-DATERANGE:ID=\"a\",START-DATE=\"2026-01-01T00:00:00Z\",CUE=\"PRE,POST\"\n"),
        (.dateRangeConflict, m + pdt + "#EXT-X-DATERANGE:ID=\"a\",START-DATE=\"2026-01-01T00:00:00Z\",DURATION=5\n#EXT-X-DATERANGE:ID=\"a\",DURATION=6\n"),
        (.variantWithoutURI, mv + "#EXT-X-STREAM-INF:BANDWIDTH=1,CODECS=\"x\"\n"),
        (.uriWithoutStreamInf, mv + "#EXT-X-SESSION-DATA:DATA-ID=\"a\",VALUE=\"b\"\nlost.m3u8\n"),
        (.renditionDuplicateName, mv + "#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\"a\",NAME=\"en\"\n#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\"a\",NAME=\"en\"\n"),
        (.renditionMultipleDefaults, mv + "#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\"a\",NAME=\"x\",DEFAULT=YES\n#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\"a\",NAME=\"y\",DEFAULT=YES\n"),
        (.renditionAttributeForType, mv + "#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\"a\",NAME=\"x\",FORCED=YES\n"),
        (.variantUnknownGroup, mv + "#EXT-X-STREAM-INF:BANDWIDTH=1,CODECS=\"x\",AUDIO=\"nope\"\nv.m3u8\n"),
        (.closedCaptionsNoneInconsistent, mv + "#EXT-X-STREAM-INF:BANDWIDTH=1,CODECS=\"x\",CLOSED-CAPTIONS=NONE\na.m3u8\n#EXT-X-STREAM-INF:BANDWIDTH=2,CODECS=\"x\"\nb.m3u8\n"),
        (.variantWithoutCodecs, mv + "#EXT-X-STREAM-INF:BANDWIDTH=1\na.m3u8\n"),
        (.scoreOnSomeVariants, mv + "#EXT-X-STREAM-INF:BANDWIDTH=1,CODECS=\"x\",SCORE=2\na.m3u8\n#EXT-X-STREAM-INF:BANDWIDTH=2,CODECS=\"x\"\nb.m3u8\n"),
        (.stableIdentifierCharacters, mv + "#EXT-X-STREAM-INF:BANDWIDTH=1,CODECS=\"x\",STABLE-VARIANT-ID=\"a b\"\na.m3u8\n"),
        (.sessionDataValueOrURI, mv + "#EXT-X-SESSION-DATA:DATA-ID=\"a\",VALUE=\"b\",URI=\"c\"\n"),
        (.sessionDataDuplicate, mv + "#EXT-X-SESSION-DATA:DATA-ID=\"a\",VALUE=\"b\"\n#EXT-X-SESSION-DATA:DATA-ID=\"a\",VALUE=\"c\"\n"),
        (.sessionKeyMethodNone, mv + "#EXT-X-SESSION-KEY:METHOD=NONE\n"),
        (.sessionKeyDuplicate, mv + "#EXT-X-SESSION-KEY:METHOD=AES-128,URI=\"k\"\n#EXT-X-SESSION-KEY:METHOD=AES-128,URI=\"k\"\n"),
        (.autoselectIndistinct, mv + "#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\"a\",NAME=\"x\",LANGUAGE=\"en\",AUTOSELECT=YES\n#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\"a\",NAME=\"y\",LANGUAGE=\"en\",AUTOSELECT=YES\n"),
        (.autoselectWithDefault, mv + "#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\"a\",NAME=\"x\",DEFAULT=YES,AUTOSELECT=NO\n"),
        (.steeringPathwayUnknown, mv + "#EXT-X-CONTENT-STEERING:SERVER-URI=\"s.json\",PATHWAY-ID=\"B\"\n#EXT-X-STREAM-INF:BANDWIDTH=1,CODECS=\"x\",PATHWAY-ID=\"A\"\na.m3u8\n"),
        (.iFrameVariantAttribute, mv + "#EXT-X-I-FRAME-STREAM-INF:BANDWIDTH=1,CODECS=\"x\",URI=\"i.m3u8\",FRAME-RATE=30\n"),
        (.keyFormatVersionsSyntax, m + "#EXT-X-KEY:METHOD=SAMPLE-AES,URI=\"k\",KEYFORMATVERSIONS=\"1/x\"\n#EXTINF:4,\na.ts\n"),
        (.mapByteRangeWithoutOffset, m + "#EXT-X-MAP:URI=\"i.mp4\",BYTERANGE=\"100\"\n#EXTINF:4,\na.m4s\n"),
        (.channelsSyntax, mv + "#EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID=\"a\",NAME=\"x\",CHANNELS=\"6//BINAURAL\"\n"),
        (.instreamIdValue, mv + "#EXT-X-MEDIA:TYPE=CLOSED-CAPTIONS,GROUP-ID=\"c\",NAME=\"x\",INSTREAM-ID=\"CC5\"\n"),
        (.videoLayoutSyntax, mv + "#EXT-X-STREAM-INF:BANDWIDTH=1,CODECS=\"x\",REQ-VIDEO-LAYOUT=\"CH-STEREO,,PROJ-WEIRD\"\na.m3u8\n"),
        (.allowedCPCSyntax, mv + "#EXT-X-STREAM-INF:BANDWIDTH=1,CODECS=\"x\",ALLOWED-CPC=\"com.example:hw\"\na.m3u8\n"),
        (.scoreNotPositive, mv + "#EXT-X-STREAM-INF:BANDWIDTH=1,CODECS=\"x\",SCORE=0\na.m3u8\n"),
    ]

    @Test("the playlist for each ID reports it with the catalogued severity and section", arguments: cases.map(\.0))
    func reports(id: DiagnosticID) throws {
        let text = try #require(Self.cases.first { $0.0 == id }?.1)
        let entry = try #require(DiagnosticCatalog.entries.first { $0.id == id })
        let context = ParseContext(importableVariables: ["a": "x"])
        let diagnostics = try PlaylistParser().parse(Array(text.utf8), context: context).diagnostics
        let found = try #require(diagnostics.first { $0.id == id }, "\(diagnostics)")
        #expect(found.severity == entry.severity)
        #expect(found.section.hasPrefix(entry.section) || entry.section.hasPrefix(found.section), "\(found.section)")
        #expect(!found.message.isEmpty && found.message.hasSuffix("."))
    }

    @Test("every catalogued ID has a case, and every case a catalogue entry")
    func coverage() {
        #expect(Set(Self.cases.map(\.0)) == Set(DiagnosticCatalog.entries.map(\.id)))
        #expect(Self.cases.count == DiagnosticCatalog.entries.count)
    }

    @Test("docs/DIAGNOSTICS.md lists every catalogued ID")
    func documented() throws {
        let text = try RepositoryFiles.text("docs/DIAGNOSTICS.md")
        for entry in DiagnosticCatalog.entries { #expect(text.contains("`\(entry.id)`"), "\(entry.id)") }
    }

    @Test("secrets in URIs are redacted in messages")
    func redaction() throws {
        let text = Self.m + "#EXTINF:4,\n#EXT-X-BYTERANGE:10\nhttps://user:pw@cdn/a.ts?token=SECRET\n"
        let diagnostics = try PlaylistParser().parse(Array(text.utf8)).diagnostics
        #expect(!diagnostics.isEmpty && diagnostics.allSatisfy { !$0.message.contains("SECRET") && !$0.message.contains("pw@") })
    }

    @Test("escalate turns chosen IDs into errors and leaves the rest reported")
    func escalate() throws {
        let text = Self.mv + "#EXT-X-STREAM-INF:BANDWIDTH=1\na.m3u8\n"
        #expect(throws: PlaylistError.self) {
            try PlaylistParser(policy: .escalate([.variantWithoutCodecs])).parse(Array(text.utf8))
        }
        #expect(try PlaylistParser(policy: .strict).parse(Array(text.utf8)).diagnostics.map(\.id) == [.variantWithoutCodecs])
    }
}
