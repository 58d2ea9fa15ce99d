/// The text formats a subtitle track is written in.
public enum SubtitleFormat: String, Sendable, CaseIterable {
    /// WebVTT (W3C), `.vtt`: cue settings and markup kept as the source wrote them.
    case webVTT = "vtt"
    /// SubRip, `.srt`: numbered cues, `hh:mm:ss,ttt` times; `<b>`, `<i>` and `<u>` kept, other
    /// WebVTT markup (classes, voices, ruby, timestamps) and cue settings dropped, character
    /// references decoded.
    case subRip = "srt"

    /// The file name extension (`vtt`, `srt`).
    public var fileExtension: String { rawValue }

    /// The format a file name extension names (any case), or nil.
    public init?(fileExtension: String) {
        self.init(rawValue: fileExtension.lowercased())
    }
}
