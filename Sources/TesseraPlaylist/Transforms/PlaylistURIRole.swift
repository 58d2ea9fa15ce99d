/// What a URI in a playlist names, as `rewritingURIs` reports it: a packager maps each role to
/// its own local layout, a Content Steering client to another pathway.
public enum PlaylistURIRole: Hashable, Sendable {
    /// A media segment (its URI line).
    case segment
    /// An EXT-X-MAP.
    case map
    /// An EXT-X-KEY (media playlists) or EXT-X-SESSION-KEY (multivariant playlists).
    case key
    /// An EXT-X-PART.
    case part
    /// An EXT-X-PRELOAD-HINT.
    case preloadHint
    /// An EXT-X-RENDITION-REPORT.
    case renditionReport
    /// An EXT-X-STREAM-INF's media playlist.
    case variant
    /// An EXT-X-I-FRAME-STREAM-INF's media playlist.
    case iFrameVariant
    /// An EXT-X-MEDIA rendition's media playlist.
    case rendition
    /// An EXT-X-SESSION-DATA's JSON or raw data.
    case sessionData
    /// An EXT-X-CONTENT-STEERING server.
    case steeringServer
    /// A Date Range's `X-ASSET-URI` or `X-ASSET-LIST` (interstitials, App. D).
    case interstitialAsset(attribute: String)

    /// The Date Range client attributes that hold URIs (HLS interstitials).
    public static let interstitialAttributes: Set<String> = ["X-ASSET-URI", "X-ASSET-LIST"]
}
