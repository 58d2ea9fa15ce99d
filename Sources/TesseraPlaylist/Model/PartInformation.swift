/// EXT-X-PART-INF (RFC 8216bis §4.4.3.7).
public struct PartInformation: Hashable, Sendable {
    /// PART-TARGET, seconds.
    public let partTarget: Double
    /// Attributes the tag does not define.
    public let unknownAttributes: [UnknownAttribute]
    /// Where the tag was.
    public let line: SourceLine
}
