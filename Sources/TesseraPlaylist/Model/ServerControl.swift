/// EXT-X-SERVER-CONTROL (RFC 8216bis §4.4.3.8).
public struct ServerControl: Hashable, Sendable {
    /// CAN-SKIP-UNTIL, seconds.
    public let canSkipUntil: Double?
    /// CAN-SKIP-DATERANGES=YES.
    public let canSkipDateRanges: Bool
    /// HOLD-BACK, seconds.
    public let holdBack: Double?
    /// PART-HOLD-BACK, seconds.
    public let partHoldBack: Double?
    /// CAN-BLOCK-RELOAD=YES.
    public let canBlockReload: Bool
    /// Attributes the tag does not define.
    public let unknownAttributes: [UnknownAttribute]
    /// Where the tag was.
    public let line: SourceLine
}
