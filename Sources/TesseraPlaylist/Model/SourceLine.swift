/// A one-based line number in the playlist text. It takes no part in equality or hashing, so a
/// model written and parsed again (where lines move) compares equal to the original.
public struct SourceLine: Hashable, Sendable, CustomStringConvertible, ExpressibleByIntegerLiteral {
    /// The line number, starting at 1.
    public let number: Int

    /// Wraps a line number.
    public init(_ number: Int) { self.number = number }
    public init(integerLiteral value: Int) { number = value }

    public static func == (lhs: SourceLine, rhs: SourceLine) -> Bool { true }
    public func hash(into hasher: inout Hasher) {}
    public var description: String { "line \(number)" }
}
