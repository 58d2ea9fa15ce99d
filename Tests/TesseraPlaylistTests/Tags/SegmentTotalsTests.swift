import Testing
import TesseraPlaylist

/// `SegmentTotals` adds up the segments in place, reading runs of segments that share their keys
/// and map once: it must give what adding up the segments one by one gives.
@Suite("Segment totals")
struct SegmentTotalsTests {
    static let text = """
        #EXTM3U
        #EXT-X-VERSION:7
        #EXT-X-TARGETDURATION:4
        #EXT-X-PART-INF:PART-TARGET=1
        #EXT-X-SERVER-CONTROL:PART-HOLD-BACK=3
        #EXTINF:4,
        clear.ts
        #EXT-X-KEY:METHOD=AES-128,URI="https://keys.example.com/1"
        #EXT-X-PROGRAM-DATE-TIME:2026-01-01T00:00:04.000Z
        #EXTINF:4,
        a.ts
        #EXTINF:3.5,
        b.ts
        #EXT-X-KEY:METHOD=SAMPLE-AES,URI="skd://k",KEYFORMAT="com.apple.streamingkeydelivery",KEYFORMATVERSIONS="1"
        #EXT-X-MAP:URI="init.mp4"
        #EXT-X-DISCONTINUITY
        #EXT-X-PART:DURATION=1,URI="c.0.mp4",INDEPENDENT=YES
        #EXT-X-PART:DURATION=1,URI="c.1.mp4"
        #EXTINF:2,
        c.mp4
        #EXT-X-GAP
        #EXTINF:4,
        d.mp4
        #EXT-X-KEY:METHOD=NONE
        #EXTINF:4,
        e.mp4
        #EXT-X-PART:DURATION=1,URI="f.0.mp4"

        """

    @Test("the totals of a playlist with keys, a map, parts, a date, a discontinuity and a gap are its segments' added up")
    func addedUp() throws {
        guard case .media(let media) = try PlaylistParser().parse(Array(Self.text.utf8)).playlist else {
            Issue.record("not a media playlist")
            return
        }
        let totals = media.segmentTotals
        let segments = Array(media.segments)
        #expect(totals.count == segments.count && totals.count == 6)
        #expect(totals.duration == segments.reduce(0) { $0 + $1.duration } && totals.longestDuration == 4)
        #expect(totals.datedCount == 1 && totals.firstDate == 1_767_225_600)
        #expect(totals.discontinuityCount == 1 && totals.gapCount == 1)
        #expect(totals.encryptionMethods == [.none, .aes128])   // the first key in force: one a KEYFORMAT, so c and d stand under both
        var kinds: [SegmentKeyKind] = []
        for key in segments.flatMap(\.keys) where !kinds.contains(SegmentKeyKind(key)) { kinds.append(SegmentKeyKind(key)) }
        #expect(totals.keyKinds == kinds)
        #expect(totals.keyKinds == [SegmentKeyKind(method: .aes128, keyFormat: "identity"),
                                    SegmentKeyKind(method: .sampleAES, keyFormat: "com.apple.streamingkeydelivery")])
        #expect(totals.mappedCount == segments.filter { $0.map != nil }.count && totals.mappedCount == 3)
        #expect(totals.partCount == segments.reduce(0) { $0 + $1.parts.count } && totals.partCount == 2)
        #expect(media.pendingParts.count == 1)
    }
}
