import Testing
import TesseraMedia

@Suite("WebVTT cues on the movie's clock")
struct WebVTTTrackTests {
    /// A movie whose run 0 starts at MPEG-2 time 131,280 (the fixtures' first audio frame).
    static func clock() throws -> MovieClock {
        var timeline = PresentationTimeline()
        let (tracks, _) = try ProgressiveMP4Tests.tracks()
        let track = timeline.addTrack(tracks[0].media)
        try timeline.append(AccessUnit(decodeTime: 131_280, presentationTime: 131_280, isSync: true, data: []), size: 1, to: track, run: 0)
        try timeline.append(AccessUnit(decodeTime: 134_880, presentationTime: 134_880, isSync: false, data: []), size: 1, to: track, run: 0)
        return timeline.clock
    }

    static func segment(_ text: String) throws -> WebVTTSegment { try WebVTTSegment(Array(text.utf8)) }

    @Test("a segment's X-TIMESTAMP-MAP, cue identifiers, settings and multi-line text are read; NOTE and STYLE blocks are not cues")
    func parse() throws {
        let segment = try Self.segment("WEBVTT\r\nX-TIMESTAMP-MAP=LOCAL:00:00:01.000,MPEGTS:900000\r\n\r\nNOTE a note\r\n\r\nSTYLE\r\n::cue { color: red }\r\n\r\nc1\r\n00:01.500 --> 00:00:03.000 align:start\r\nTwo\r\nlines\r\n")
        #expect(segment.timestampMap.mpegts == 900_000 && segment.timestampMap.local == 1000)
        #expect(segment.cues == [WebVTTSegment.Cue(identifier: "c1", start: 1500, end: 3000, settings: "align:start", text: "Two\nlines")])
        #expect(try Self.segment("WEBVTT\n\n00:00.000 --> 00:01.000\nx\n").timestampMap == (0, 0), "no map: cue time 0 is media time 0")
    }

    @Test("cues land on the movie's clock through the map; one repeated across a segment boundary is kept once; order by start")
    func placement() throws {
        var track = WebVTTTrack()
        let clock = try Self.clock()
        // Cue time 0.080 s ↔ MPEG-2 126,000 + 7,200 = 133,200: 1,920 ticks (21 ms) after the movie's start.
        let first = try Self.segment("WEBVTT\nX-TIMESTAMP-MAP=MPEGTS:126000,LOCAL:00:00:00.000\n\n00:00.080 --> 00:01.580\nFirst\n\n00:01.500 --> 00:02.500\nAcross\n")
        let second = try Self.segment("WEBVTT\nX-TIMESTAMP-MAP=MPEGTS:126000,LOCAL:00:00:00.000\n\n00:01.500 --> 00:02.500\nAcross\n\n00:01.580 --> 00:03.080\nSecond\n")
        track.add(second, run: 0, clock: clock)
        track.add(first, run: 0, clock: clock)
        #expect(track.count == 3)
        #expect(track.text == "WEBVTT\n\n00:00:00.021 --> 00:00:01.521\nFirst\n\n00:00:01.441 --> 00:00:02.441\nAcross\n\n00:00:01.521 --> 00:00:03.021\nSecond\n")
    }

    @Test("a cue before the movie's start is cut at 0, one wholly before it dropped; cues of a run with no media are counted, not placed")
    func edges() throws {
        var track = WebVTTTrack()
        let clock = try Self.clock()
        // The map puts cue time 0 at MPEG-2 131,280 - 90,000: a second before the movie.
        track.add(try Self.segment("WEBVTT\nX-TIMESTAMP-MAP=MPEGTS:41280,LOCAL:00:00:00.000\n\n00:00.000 --> 00:00.500\nGone\n\n00:00.500 --> 00:02.000\nCut\n"),
                  run: 0, clock: clock)
        track.add(try Self.segment("WEBVTT\n\n00:00.000 --> 00:01.000\nElsewhere\n"), run: 7, clock: clock)
        #expect(track.text == "WEBVTT\n\n00:00:00.000 --> 00:00:01.000\nCut\n")
        #expect(track.unplaced == 1)
    }

    @Test("SubRip: numbered cues, comma times, <b> <i> <u> kept, other markup dropped with its text kept, references decoded, empty cues dropped")
    func subRip() throws {
        var track = WebVTTTrack()
        let clock = WebVTTTrack.playlistClock([WebVTTTrack.RunStart(run: 0, timestampMap: (0, 0), start: 0)])
        track.add(try Self.segment("WEBVTT\n\n00:01.000 --> 00:02.000 line:0\n<v Roger>Hi <i>there</i> &amp; <c.red.big>you</c> &lt;3&gt;\n<00:01.500><b>now</b>&#x263A; & done\n\n"
                                   + "00:02.000 --> 00:03.000\n<c.x></c>\n\n00:03.000 --> 00:04.000\n<u>Last</u>&nbsp;one <ruby>漢<rt>kan</rt></ruby>\n"),
                  run: 0, clock: clock)
        #expect(track.text(as: .subRip) == "1\n00:00:01,000 --> 00:00:02,000\nHi <i>there</i> & you <3>\n<b>now</b>\u{263A} & done\n\n2\n00:00:03,000 --> 00:00:04,000\n<u>Last</u>\u{A0}one 漢kan\n")
        #expect(SubtitleFormat(fileExtension: "SRT") == .subRip && SubtitleFormat(fileExtension: "ass") == nil)
    }

    @Test("alone, a track's first map point is time 0; a run on the same clock continues it, a run on a new clock starts at its place in the playlist")
    func playlistClock() throws {
        let clock = WebVTTTrack.playlistClock([
            WebVTTTrack.RunStart(run: 0, timestampMap: (126_000, 0), start: 0),
            WebVTTTrack.RunStart(run: 1, timestampMap: (126_000 + 450_000, 5000), start: 5),
            WebVTTTrack.RunStart(run: 2, timestampMap: (8_589_930_000, 0), start: 12.5),
        ])
        #expect(clock.movieTime(of: 126_000 + 90_000, run: 0) == 90_000)
        #expect(clock.movieTime(of: 126_000 + 540_000, run: 1) == 540_000, "the same clock: times kept")
        #expect(clock.movieTime(of: 8_589_939_000 & ((1 << 33) - 1), run: 2) == 1_134_000, "a new clock: its map point at 12.5 s, across the 33-bit wrap")
        #expect(clock.movieTime(of: 8_589_931_000, run: 2) == 1_126_000)
        #expect(clock.movieTime(of: 0, run: 3) == nil)
    }

    @Test("bytes that are not WebVTT, and a malformed timing line, are typed errors")
    func defects() {
        #expect(throws: MediaError.self) { _ = try Self.segment("NOT VTT\n") }
        #expect(throws: MediaError.self) { _ = try Self.segment("WEBVTT\n\n00:00.000 --> 00:01\nx\n") }
        #expect(throws: MediaError.self) { _ = try WebVTTSegment([0xFF, 0xFE]) }
    }
}
