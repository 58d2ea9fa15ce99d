import TesseraPlaylist

/// What a media playlist is to its presentation: which tag of the multivariant playlist
/// references it.
public enum PlaylistRole: Hashable, Sendable, CustomStringConvertible {
    /// The URI line of an EXT-X-STREAM-INF.
    case variant
    /// An EXT-X-MEDIA TYPE=AUDIO rendition.
    case audio
    /// An EXT-X-MEDIA TYPE=VIDEO rendition.
    case video
    /// An EXT-X-MEDIA TYPE=SUBTITLES rendition.
    case subtitles
    /// An EXT-X-MEDIA TYPE=CLOSED-CAPTIONS rendition (carried in the variants: never a playlist).
    case closedCaptions
    /// The URI of an EXT-X-I-FRAME-STREAM-INF.
    case iFrame

    /// The role of a rendition of `type`.
    public init(_ type: Rendition.MediaType) {
        switch type {
        case .audio: self = .audio
        case .video: self = .video
        case .subtitles: self = .subtitles
        case .closedCaptions: self = .closedCaptions
        }
    }

    /// The name in JSON and in the tree: `variant`, `audio`, `video`, `subtitles`,
    /// `closed-captions`, `i-frame`.
    public var description: String {
        switch self {
        case .variant: "variant"
        case .audio: "audio"
        case .video: "video"
        case .subtitles: "subtitles"
        case .closedCaptions: "closed-captions"
        case .iFrame: "i-frame"
        }
    }
}
