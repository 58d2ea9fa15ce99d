/// Which variant of a multivariant playlist a download takes.
public enum VariantPreference: Sendable, Hashable, CustomStringConvertible {
    /// The highest BANDWIDTH (ties: the higher SCORE, then the larger resolution).
    case best
    /// The lowest BANDWIDTH.
    case lowest
    /// The highest BANDWIDTH whose RESOLUTION height is at most this (variants without a
    /// RESOLUTION do not qualify).
    case maximumHeight(Int)
    /// The highest BANDWIDTH at most this many bits per second.
    case maximumBandwidth(UInt64)

    public var description: String {
        switch self {
        case .best: "best"
        case .lowest: "lowest"
        case .maximumHeight(let height): "max-height \(height)"
        case .maximumBandwidth(let bandwidth): "max-bandwidth \(bandwidth)"
        }
    }
}
