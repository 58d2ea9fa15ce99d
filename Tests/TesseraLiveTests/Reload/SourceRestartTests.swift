import Testing
import TesseraPlaylist
@testable import TesseraLive

@Suite("Source restart: a playlist behind the held one is a restarted source only when it shows one")
struct SourceRestartTests {
    /// `range`, 2 s each, named `<prefix><msn>.ts`, dated from `start` seconds (nil: undated), in
    /// discontinuity domain `domain`.
    static func playlist(_ range: ClosedRange<UInt64>, prefix: String = "s", start: Double? = 1_800_000_000, domain: UInt64 = 0) -> MediaPlaylist {
        let segments = range.map { msn in
            MediaSegment(uri: "\(prefix)\(msn).ts", duration: 2, mediaSequence: msn, discontinuitySequence: domain,
                         programDateTime: start.map { ProgramDateTime(secondsSince1970: $0 + Double(msn) * 2) })
        }
        return MediaPlaylist(targetDuration: 2, mediaSequence: range.lowerBound, discontinuitySequence: domain, segments: MediaSegments(segments))
    }

    @Test("an older copy of the same stream (a cache behind the origin) shows nothing: the same segments, older")
    func olderCopy() {
        #expect(SourceRestart.evidence(Self.playlist(8...11), behind: Self.playlist(10...14)) == nil)
        #expect(SourceRestart.evidence(Self.playlist(8...11, start: nil), behind: Self.playlist(10...14, start: nil)) == nil)
    }

    @Test("newer media under older numbers, a segment listed otherwise, a window wholly before, a domain gone back: each shows a restart")
    func evidence() {
        let held = Self.playlist(40...44)
        // ffmpeg restarted: seg0.ts… again, dated now.
        #expect(SourceRestart.evidence(Self.playlist(0...3, start: 1_800_000_100), behind: held)
                == "its newest segment (3) is dated after the last one listed before (44) under an older number")
        #expect(SourceRestart.evidence(Self.playlist(40...42, prefix: "other"), behind: held) == "segment 40 is listed with another URI than before")
        #expect(SourceRestart.evidence(Self.playlist(40...42, start: 1_700_000_000), behind: held) == "segment 40 is listed with another PROGRAM-DATE-TIME than before")
        #expect(SourceRestart.evidence(Self.playlist(0...3, start: nil), behind: Self.playlist(40...44, start: nil))
                == "its media sequence went back from 44 to 3, behind the whole window listed before")
        #expect(SourceRestart.evidence(Self.playlist(41...43, start: nil, domain: 0), behind: Self.playlist(40...44, start: nil, domain: 3))
                == "segment 41 is listed with another discontinuity sequence than before")
    }
}
