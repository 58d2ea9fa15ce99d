import Testing
import TesseraPlaylist

@Suite("Low-Latency HLS tags")
struct LowLatencyTagTests {
    static let live = """
    #EXTM3U
    #EXT-X-VERSION:9
    #EXT-X-TARGETDURATION:4
    #EXT-X-SERVER-CONTROL:CAN-BLOCK-RELOAD=YES,CAN-SKIP-UNTIL=24,CAN-SKIP-DATERANGES=YES,HOLD-BACK=12,PART-HOLD-BACK=1.5
    #EXT-X-PART-INF:PART-TARGET=0.5
    #EXT-X-MEDIA-SEQUENCE:100
    #EXT-X-SKIP:SKIPPED-SEGMENTS=3,RECENTLY-REMOVED-DATERANGES="a\tb"
    #EXTINF:4,
    s103.mp4
    #EXT-X-PART:DURATION=0.5,URI="p104.0.mp4",INDEPENDENT=YES,BYTERANGE="1000@0"
    #EXT-X-PART:DURATION=0.5,URI="p104.0.mp4",BYTERANGE="500"
    #EXTINF:4,
    s104.mp4
    #EXT-X-PART:DURATION=0.5,URI="p105.0.mp4"
    #EXT-X-PART:DURATION=0.5,URI="p105.1.mp4",GAP=YES
    #EXT-X-PRELOAD-HINT:TYPE=PART,URI="p105.2.mp4",BYTERANGE-START=10,BYTERANGE-LENGTH=20
    #EXT-X-RENDITION-REPORT:URI="../alt/index.m3u8",LAST-MSN=105,LAST-PART=1
    """

    @Test("SERVER-CONTROL and PART-INF give the LL-HLS parameters (§4.4.3.7-8)")
    func control() throws {
        let playlist = try Parse.media(Self.live)
        let control = try #require(playlist.serverControl)
        #expect(control.canBlockReload && control.canSkipDateRanges)
        #expect(control.canSkipUntil == 24 && control.holdBack == 12 && control.partHoldBack == 1.5)
        #expect(playlist.partInformation?.partTarget == 0.5)
    }

    @Test("EXT-X-SKIP moves the first listed segment's sequence number on by SKIPPED-SEGMENTS (§4.4.5.2)")
    func skip() throws {
        let playlist = try Parse.media(Self.live)
        #expect(playlist.skip?.skippedSegments == 3)
        #expect(playlist.skip?.recentlyRemovedDateRanges == ["a", "b"])
        #expect(playlist.segments.map(\.mediaSequence) == [103, 104])
    }

    @Test("parts belong to the segment that follows them; a part byte range continues the previous part (§4.4.4.9)")
    func parts() throws {
        let playlist = try Parse.media(Self.live)
        let parts = playlist.segments[1].parts
        #expect(parts.count == 2 && parts[0].isIndependent && !parts[1].isIndependent)
        #expect(parts.map { $0.byteRange?.resolvedOffset } == [0, 1000])
        #expect(playlist.segments[0].parts.isEmpty)
    }

    @Test("parts after the last segment are the pending parts; GAP=YES is kept")
    func pendingParts() throws {
        let playlist = try Parse.media(Self.live)
        #expect(playlist.pendingParts.map(\.uri) == ["p105.0.mp4", "p105.1.mp4"])
        #expect(playlist.pendingParts.map(\.isGap) == [false, true])
    }

    @Test("PRELOAD-HINT and RENDITION-REPORT are read (§4.4.5.3-4)")
    func hintsAndReports() throws {
        let playlist = try Parse.media(Self.live)
        #expect(playlist.preloadHints.first?.type == .part)
        #expect(playlist.preloadHints.first?.byteRangeStart == 10 && playlist.preloadHints.first?.byteRangeLength == 20)
        let report = try #require(playlist.renditionReports.first)
        #expect(report.uri == "../alt/index.m3u8" && report.lastMediaSequence == 105 && report.lastPart == 1)
    }

    @Test("a part without DURATION is ignored with missing-attribute; YES-only flags refuse NO")
    func malformedParts() throws {
        let text = "#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXT-X-PART:URI=\"p\"\n#EXT-X-SERVER-CONTROL:CAN-BLOCK-RELOAD=NO\n"
        #expect(try Parse.ids(text) == [.missingAttribute, .unknownEnumeratedValue])
    }
}
