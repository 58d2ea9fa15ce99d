/// Subtitles as an MP4 timed-text track (3GPP TS 26.245; `tx3g`, what ffmpeg calls `mov_text`):
/// a track on a millisecond clock whose samples tile its timeline — each the text shown from its
/// time to the next sample's (a 16-bit length, then UTF-8), an empty sample where nothing is
/// shown — since timed-text samples cannot overlap: where cues overlap, a sample shows every cue
/// active then, one per line, in start order.
public enum TimedText {
    /// The track's clock: milliseconds, as WebVTT times are.
    public static let timescale: UInt32 = 1000

    /// One cue: its times (milliseconds from the movie's start) and its plain text.
    public struct Cue: Sendable, Equatable {
        /// When it shows, in milliseconds from the movie's start.
        public let start: UInt64
        /// When it goes, in milliseconds from the movie's start.
        public let end: UInt64
        /// Its lines, without markup.
        public let text: String

        /// A cue.
        public init(start: UInt64, end: UInt64, text: String) {
            self.start = start
            self.end = end
            self.text = text
        }
    }

    /// The track of `cues` (nil when there is none) and each sample's bytes, in order; its
    /// language, name and flags are the caller's.
    /// - Throws: `malformed-subtitles` for a text longer than a sample holds (65,535 bytes).
    /// - Complexity: O(n log n + n·k) for n cues, k of them on screen at once.
    public static func track(_ cues: [Cue]) throws(MediaError) -> (track: MP4Track, samples: [[UInt8]])? {
        // In start order (ties as given); swept once, the cues on screen kept in `active`.
        let shown = cues.enumerated().filter { $0.element.end > $0.element.start }.sorted { ($0.element.start, $0.offset) < ($1.element.start, $1.offset) }.map(\.element)
        guard !shown.isEmpty else { return nil }
        let times = Set(shown.flatMap { [$0.start, $0.end] } + [0]).sorted()
        var track = MP4Track(media: .timedText, timescale: timescale)
        var samples: [[UInt8]] = []
        var active: [Cue] = []
        var next = 0
        for start in times.dropLast() {
            while next < shown.count, shown[next].start <= start {
                active.append(shown[next])
                next += 1
            }
            active.removeAll { $0.end <= start }
            let bytes = Array(active.map(\.text).joined(separator: "\n").utf8)
            guard bytes.count <= 0xFFFF else { throw MediaError(.malformedSubtitles, "A cue's text is longer than a timed-text sample holds (\(bytes.count) bytes).") }
            // Adjacent intervals that show the same text are one sample.
            if let previous = samples.last, previous.dropFirst(2).elementsEqual(bytes) { continue }
            try track.append(MP4Track.Sample(size: UInt32(bytes.count + 2), decodeTime: Int64(start), compositionOffset: 0, isSync: true))
            samples.append([UInt8(bytes.count >> 8), UInt8(bytes.count & 0xFF)] + bytes)
        }
        track.endTime = Int64(times.last!)
        return (track, samples)
    }
}
