/// A one-based line number in the playlist text (0 for an element built in code). It takes no
/// part in equality or hashing, so a model written and parsed again (where lines move) compares
/// equal to the original. Stored in 32 bits: playlists are bounded far below 4 billion lines.
public struct SourceLine: Hashable, Sendable, CustomStringConvertible, ExpressibleByIntegerLiteral {
    private let storage: UInt32

    /// The line number, starting at 1 (0: not from a text).
    public var number: Int { Int(storage) }

    /// Wraps a line number (clamped to 0…2^32−1).
    public init(_ number: Int) { storage = UInt32(clamping: number) }
    public init(integerLiteral value: Int) { self.init(value) }

    public static func == (lhs: SourceLine, rhs: SourceLine) -> Bool { true }
    public func hash(into hasher: inout Hasher) {}
    public var description: String { "line \(number)" }
}
