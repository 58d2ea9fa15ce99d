/// A stable, payload-free diagnostic identifier.
public struct DiagnosticID: Hashable, Sendable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// The stable text.
    public let rawValue: String
    /// Creates an ID.
    public init(_ rawValue: String) { self.rawValue = rawValue }
    public init(stringLiteral value: String) { rawValue = value }
    public var description: String { rawValue }

    /// An attribute list that cannot be split (§4.2).
    public static let malformedAttributeList: DiagnosticID = "malformed-attribute-list"
    /// An attribute value of the wrong type or form (§4.2).
    public static let malformedAttribute: DiagnosticID = "malformed-attribute"
    /// A REQUIRED attribute is missing; the tag is ignored.
    public static let missingAttribute: DiagnosticID = "missing-attribute"
    /// An enumerated value the spec does not define; the tag is ignored (§6.3.1).
    public static let unknownEnumeratedValue: DiagnosticID = "unknown-enumerated-value"
    /// A tag value that is not of the tag's form (EXTINF, BYTERANGE, integers, dates).
    public static let malformedTagValue: DiagnosticID = "malformed-tag-value"
    /// A tag that may appear once appears again (§4.4).
    public static let repeatedTag: DiagnosticID = "repeated-tag"
    /// A URI line with no EXTINF before it in a media playlist (§4.4.4.1).
    public static let segmentWithoutDuration: DiagnosticID = "segment-without-extinf"
    /// EXT-X-STREAM-INF not followed by a URI line (§4.4.6.2).
    public static let variantWithoutURI: DiagnosticID = "stream-inf-without-uri"
    /// A URI line in a multivariant playlist with no EXT-X-STREAM-INF before it.
    public static let uriWithoutStreamInf: DiagnosticID = "uri-without-stream-inf"
    /// A byte range with no offset and no earlier range of the same resource to continue (§4.4.4.2).
    public static let byteRangeWithoutPrevious: DiagnosticID = "byterange-without-previous"
    /// A media playlist without EXT-X-TARGETDURATION (§4.4.3.1).
    public static let missingTargetDuration: DiagnosticID = "missing-targetduration"
    /// EXT-X-DEFINE or a variable reference in a playlist whose version is below 8 (or 11 for QUERYPARAM) (§4.4.2.3, §8).
    public static let variableVersion: DiagnosticID = "variable-version"
    /// A tag after the last segment that belongs to no segment (segment tags with no URI following).
    public static let danglingSegmentTags: DiagnosticID = "dangling-segment-tags"
    /// The document starts with a UTF-8 byte order mark (§4.1).
    public static let byteOrderMark: DiagnosticID = "byte-order-mark"
    /// A lower-case or otherwise non-conforming attribute name (§4.2).
    public static let attributeNameCharacters: DiagnosticID = "attribute-name-characters"
}
