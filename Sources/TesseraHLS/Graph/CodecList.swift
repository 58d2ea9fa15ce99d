import TesseraSupport

/// A CODECS attribute read as the media types it names (RFC 6381 sample entries; §4.4.6.2).
public struct CodecList: Hashable, Sendable {
    /// The formats as written, trimmed.
    public let formats: [String]

    /// The formats of a CODECS value (comma-separated).
    public init(_ codecs: String) {
        formats = codecs.split(separator: ",").map { ASCIIText.trimmingBlanks($0) }.filter { !$0.isEmpty }
    }

    /// True when a format is a video coding (avc1, hvc1, dvh1, av01, vp09, …).
    public var hasVideo: Bool { formats.contains { Self.video.contains(Self.fourCC($0)) } }
    /// True when a format is an audio coding (mp4a, ac-3, ec-3, ac-4, fLaC, Opus, …).
    public var hasAudio: Bool { formats.contains { Self.audio.contains(Self.fourCC($0)) } }
    /// True when a format is a text coding in fMP4 (stpp IMSC1, wvtt).
    public var hasText: Bool { formats.contains { Self.text.contains(Self.fourCC($0)) } }

    private static let video: Set<String> = ["avc1", "avc2", "avc3", "avc4", "hvc1", "hev1", "dvh1", "dvhe", "dva1", "dvav",
                                             "dav1", "av01", "vp08", "vp09", "mp4v", "vvc1", "vvi1", "jpeg", "mjpg"]
    private static let audio: Set<String> = ["mp4a", "ac-3", "ec-3", "ac-4", "flac", "opus", "alac", "mhm1", "mhm2", "mha1",
                                             "mha2", "dtsc", "dtse", "dtsh", "dtsl", "dtsx", "mp3", ".mp3", "ipcm", "fpcm"]
    private static let text: Set<String> = ["stpp", "wvtt", "tx3g", "c608", "c708"]

    private static func fourCC(_ format: String) -> String {
        String(format.prefix { $0 != "." }).lowercased()
    }
}
