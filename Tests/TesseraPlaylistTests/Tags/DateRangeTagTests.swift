import Testing
import TesseraPlaylist

@Suite("EXT-X-DATERANGE")
struct DateRangeTagTests {
    @Test("every attribute, SCTE-35 bytes and typed X- client attributes are read (§4.4.5.1, App. D)")
    func attributes() throws {
        let playlist = try Parse.media("""
        #EXTM3U
        #EXT-X-TARGETDURATION:2
        #EXT-X-PROGRAM-DATE-TIME:2026-01-01T00:00:00Z
        #EXT-X-DATERANGE:ID="ad1",CLASS="com.apple.hls.interstitial",START-DATE="2026-01-01T00:00:10Z",END-DATE="2026-01-01T00:00:40Z",DURATION=30,PLANNED-DURATION=30.5,CUE="PRE,ONCE",X-ASSET-URI="https://ads/a.m3u8",X-RESUME-OFFSET=-1.5,X-COM-EXAMPLE-ID=0xAB12,SCTE35-OUT=0xFC30,END-ON-NEXT=YES
        #EXTINF:2,
        a.ts
        """)
        let range = try #require(playlist.dateRanges.first)
        #expect(range.id == "ad1" && range.dateRangeClass == "com.apple.hls.interstitial")
        #expect(range.startDate?.secondsSince1970 == 1_767_225_610 && range.endDate?.secondsSince1970 == 1_767_225_640)
        #expect(range.duration == 30 && range.plannedDuration == 30.5 && range.cue == ["PRE", "ONCE"] && range.endsOnNext)
        #expect(range.clientAttribute("X-ASSET-URI") == .string("https://ads/a.m3u8"))
        #expect(range.clientAttribute("X-RESUME-OFFSET") == .number(-1.5, text: "-1.5"))
        #expect(range.clientAttribute("X-COM-EXAMPLE-ID") == .hexadecimal([0xAB, 0x12]))
        #expect(range.scte35Out == [0xFC, 0x30])
        #expect(range.line.number == 4)
    }

    @Test("a date range without ID is ignored with missing-attribute")
    func missingID() throws {
        let text = "#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXT-X-DATERANGE:START-DATE=\"2026-01-01T00:00:00Z\"\n"
        #expect(try Parse.media(text).dateRanges.isEmpty)
        #expect(try Parse.ids(text) == [.missingAttribute])
    }
}
