/// How far a package job is: the whole package, and each track's resources done.
public struct PackageProgress: Sendable, Equatable {
    /// The whole package.
    public let whole: DownloadProgress
    /// Resources done by track ID.
    public let tracks: [String: Int]

    /// Progress of `whole`, `tracks` done by track ID.
    public init(whole: DownloadProgress, tracks: [String: Int]) {
        self.whole = whole
        self.tracks = tracks
    }
}
