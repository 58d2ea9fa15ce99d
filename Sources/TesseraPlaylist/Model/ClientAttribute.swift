/// An `X-` attribute of EXT-X-DATERANGE: a quoted-string, hexadecimal-sequence or
/// signed-decimal-floating-point (RFC 8216bis §4.4.5.1).
public struct ClientAttribute: Hashable, Sendable {
    /// The value, typed by how it was written.
    public enum Value: Hashable, Sendable {
        /// A quoted-string (after variable substitution).
        case string(String)
        /// A hexadecimal-sequence.
        case hexadecimal([UInt8])
        /// A signed decimal number, with its text as written.
        case number(Double, text: String)
    }

    /// The name, starting with `X-`.
    public var name: String
    /// The value.
    public var value: Value

    /// Creates a value.
    public init(name: String,
                value: Value) {
        self.name = name
        self.value = value
    }
}
