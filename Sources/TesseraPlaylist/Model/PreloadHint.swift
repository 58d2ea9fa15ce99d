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
    public let type: HintType
    /// URI as written after variable substitution.
    public let uri: String
    /// BYTERANGE-START.
    public let byteRangeStart: UInt64?
    /// BYTERANGE-LENGTH.
    public let byteRangeLength: UInt64?
    /// Attributes the tag does not define.
    public let unknownAttributes: [UnknownAttribute]
    /// Where the tag was.
    public let line: SourceLine
}
