/// A decimal-resolution: width × height in pixels (RFC 8216bis §4.2).
public struct Resolution: Hashable, Sendable, CustomStringConvertible {
    /// Width in pixels.
    public var width: UInt64
    /// Height in pixels.
    public var height: UInt64

    /// Creates a resolution.
    public init(width: UInt64, height: UInt64) {
        self.width = width
        self.height = height
    }

    public var description: String { "\(width)x\(height)" }
}
