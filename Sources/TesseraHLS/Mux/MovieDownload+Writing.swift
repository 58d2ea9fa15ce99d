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

        /// Whether the file is written while the transfer runs, each segment's samples as it
        /// arrives, no segment staged (docs/DOWNLOAD.md): an MP4 of the media,
        /// progressive or fragmented, its subtitles beside it.
        var isStreamed: Bool { content != .subtitles && container == .mp4 && !embedsSubtitles }

        /// A way of writing; every default is what `tessera download -o movie.mp4` writes.
        public init(content: Content = .movie, container: Container = .mp4, subtitleFormat: SubtitleFormat = .webVTT, fragmented: Bool = false, allowsGaps: Bool = false,
                    embedsSubtitles: Bool = false) {
            self.content = content
            self.container = container
            self.subtitleFormat = subtitleFormat
            self.fragmented = fragmented
            self.allowsGaps = allowsGaps
            self.embedsSubtitles = embedsSubtitles
        }
    }
}
