/// EXT-X-STREAM-INF (with its URI line) or EXT-X-I-FRAME-STREAM-INF (RFC 8216bis §4.4.6.2-3).
/// I-frame variants have no frame rate, audio, subtitles or closed captions.
public struct Variant: Hashable, Sendable {
    /// HDCP-LEVEL.
    public enum HDCPLevel: Hashable, Sendable, CustomStringConvertible {
        /// TYPE-0
        case type0
        /// TYPE-1
        case type1
        /// NONE
        case none

        public var description: String {
            switch self {
            case .type0: "TYPE-0"
            case .type1: "TYPE-1"
            case .none: "NONE"
            }
        }
    }

    /// VIDEO-RANGE.
    public enum VideoRange: Hashable, Sendable, CustomStringConvertible {
        /// SDR
        case sdr
        /// HLG
        case hlg
        /// PQ
        case pq

        public var description: String {
            switch self {
            case .sdr: "SDR"
            case .hlg: "HLG"
            case .pq: "PQ"
            }
        }
    }

    /// CLOSED-CAPTIONS.
    public enum ClosedCaptions: Hashable, Sendable {
        /// A CLOSED-CAPTIONS rendition group.
        case group(String)
        /// NONE: no closed captions in any variant.
        case none
    }

    /// The media playlist URI (URI line, or URI attribute for I-frame variants).
    public let uri: String
    /// BANDWIDTH, bit/s.
    public let bandwidth: UInt64
    /// AVERAGE-BANDWIDTH, bit/s.
    public let averageBandwidth: UInt64?
    /// SCORE.
    public let score: Double?
    /// CODECS as written.
    public let codecs: String?
    /// SUPPLEMENTAL-CODECS as written.
    public let supplementalCodecs: String?
    /// RESOLUTION.
    public let resolution: Resolution?
    /// FRAME-RATE.
    public let frameRate: Double?
    /// HDCP-LEVEL.
    public let hdcpLevel: HDCPLevel?
    /// ALLOWED-CPC as written.
    public let allowedCPC: String?
    /// VIDEO-RANGE.
    public let videoRange: VideoRange?
    /// REQ-VIDEO-LAYOUT as written.
    public let requiredVideoLayout: String?
    /// STABLE-VARIANT-ID.
    public let stableVariantId: String?
    /// AUDIO group.
    public let audio: String?
    /// VIDEO group.
    public let video: String?
    /// SUBTITLES group.
    public let subtitles: String?
    /// CLOSED-CAPTIONS.
    public let closedCaptions: ClosedCaptions?
    /// PATHWAY-ID.
    public let pathwayId: String?
    /// Attributes the tag does not define.
    public let unknownAttributes: [UnknownAttribute]
    /// Where the tag was.
    public let line: SourceLine
}
