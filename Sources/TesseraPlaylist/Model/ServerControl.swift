/// EXT-X-SERVER-CONTROL (RFC 8216bis §4.4.3.8).
public struct ServerControl: Hashable, Sendable {
    /// CAN-SKIP-UNTIL, seconds.
    public var canSkipUntil: Double?
    /// CAN-SKIP-DATERANGES=YES.
    public var canSkipDateRanges: Bool
    /// HOLD-BACK, seconds.
    public var holdBack: Double?
    /// PART-HOLD-BACK, seconds.
    public var partHoldBack: Double?
    /// CAN-BLOCK-RELOAD=YES.
    public var canBlockReload: Bool
    /// Attributes the tag does not define.
    public var unknownAttributes: [UnknownAttribute]
    /// Where the tag was.
    public var line: SourceLine

    /// Creates a value; `line` is where it was parsed (0 for one built in code).
    public init(canSkipUntil: Double? = nil,
                canSkipDateRanges: Bool = false,
                holdBack: Double? = nil,
                partHoldBack: Double? = nil,
                canBlockReload: Bool = false,
                unknownAttributes: [UnknownAttribute] = [],
                line: SourceLine = SourceLine(0)) {
        self.canSkipUntil = canSkipUntil
        self.canSkipDateRanges = canSkipDateRanges
        self.holdBack = holdBack
        self.partHoldBack = partHoldBack
        self.canBlockReload = canBlockReload
        self.unknownAttributes = unknownAttributes
        self.line = line
    }
}
