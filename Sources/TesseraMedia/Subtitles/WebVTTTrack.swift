/// One subtitle track's cues gathered from its WebVTT segments onto a movie's clock (RFC 8216bis
/// §3.5): each cue's time mapped to the MPEG-2 clock by its segment's X-TIMESTAMP-MAP, then to the
/// movie by the run it belongs to; a cue repeated in the next segment (shown across a boundary)
/// kept once; cues ordered by start; a cue before the movie's start cut at 0, one wholly before
/// it dropped. Written as one WebVTT or SubRip file.
public struct WebVTTTrack: Sendable {
    private var cues: [WebVTTSegment.Cue] = []
    private var seen: Set<WebVTTSegment.Cue> = []
    /// Cues of runs with no muxed media, which have no place on the movie's clock.
    public private(set) var unplaced = 0

    /// An empty track.
    public init() {}

    /// Adds `segment`'s cues; the segment is in discontinuity `run`, placed by `clock`.
    public mutating func add(_ segment: WebVTTSegment, run: Int, clock: MovieClock) {
        let (mpegts, local) = segment.timestampMap
        func place(_ milliseconds: UInt64) -> Int64? {
            let ticks = Int64(mpegts) + (Int64(milliseconds) - Int64(local)) * 90
            return clock.movieTime(of: UInt64(bitPattern: ticks), run: run).map { Int64((Double($0) / 90).rounded()) }
        }
        for cue in segment.cues {
            guard let start = place(cue.start), let end = place(cue.end) else {
                unplaced += 1
                continue
            }
            guard end > 0, end > start else { continue }
            let placed = WebVTTSegment.Cue(identifier: cue.identifier, start: UInt64(max(0, start)), end: UInt64(end), settings: cue.settings, text: cue.text)
            let key = WebVTTSegment.Cue(identifier: nil, start: placed.start, end: placed.end, settings: placed.settings, text: placed.text)
            if seen.insert(key).inserted { cues.append(placed) }
        }
    }

    /// Cues kept.
    public var count: Int { cues.count }

    /// The cues by start time as plain text: the SubRip form with its `<b>`, `<i>`, `<u>` tags
    /// removed too (an MP4 timed-text sample carries no markup).
    public var plainCues: [TimedText.Cue] {
        cues.enumerated().sorted(by: { ($0.element.start, $0.offset) < ($1.element.start, $1.offset) }).map { _, cue in
            var text = SubRipText.convert(cue.text)
            for tag in ["<b>", "</b>", "<i>", "</i>", "<u>", "</u>"] { text = text.replacing(tag, with: "") }
            return TimedText.Cue(start: cue.start, end: cue.end, text: text)
        }
    }

    /// The WebVTT file: the signature, then every cue by start time.
    public var text: String { text(as: .webVTT) }

    /// The file in `format`: every cue by start time (WebVTT: after the signature, as written;
    /// SubRip: numbered from 1, its text converted by `SubRipText`, a cue left with no text dropped).
    public func text(as format: SubtitleFormat) -> String {
        let ordered = cues.enumerated().sorted(by: { ($0.element.start, $0.offset) < ($1.element.start, $1.offset) }).map(\.element)
        var lines: [String] = []
        switch format {
        case .webVTT:
            lines = ["WEBVTT", ""]
            for cue in ordered {
                if let identifier = cue.identifier { lines.append(identifier) }
                lines.append("\(WebVTTLines.timestamp(cue.start)) --> \(WebVTTLines.timestamp(cue.end))" + (cue.settings.isEmpty ? "" : " " + cue.settings))
                lines.append(cue.text)
                lines.append("")
            }
        case .subRip:
            var number = 0
            for cue in ordered {
                let text = SubRipText.convert(cue.text)
                guard text.contains(where: { !$0.isWhitespace }) else { continue }
                number += 1
                lines += ["\(number)", "\(WebVTTLines.timestamp(cue.start, separator: ",")) --> \(WebVTTLines.timestamp(cue.end, separator: ","))", text, ""]
            }
        }
        return lines.joined(separator: "\n")
    }
}
