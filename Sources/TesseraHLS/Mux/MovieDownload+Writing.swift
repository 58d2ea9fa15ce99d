import TesseraMedia

extension MovieDownload {
    /// What a movie download writes, and how.
    public struct Writing: Sendable {
        /// The file's tracks: a movie, the audio alone, or one subtitle track. Default `.movie`.
        public var content: Content
        /// The file format of a movie or of the audio alone. Default MP4.
        public var container: Container
        /// The format of the subtitle files (beside the movie, or the file itself). Default WebVTT.
        public var subtitleFormat: SubtitleFormat
        /// One fragmented MP4 (movie fragments of about two seconds, cut at the pictures' sync
        /// samples) instead of a progressive one with the `moov` first. Default false.
        public var fragmented: Bool
        /// EXT-X-GAP segments are holes on the file's timeline (the picture before held, no
        /// sound), listed in the report, instead of a refusal before any media byte. Default false.
        public var allowsGaps: Bool
        /// The chosen subtitle tracks go into the MP4 as timed text (`tx3g`, their language and
        /// NAME, not shown by default) instead of files beside it. Default false.
        public var embedsSubtitles: Bool
        /// The file's SHA-256 goes in the report. A streamed MP4 (`isStreamed`) is read once more
        /// for it once the transfer is done — its `moov` comes first and is known last, so the
        /// digest cannot run beside the transfer (92 MB: 50–80 ms on one core, a third of the job
        /// on a loopback origin); without it the report has none. The other outputs hash as they
        /// write and always report it. Default true (`tessera download` asks with `--sha256`).
        public var digest: Bool

        /// Whether the file is written while the transfer runs, each segment's samples as it
        /// arrives, no segment staged (docs/DOWNLOAD.md): an MP4 of the media,
        /// progressive or fragmented, its subtitles beside it.
        var isStreamed: Bool { content != .subtitles && container == .mp4 && !embedsSubtitles }

        /// A way of writing; every default is what `tessera download -o movie.mp4` writes.
        public init(content: Content = .movie, container: Container = .mp4, subtitleFormat: SubtitleFormat = .webVTT, fragmented: Bool = false, allowsGaps: Bool = false,
                    embedsSubtitles: Bool = false, digest: Bool = true) {
            self.content = content
            self.container = container
            self.subtitleFormat = subtitleFormat
            self.fragmented = fragmented
            self.allowsGaps = allowsGaps
            self.embedsSubtitles = embedsSubtitles
            self.digest = digest
        }
    }
}
