/// A parsed `Content-Range: bytes first-last/complete` value (RFC 9110 §14.4).
public struct ContentRange: Hashable, Sendable {
    /// The first byte's offset.
    public let first: UInt64
    /// The last byte's offset (inclusive).
    public let last: UInt64
    /// The whole resource's length, when the server knows it.
    public let completeLength: UInt64?

    /// The number of bytes the range covers.
    public var length: UInt64 { last - first + 1 }

    /// Parses a satisfied-range value; nil for anything else (including `bytes */n`).
    /// - Complexity: O(n) in the value's length.
    public init?(headerValue: String) {
        var rest = Substring(headerValue).drop { $0 == " " }
        guard rest.hasPrefix("bytes ") else { return nil }
        rest = rest.dropFirst(6).drop { $0 == " " }
        guard let dash = rest.firstIndex(of: "-"), let slash = rest.firstIndex(of: "/"), dash < slash,
              let first = UInt64(rest[..<dash]),
              let last = UInt64(rest[rest.index(after: dash)..<slash]), first <= last
        else { return nil }
        let tail = rest[rest.index(after: slash)...].trimmingSuffix(" ")
        if tail == "*" {
            completeLength = nil
        } else {
            guard let complete = UInt64(tail), last < complete else { return nil }
            completeLength = complete
        }
        self.first = first
        self.last = last
    }
}

extension ContentRange {
    /// The complete length in an unsatisfied-range value (`bytes */n`, sent with a 416), or nil.
    public static func unsatisfiedLength(_ headerValue: String) -> UInt64? {
        var rest = Substring(headerValue).drop { $0 == " " }
        guard rest.hasPrefix("bytes ") else { return nil }
        rest = rest.dropFirst(6).drop { $0 == " " }
        guard rest.hasPrefix("*/") else { return nil }
        return UInt64(rest.dropFirst(2).trimmingSuffix(" "))
    }
}

extension Substring {
    fileprivate func trimmingSuffix(_ c: Character) -> Substring {
        var s = self
        while s.last == c { s = s.dropLast() }
        return s
    }
}
