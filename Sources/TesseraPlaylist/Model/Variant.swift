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
    public var uri: String
    /// BANDWIDTH, bit/s.
    public var bandwidth: UInt64
    /// AVERAGE-BANDWIDTH, bit/s.
    public var averageBandwidth: UInt64?
    /// SCORE.
    public var score: Double?
    /// CODECS as written.
    public var codecs: String?
    /// SUPPLEMENTAL-CODECS as written.
    public var supplementalCodecs: String?
    /// RESOLUTION.
    public var resolution: Resolution?
    /// FRAME-RATE.
    public var frameRate: Double?
    /// HDCP-LEVEL.
    public var hdcpLevel: HDCPLevel?
    /// ALLOWED-CPC as written.
    public var allowedCPC: String?
    /// VIDEO-RANGE.
    public var videoRange: VideoRange?
    /// REQ-VIDEO-LAYOUT as written.
    public var requiredVideoLayout: String?
    /// STABLE-VARIANT-ID.
    public var stableVariantId: String?
    /// AUDIO group.
    public var audio: String?
    /// VIDEO group.
    public var video: String?
    /// SUBTITLES group.
    public var subtitles: String?
    /// CLOSED-CAPTIONS.
    public var closedCaptions: ClosedCaptions?
    /// PATHWAY-ID.
    public var pathwayId: String?
    /// Attributes the tag does not define.
    public var unknownAttributes: [UnknownAttribute]
    /// Where the tag was.
    public var line: SourceLine

    /// Creates a value; `line` is where it was parsed (0 for one built in code).
    public init(uri: String,
                bandwidth: UInt64,
                averageBandwidth: UInt64? = nil,
                score: Double? = nil,
                codecs: String? = nil,
                supplementalCodecs: String? = nil,
                resolution: Resolution? = nil,
                frameRate: Double? = nil,
                hdcpLevel: HDCPLevel? = nil,
                allowedCPC: String? = nil,
                videoRange: VideoRange? = nil,
                requiredVideoLayout: String? = nil,
                stableVariantId: String? = nil,
                audio: String? = nil,
                video: String? = nil,
                subtitles: String? = nil,
                closedCaptions: ClosedCaptions? = nil,
                pathwayId: String? = nil,
                unknownAttributes: [UnknownAttribute] = [],
                line: SourceLine = SourceLine(0)) {
        self.uri = uri
        self.bandwidth = bandwidth
        self.averageBandwidth = averageBandwidth
        self.score = score
        self.codecs = codecs
        self.supplementalCodecs = supplementalCodecs
        self.resolution = resolution
        self.frameRate = frameRate
        self.hdcpLevel = hdcpLevel
        self.allowedCPC = allowedCPC
        self.videoRange = videoRange
        self.requiredVideoLayout = requiredVideoLayout
        self.stableVariantId = stableVariantId
        self.audio = audio
        self.video = video
        self.subtitles = subtitles
        self.closedCaptions = closedCaptions
        self.pathwayId = pathwayId
        self.unknownAttributes = unknownAttributes
        self.line = line
    }
}
