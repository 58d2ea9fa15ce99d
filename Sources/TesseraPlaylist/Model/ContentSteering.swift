/// EXT-X-CONTENT-STEERING (RFC 8216bis §4.4.6.6).
public struct ContentSteering: Hashable, Sendable {
    /// SERVER-URI of the steering manifest.
    public var serverURI: String
    /// PATHWAY-ID to use until the first manifest arrives.
    public var pathwayId: String?
    /// Attributes the tag does not define.
    public var unknownAttributes: [UnknownAttribute]
    /// Where the tag was.
    public var line: SourceLine

    /// Creates a value; `line` is where it was parsed (0 for one built in code).
    public init(serverURI: String,
                pathwayId: String? = nil,
                unknownAttributes: [UnknownAttribute] = [],
                line: SourceLine = SourceLine(0)) {
        self.serverURI = serverURI
        self.pathwayId = pathwayId
        self.unknownAttributes = unknownAttributes
        self.line = line
    }
}
