/// EXT-X-PRELOAD-HINT (RFC 8216bis §4.4.5.3).
public struct PreloadHint: Hashable, Sendable {
    /// TYPE.
    public enum HintType: Hashable, Sendable, CustomStringConvertible {
        /// A partial segment.
        case part
        /// A media initialization section.
        case map
        /// A type this version does not know (clients ignore it).
        case other(String)

        public var description: String {
            switch self {
            case .part: "PART"
            case .map: "MAP"
            case .other(let text): text
            }
        }
    }

    /// TYPE.
    public var type: HintType
    /// URI as written after variable substitution.
    public var uri: String
    /// BYTERANGE-START.
    public var byteRangeStart: UInt64?
    /// BYTERANGE-LENGTH.
    public var byteRangeLength: UInt64?
    /// Attributes the tag does not define.
    public var unknownAttributes: [UnknownAttribute]
    /// Where the tag was.
    public var line: SourceLine

    /// Creates a value; `line` is where it was parsed (0 for one built in code).
    public init(type: HintType,
                uri: String,
                byteRangeStart: UInt64? = nil,
                byteRangeLength: UInt64? = nil,
                unknownAttributes: [UnknownAttribute] = [],
                line: SourceLine = SourceLine(0)) {
        self.type = type
        self.uri = uri
        self.byteRangeStart = byteRangeStart
        self.byteRangeLength = byteRangeLength
        self.unknownAttributes = unknownAttributes
        self.line = line
    }
}
