import Foundation
import Testing
import TesseraPlaylist
@testable import TesseraLive

/// Where a track's segments sit on the recording's common timeline, as a pure value: by date,
/// by accumulated EXTINF from an anchor, carried across reloads and windows that slid past,
/// and each discontinuity domain placed where the primary's began.
@Suite("Recording positions: dates, accumulated EXTINF, anchors, discontinuity domains")
struct RecordingPositionsTests {
    /// Segments `range` of `seconds` each; `breaks` the media sequences beginning a
    /// discontinuity (the sequence counted from `firstDomain`).
    static func playlist(_ range: ClosedRange<UInt64>, seconds: Double, epoch: Double? = nil, breaks: Set<UInt64> = [],
                         firstDomain: UInt64 = 0) -> MediaPlaylist {
        var domain = firstDomain
        let segments = range.map { msn -> MediaSegment in
            if breaks.contains(msn) { domain += 1 }
            var segment = MediaSegment(uri: "s\(msn).ts", duration: seconds, mediaSequence: msn, discontinuitySequence: domain,
                                       programDateTime: epoch.map { ProgramDateTime(text: Date(timeIntervalSince1970: $0 + Double(msn) * seconds).ISO8601Format()) })
            segment.isDiscontinuity = breaks.contains(msn)
            return segment
        }
        return MediaPlaylist(targetDuration: UInt64(seconds.rounded(.up)), mediaSequence: range.lowerBound, segments: MediaSegments(segments))
    }

    @Test("by date: each segment where its PROGRAM-DATE-TIME says")
    func dates() {
        var positions = RecordingPositions(mode: .dates)
        positions.observe(Self.playlist(4...9, seconds: 2, epoch: 1_000), anchor: .edge(0))
        #expect(positions.start(of: 4) == 1_008 && positions.start(of: 9) == 1_018)
        #expect(positions.edge == 1_020)
    }

    @Test("by accumulated EXTINF: anchored at the live edge, carried over reloads, and past a window that slid beyond what was seen")
    func accumulated() {
        var positions = RecordingPositions(mode: .accumulated)
        positions.observe(Self.playlist(4...9, seconds: 2), anchor: .edge(0))
        #expect(positions.start(of: 9) == -2 && positions.start(of: 4) == -12)
        positions.observe(Self.playlist(6...11, seconds: 2), anchor: .edge(100))
        #expect(positions.start(of: 11) == 2, "placed by the segments listed before, not the anchor")
        // An outage: 12–14 never listed; a target duration each.
        positions.observe(Self.playlist(15...20, seconds: 2), anchor: .edge(100))
        #expect(positions.start(of: 15) == 10, "4 (the end of 11) + three target durations")
    }

    @Test("a rendition's discontinuity domains begin where the primary's do, whatever its EXTINF summed to")
    func domains() {
        var primary = RecordingPositions(mode: .accumulated)
        primary.observe(Self.playlist(0...5, seconds: 2, breaks: [3]), anchor: .edge(0))
        #expect(primary.domainStarts[1] == -6)
        var rendition = RecordingPositions(mode: .accumulated)
        // 3 s segments whose EXTINF sum drifts: the domain boundary at 2 is placed at the primary's.
        rendition.observe(Self.playlist(0...3, seconds: 3.1, breaks: [2]), anchor: .segment(2, -6), domains: primary.domainStarts)
        #expect(rendition.start(of: 2) == -6)
        #expect(abs((rendition.start(of: 3) ?? 0) - -2.9) < 1e-9)
        #expect(abs((rendition.start(of: 0) ?? 0) - -12.2) < 1e-9)
    }

    @Test("a restored segment places the next playlist that lists it")
    func restored() {
        var positions = RecordingPositions(mode: .accumulated, restoring: 7, start: 40, duration: 2)
        positions.observe(Self.playlist(5...10, seconds: 2), anchor: .edge(0))
        #expect(positions.start(of: 7) == 40 && positions.start(of: 10) == 46)
    }
}
