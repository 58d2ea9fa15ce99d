import Foundation

extension PlaylistGenerator {
    /// The head of a live EVENT playlist that allows delta updates (§4.4.3.8 CAN-SKIP-UNTIL).
    private static let liveHead = "#EXTM3U\n#EXT-X-VERSION:9\n#EXT-X-TARGETDURATION:2\n#EXT-X-PLAYLIST-TYPE:EVENT\n"
        + "#EXT-X-SERVER-CONTROL:CAN-SKIP-UNTIL=12.0,CAN-SKIP-DATERANGES=YES\n#EXT-X-MEDIA-SEQUENCE:0\n"

    /// A live EVENT playlist of `n` segments, as a client holds it after a day of reloads: a
    /// PROGRAM-DATE-TIME every segment, an AES-128 key rotated every 100 segments and a Date
    /// Range every 100 segments.
    static func event(segments n: Int) -> String {
        var out = liveHead
        out.reserveCapacity(n * 150)
        for i in 0..<n { out += liveSegment(i) }
        return out
    }

    /// The delta update of `event(segments: n)` one segment later: all but the last `listed`
    /// segments skipped (EXT-X-SKIP), the Date Ranges of the first tenth recently removed, and
    /// one new segment.
    static func delta(segments n: Int, listed: Int = 6) -> String {
        let skipped = n - listed + 1
        let removed = stride(from: 0, to: n / 10, by: 100).map { "r\($0)" }.joined(separator: "\t")
        var out = liveHead + "#EXT-X-SKIP:SKIPPED-SEGMENTS=\(skipped),RECENTLY-REMOVED-DATERANGES=\"\(removed)\"\n"
        for i in skipped...n { out += liveSegment(i, withTags: false) }
        return out
    }

    /// Segment `i` of the live playlist; `withTags` false leaves out the key and Date Range tags
    /// (a delta lists only what follows the skipped run).
    private static func liveSegment(_ i: Int, withTags: Bool = true) -> String {
        var out = ""
        if withTags, i % 100 == 0 {
            out += "#EXT-X-KEY:METHOD=AES-128,URI=\"keys/key_\(pad(i / 100, 5)).key\",IV=0x\(pad(i / 100, 32))\n"
            out += "#EXT-X-DATERANGE:ID=\"r\(i)\",START-DATE=\"\(date(i))\",DURATION=2.0\n"
        }
        return out + "#EXT-X-PROGRAM-DATE-TIME:\(date(i))\n#EXTINF:2.000,\nseg_\(pad(i, 7)).ts\n"
    }

    /// The wall-clock time of segment `i`, 2 s apart from 2025-01-01T00:00:00Z.
    private static func date(_ i: Int) -> String {
        let seconds = i * 2
        let (day, rest) = seconds.quotientAndRemainder(dividingBy: 86_400)
        return "2025-01-\(pad(1 + day % 28, 2))T\(pad(rest / 3600, 2)):\(pad(rest / 60 % 60, 2)):\(pad(rest % 60, 2)).000Z"
    }
}
