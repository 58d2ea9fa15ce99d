import TesseraSupport

/// What a package's last files say, whatever made its media — a VOD plan now, a live recording
/// next: its kind, each track with the text of its local playlist, `master.m3u8`, the owner of
/// each media file, and what it lists without media (gaps, and the empty files they name) or
/// dropped (evictions).
package struct PackageContents: Sendable {
    /// `vod` or `recording`.
    package let kind: PackageManifest.Kind
    /// Each track and its local playlist's text, the variant's stream first.
    package let tracks: [(info: PackageTrack, playlistText: String)]
    /// The text of `master.m3u8`.
    package let masterText: String
    /// The track ID owning each media file, by path.
    let owners: PackageFileOwners
    /// Listed media without a file.
    package let gaps: [PackageManifest.Gap]
    /// The zero-length files gap entries name (`PackageWriter.finish` makes and lists them):
    /// EXT-X-GAP keeps its meaning for players that honour it, and players that do not (ffmpeg,
    /// GStreamer) fetch a file with no media and play on, where a name without a file stops them.
    package let emptyFiles: [SafeRelativePath]
    /// Runs a recording dropped.
    package let evictions: [PackageManifest.Eviction]

    /// Contents of a package of `kind`; each media file is its track folder's but for
    /// `otherOwners` (by path; nil: no track owns it).
    package init(kind: PackageManifest.Kind, tracks: [(info: PackageTrack, playlistText: String)], masterText: String,
                 otherOwners: [String: String?] = [:], gaps: [PackageManifest.Gap] = [], emptyFiles: [SafeRelativePath] = [],
                 evictions: [PackageManifest.Eviction] = []) {
        self.kind = kind
        self.tracks = tracks
        self.masterText = masterText
        owners = PackageFileOwners(exceptions: otherOwners)
        self.gaps = gaps
        self.emptyFiles = emptyFiles
        self.evictions = evictions
    }
}
