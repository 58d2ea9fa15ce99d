/// Bounds the parser enforces; every one has a safe default.
public struct PlaylistLimits: Sendable, Equatable {
    /// Largest document accepted. Default 16 MiB.
    public var maximumBytes = 16 << 20
    /// Longest line accepted. Default 64 KiB.
    public var maximumLineBytes = 64 << 10
    /// Most segments, parts, variants, renditions or other repeated tags accepted. Default 500,000.
    public var maximumElements = 500_000
    /// Most bytes that variable substitution may produce in all. Default 64 MiB.
    public var maximumExpandedBytes = 64 << 20
    /// Most attributes in one attribute list. Default 64.
    public var maximumAttributes = 64

    /// The defaults.
    public init() {}
}
