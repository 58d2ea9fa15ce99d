/// Bounds the parser enforces; every one has a safe default.
public struct PlaylistLimits: Sendable, Equatable {
    /// Largest document accepted. Default 16 MiB.
    public var maximumBytes = 16 << 20
    /// Longest line accepted. Default 64 KiB.
    public var maximumLineBytes = 64 << 10
    /// Most segments (or variants) accepted. Default 500,000.
    public var maximumElements = 500_000

    /// The defaults.
    public init() {}
}
