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
    public var type: MediaType
    /// URI as written after variable substitution.
    public var uri: String?
    /// GROUP-ID.
    public var groupId: String
    /// LANGUAGE.
    public var language: String?
    /// ASSOC-LANGUAGE.
    public var associatedLanguage: String?
    /// NAME.
    public var name: String
    /// STABLE-RENDITION-ID.
    public var stableRenditionId: String?
    /// DEFAULT=YES.
    public var isDefault: Bool
    /// AUTOSELECT=YES.
    public var isAutoselect: Bool
    /// FORCED=YES.
    public var isForced: Bool
    /// INSTREAM-ID.
    public var instreamId: String?
    /// BIT-DEPTH.
    public var bitDepth: UInt64?
    /// SAMPLE-RATE.
    public var sampleRate: UInt64?
    /// CHARACTERISTICS as written.
    public var characteristics: String?
    /// CHANNELS as written.
    public var channels: String?
    /// Attributes the tag does not define.
    public var unknownAttributes: [UnknownAttribute]
    /// Where the tag was.
    public var line: SourceLine

    /// Creates a value; `line` is where it was parsed (0 for one built in code).
    public init(type: MediaType,
                uri: String? = nil,
                groupId: String,
                language: String? = nil,
                associatedLanguage: String? = nil,
                name: String,
                stableRenditionId: String? = nil,
                isDefault: Bool = false,
                isAutoselect: Bool = false,
                isForced: Bool = false,
                instreamId: String? = nil,
                bitDepth: UInt64? = nil,
                sampleRate: UInt64? = nil,
                characteristics: String? = nil,
                channels: String? = nil,
                unknownAttributes: [UnknownAttribute] = [],
                line: SourceLine = SourceLine(0)) {
        self.type = type
        self.uri = uri
        self.groupId = groupId
        self.language = language
        self.associatedLanguage = associatedLanguage
        self.name = name
        self.stableRenditionId = stableRenditionId
        self.isDefault = isDefault
        self.isAutoselect = isAutoselect
        self.isForced = isForced
        self.instreamId = instreamId
        self.bitDepth = bitDepth
        self.sampleRate = sampleRate
        self.characteristics = characteristics
        self.channels = channels
        self.unknownAttributes = unknownAttributes
        self.line = line
    }
}
