import Testing
import TesseraPlaylist

@Suite("Media segment and media playlist tags")
struct MediaSegmentTagTests {
    @Test("EXT-X-PROGRAM-DATE-TIME is kept as written and read as an instant, zones included (§4.4.4.6)")
    func programDateTime() throws {
        let playlist = try Parse.media("""
        #EXTM3U
        #EXT-X-TARGETDURATION:2
        #EXT-X-PROGRAM-DATE-TIME:2026-01-01T00:00:00.500Z
        #EXTINF:2,
        a.ts
        #EXTINF:2,
        #EXT-X-PROGRAM-DATE-TIME:2026-01-01T02:00:02+02:00
        b.ts
        #EXTINF:2,
        #EXT-X-PROGRAM-DATE-TIME:2026-01-01T00:00:04.000+0000
        c.ts
        """)
        let times = playlist.segments.map { $0.programDateTime?.secondsSince1970 }
        #expect(times == [1_767_225_600.5, 1_767_225_602, 1_767_225_604])
        #expect(playlist.segments[1].programDateTime?.text == "2026-01-01T02:00:02+02:00")
    }

    @Test("a date made from an instant is written in UTC to the millisecond and reads back as that instant")
    func programDateTimeFromInstant() {
        let date = ProgramDateTime(secondsSince1970: 1_767_225_602.1234)
        #expect(date.text == "2026-01-01T00:00:02.123Z" && date.secondsSince1970 == 1_767_225_602.123)
        #expect(ProgramDateTime(secondsSince1970: 951_868_799.9996).text == "2000-03-01T00:00:00.000Z", "rounded, past a leap day")
        #expect(ProgramDateTime(secondsSince1970: 951_868_799.5).text == "2000-02-29T23:59:59.500Z")
        #expect(ProgramDateTime(secondsSince1970: -1.5).text == "1969-12-31T23:59:58.500Z")
        #expect(ProgramDateTime(secondsSince1970: 0).text == "1970-01-01T00:00:00.000Z")
        #expect(ProgramDateTime(secondsSince1970: .infinity).secondsSince1970 == nil)
        #expect(ProgramDateTime(secondsSince1970: 1e15).secondsSince1970 == nil, "past year 9999")
    }

    @Test("an unreadable date is reported and kept as text")
    func badDate() throws {
        let text = "#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXT-X-PROGRAM-DATE-TIME:yesterday\n#EXTINF:2,\na.ts\n"
        #expect(try Parse.ids(text).contains(.malformedTagValue))
        #expect(try Parse.media(text).segments[0].programDateTime?.text == "yesterday")
    }

    @Test("EXT-X-GAP, EXT-X-DISCONTINUITY and the discontinuity sequence apply per segment (§4.4.4.3, §4.4.4.7)")
    func gapAndDiscontinuity() throws {
        let playlist = try Parse.media("""
        #EXTM3U
        #EXT-X-TARGETDURATION:2
        #EXT-X-DISCONTINUITY-SEQUENCE:7
        #EXTINF:2,
        a.ts
        #EXT-X-GAP
        #EXT-X-DISCONTINUITY
        #EXTINF:2,
        b.ts
        #EXTINF:2,
        c.ts
        """)
        #expect(playlist.segments.map(\.isGap) == [false, true, false])
        #expect(playlist.segments.map(\.discontinuitySequence) == [7, 8, 8])
        #expect(playlist.discontinuitySequence == 7)
    }

    @Test("EXT-X-BITRATE applies to following segments without a byte range (§4.4.4.8)")
    func bitrate() throws {
        let playlist = try Parse.media("""
        #EXTM3U
        #EXT-X-TARGETDURATION:2
        #EXTINF:2,
        a.ts
        #EXT-X-BITRATE:800
        #EXTINF:2,
        b.ts
        #EXTINF:2,
        #EXT-X-BYTERANGE:100@0
        c.ts
        """)
        #expect(playlist.segments.map(\.bitrate) == [nil, 800, nil])
    }

    @Test("EXT-X-KEY keeps KEYFORMATVERSIONS and unknown attributes; EXT-X-MAP records the keys in force")
    func keyAndMap() throws {
        let playlist = try Parse.media("""
        #EXTM3U
        #EXT-X-TARGETDURATION:2
        #EXT-X-KEY:METHOD=SAMPLE-AES,URI="skd://k",KEYFORMAT="com.apple.streamingkeydelivery",KEYFORMATVERSIONS="1/2",X-VENDOR=abc
        #EXT-X-MAP:URI="init.mp4"
        #EXTINF:2,
        a.m4s
        """)
        let key = try #require(playlist.segments[0].keys.first)
        #expect(key.method == .sampleAES && key.keyFormatVersions == "1/2" && !key.isIdentity)
        #expect(key.unknownAttributes == [UnknownAttribute(name: "X-VENDOR", rawValue: "abc")])
        #expect(playlist.segments[0].map?.keys == [key])
    }

    @Test("a key with an unknown METHOD is ignored, as §6.3.1 says for unknown enumerated values")
    func unknownMethod() throws {
        let text = "#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXT-X-KEY:METHOD=ROT13,URI=\"k\"\n#EXTINF:2,\na.ts\n"
        #expect(try Parse.media(text).segments[0].keys.isEmpty)
        #expect(try Parse.ids(text) == [.unknownEnumeratedValue])
    }

    @Test("EXT-X-I-FRAMES-ONLY, EXT-X-INDEPENDENT-SEGMENTS and EXT-X-START are read (§4.4.2, §4.4.3.6)")
    func playlistLevel() throws {
        let playlist = try Parse.media("""
        #EXTM3U
        #EXT-X-TARGETDURATION:2
        #EXT-X-I-FRAMES-ONLY
        #EXT-X-INDEPENDENT-SEGMENTS
        #EXT-X-START:TIME-OFFSET=-12.5,PRECISE=YES
        #EXT-X-PLAYLIST-TYPE:EVENT
        """)
        #expect(playlist.isIFramesOnly && playlist.hasIndependentSegments && playlist.playlistType == .event)
        #expect(playlist.start?.timeOffset == -12.5 && playlist.start?.isPrecise == true)
    }

    @Test("unknown tags are kept verbatim, in order, with the segment they precede")
    func unknownTags() throws {
        let playlist = try Parse.media("""
        #EXTM3U
        #EXT-X-TARGETDURATION:2
        #EXT-X-VENDOR-HEADER:1
        #EXTINF:2,
        a.ts
        #EXT-X-CUE-OUT:30
        #EXT-X-CUE-OUT-CONT:1/30
        #EXTINF:2,
        b.ts
        """)
        #expect(playlist.unknownTags.map(\.text) == ["#EXT-X-VENDOR-HEADER:1"])
        #expect(playlist.segments[1].unknownTags.map(\.text) == ["#EXT-X-CUE-OUT:30", "#EXT-X-CUE-OUT-CONT:1/30"])
        #expect(playlist.segments[1].unknownTags[0].line.number == 6)
    }

    @Test("tags that may appear once are reported when repeated (§4.4.1.2, §4.4.3)")
    func repeated() throws {
        #expect(try Parse.ids("#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-VERSION:4\n#EXT-X-TARGETDURATION:1\n") == [.repeatedTag])
        #expect(try Parse.ids("#EXTM3U\n#EXT-X-TARGETDURATION:1\n#EXT-X-TARGETDURATION:2\n") == [.repeatedTag])
    }

    @Test("a playlist with both multivariant and media tags cannot be parsed (§4.4.4, §4.4.6)")
    func mixed() {
        #expect(Parse.error("#EXTM3U\n#EXT-X-TARGETDURATION:1\n#EXT-X-STREAM-INF:BANDWIDTH=1\nx.m3u8\n")?.code == .mixedPlaylist)
    }

    @Test("a byte order mark is reported; C1 control characters are refused (§4.1)")
    func text() throws {
        #expect(try Parse.ids("\u{FEFF}#EXTM3U\n#EXT-X-TARGETDURATION:1\n") == [.byteOrderMark])
        #expect(Parse.error("#EXTM3U\n#EXT-X-TARGETDURATION:1\n#EXTINF:1,\u{85}\na.ts\n")?.code == .invalidText)
    }
}
