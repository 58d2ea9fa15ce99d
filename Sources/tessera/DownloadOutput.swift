import TesseraMedia

/// What `tessera download` writes: chosen by `-o`'s extension, or by `--format` for a name
/// whose extension says none of these.
enum DownloadOutput: Equatable {
    /// One MP4 muxed from the chosen tracks (`.mp4`, `.m4v`, `.mov`).
    case movie
    /// The chosen audio alone, as MP4 (`.m4a`).
    case audio
    /// One subtitle track (`.vtt`, `.srt`).
    case subtitles(SubtitleFormat)
    /// One MPEG-TS (`.ts`, `.m2ts`): a TS variant alone assembled byte for byte, anything else
    /// (separate audio, fMP4 media, subtitles, tracks left out) muxed from the chosen tracks.
    case transportStream
    /// The variant's own stream assembled byte for byte (any other name).
    case stream

    /// The `--format` values.
    static let formats = "mp4|m4a|ts|vtt|srt"

    /// The output a file name extension names, or nil for one that names none.
    init?(fileExtension: String) {
        switch fileExtension.lowercased() {
        case "mp4", "m4v", "mov": self = .movie
        case "m4a": self = .audio
        case "vtt": self = .subtitles(.webVTT)
        case "srt": self = .subtitles(.subRip)
        case "ts", "m2ts": self = .transportStream
        default: return nil
        }
    }

    /// The output a `--format` value names, or nil.
    init?(format: String) {
        guard ["mp4", "m4a", "ts", "vtt", "srt"].contains(format) else { return nil }
        self.init(fileExtension: format)
    }

    /// Whether tracks are chosen for it (`--audio`, `--subtitles`, `--video` apply).
    var choosesTracks: Bool { self != .stream }
}
