/// The cues of one WebVTT segment as HLS carries them (W3C WebVTT §4; RFC 8216bis §3.5): the
/// `X-TIMESTAMP-MAP` that ties its cue times to the MPEG-2 clock (absent: cue time 0 is media
/// time 0), and each cue's identifier, times (milliseconds on the segment's own clock), settings
/// and text. NOTE, STYLE and REGION blocks are not cues. Read with the validator's line and
/// timestamp rules.
public struct WebVTTSegment: Sendable, Equatable {
    /// One cue.
    public struct Cue: Sendable, Equatable, Hashable {
        public let identifier: String?
        public let start: UInt64
        public let end: UInt64
        /// The settings after the end time (`line:…`, `align:…`), as written.
        public let settings: String
        public let text: String

        /// A cue.
        public init(identifier: String?, start: UInt64, end: UInt64, settings: String, text: String) {
            self.identifier = identifier
            self.start = start
            self.end = end
            self.settings = settings
            self.text = text
        }
    }

    /// `X-TIMESTAMP-MAP`'s MPEG-2 time (90 kHz) and the cue time it maps (milliseconds).
    public let timestampMap: (mpegts: UInt64, local: UInt64)
    public let cues: [Cue]

    public static func == (a: WebVTTSegment, b: WebVTTSegment) -> Bool {
        a.timestampMap == b.timestampMap && a.cues == b.cues
    }

    /// Reads `bytes`.
    /// - Throws: `malformed-subtitles` when they are not UTF-8, lack the WEBVTT signature, or a
    ///   cue's timing line or the timestamp map is malformed.
    public init(_ bytes: [UInt8]) throws(MediaError) {
        guard let lines = WebVTTLines.split(bytes) else { throw MediaError(.malformedSubtitles, "The WebVTT segment is not valid UTF-8.") }
        guard let first = lines.first, WebVTTLines.isSignature(first.text) else {
            throw MediaError(.malformedSubtitles, "The WebVTT segment does not start with the WEBVTT signature.")
        }
        var index = 1
        var map: (UInt64, UInt64) = (0, 0)
        while index < lines.count, !lines[index].text.isEmpty {
            if lines[index].text.hasPrefix("X-TIMESTAMP-MAP=") {
                guard let parsed = WebVTTLines.timestampMap(lines[index].text.dropFirst(16)) else {
                    throw MediaError(.malformedSubtitles, "The X-TIMESTAMP-MAP '\(lines[index].text.prefix(80))' is malformed.")
                }
                map = parsed
            }
            index += 1
        }
        var cues: [Cue] = []
        while index < lines.count {
            while index < lines.count, lines[index].text.isEmpty { index += 1 }
            var block: [Substring] = []
            while index < lines.count, !lines[index].text.isEmpty {
                block.append(lines[index].text)
                index += 1
            }
            guard let timing = block.firstIndex(where: { $0.contains("-->") }), timing <= 1 else { continue }   // NOTE, STYLE, REGION
            let parts = block[timing].split(separator: " ", maxSplits: 3, omittingEmptySubsequences: true)
            guard parts.count >= 3, parts[1] == "-->", let start = WebVTTLines.milliseconds(parts[0]), let end = WebVTTLines.milliseconds(parts[2]) else {
                throw MediaError(.malformedSubtitles, "The cue timing line '\(block[timing].prefix(80))' is malformed.")
            }
            cues.append(Cue(identifier: timing == 1 ? String(block[0]) : nil, start: start, end: end,
                            settings: parts.count > 3 ? String(parts[3]) : "", text: block[(timing + 1)...].joined(separator: "\n")))
        }
        timestampMap = map
        self.cues = cues
    }
}
