/// The facts of a plan a caller shows (`--dry-run`, progress headers).
public struct DownloadPlanSummary: Sendable, Equatable {
    /// `mpeg-ts` or `fmp4`.
    public let container: String
    /// The variant chosen from a multivariant playlist ("320x180, 167.2 kb/s").
    public let variant: String?
    /// Media segments.
    public let segments: Int
    /// Resources (segments and initialization section).
    public let resources: Int
    /// HTTP requests for media after coalescing byte ranges.
    public let requests: Int
    /// Distinct keys.
    public let keys: Int
    /// Network bytes when every resource has a byte range.
    public let knownBytes: UInt64?
    /// An estimate from the variant's BANDWIDTH × duration when sizes are unknown.
    public let estimatedBytes: UInt64?
    /// Σ EXTINF seconds.
    public let duration: Double
    /// Segments that begin a discontinuity (EXT-X-DISCONTINUITY): runs whose timestamps the
    /// assembly rebases, and whose codec parameters must not change.
    public var discontinuities = 0
}
