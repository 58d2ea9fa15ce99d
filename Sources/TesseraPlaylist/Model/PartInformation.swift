/// EXT-X-PART-INF (RFC 8216bis §4.4.3.7).
public struct PartInformation: Hashable, Sendable {
    /// PART-TARGET, seconds.
    public var partTarget: Double
    /// Attributes the tag does not define.
    public var unknownAttributes: [UnknownAttribute]
    /// Where the tag was.
    public var line: SourceLine

    /// Creates a value; `line` is where it was parsed (0 for one built in code).
    public init(partTarget: Double,
                unknownAttributes: [UnknownAttribute] = [],
                line: SourceLine = SourceLine(0)) {
        self.partTarget = partTarget
        self.unknownAttributes = unknownAttributes
        self.line = line
    }
}
