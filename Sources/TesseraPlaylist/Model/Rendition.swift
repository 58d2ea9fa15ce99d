/// EXT-X-MEDIA: an alternative rendition (RFC 8216bis §4.4.6.1).
public struct Rendition: Hashable, Sendable {
    /// TYPE.
    public enum MediaType: Hashable, Sendable, CustomStringConvertible {
        /// AUDIO
        case audio
        /// VIDEO
        case video
        /// SUBTITLES
        case subtitles
        /// CLOSED-CAPTIONS
        case closedCaptions

        public var description: String {
            switch self {
            case .audio: "AUDIO"
            case .video: "VIDEO"
            case .subtitles: "SUBTITLES"
            case .closedCaptions: "CLOSED-CAPTIONS"
            }
        }
    }

    /// TYPE.
    public let type: MediaType
    /// URI as written after variable substitution.
    public let uri: String?
    /// GROUP-ID.
    public let groupId: String
    /// LANGUAGE.
    public let language: String?
    /// ASSOC-LANGUAGE.
    public let associatedLanguage: String?
    /// NAME.
    public let name: String
    /// STABLE-RENDITION-ID.
    public let stableRenditionId: String?
    /// DEFAULT=YES.
    public let isDefault: Bool
    /// AUTOSELECT=YES.
    public let isAutoselect: Bool
    /// FORCED=YES.
    public let isForced: Bool
    /// INSTREAM-ID.
    public let instreamId: String?
    /// BIT-DEPTH.
    public let bitDepth: UInt64?
    /// SAMPLE-RATE.
    public let sampleRate: UInt64?
    /// CHARACTERISTICS as written.
    public let characteristics: String?
    /// CHANNELS as written.
    public let channels: String?
    /// Attributes the tag does not define.
    public let unknownAttributes: [UnknownAttribute]
    /// Where the tag was.
    public let line: SourceLine
}
