/// EXT-X-CONTENT-STEERING (RFC 8216bis §4.4.6.6).
public struct ContentSteering: Hashable, Sendable {
    /// SERVER-URI of the steering manifest.
    public let serverURI: String
    /// PATHWAY-ID to use until the first manifest arrives.
    public let pathwayId: String?
    /// Attributes the tag does not define.
    public let unknownAttributes: [UnknownAttribute]
    /// Where the tag was.
    public let line: SourceLine
}
