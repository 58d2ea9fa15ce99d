/// What a package will hold, before any media byte (what `--dry-run` prints).
public struct PackagePlanSummary: Sendable, Equatable {
    /// Its tracks, the variant's stream first.
    public let tracks: [PackageTrack]
    /// Resources each track fetches (maps, segments, unlisted bytes), by track ID.
    public let resourcesByTrack: [String: Int]
    /// Resources in all.
    public let resources: Int
    /// HTTP requests after coalescing contiguous byte ranges.
    public let requests: Int
    /// Distinct AES-128 keys (media is stored decrypted).
    public let keys: Int
    /// Media bytes when every resource has a byte range; nil when only the responses tell.
    public let knownBytes: UInt64?
    /// Segments the source marks EXT-X-GAP (listed, with no file).
    public let gaps: Int
    /// Why each choice was made (the selection's reasons).
    public let reasons: [String]
}
