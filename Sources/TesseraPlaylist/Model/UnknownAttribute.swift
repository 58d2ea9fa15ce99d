/// An attribute a known tag does not define, kept verbatim in order (RFC 8216bis §6.3.1).
public struct UnknownAttribute: Hashable, Sendable {
    /// The attribute name.
    public var name: String
    /// The value exactly as written, quotes included when quoted.
    public var rawValue: String

    /// Creates an unknown attribute.
    public init(name: String, rawValue: String) {
        self.name = name
        self.rawValue = rawValue
    }
}
