/// How a `Range` header applies to a body of known size (RFC 9110 §14.2), the way the server
/// answers it: one `bytes=` range only; anything else is ignored (200).
public enum RangeResolution: Equatable, Sendable {
    /// Send everything (no header, an unparsable one, several ranges, another unit).
    case whole
    /// Send `length` bytes from `offset` with 206.
    case partial(offset: UInt64, length: UInt64)
    /// 416 with `Content-Range: bytes */size`.
    case unsatisfiable

    /// Resolves `header` against a body of `size` bytes.
    /// - Complexity: O(n) in the header's length.
    public init(header: String?, size: UInt64) {
        guard let header else { self = .whole; return }
        let bytes = Array(header.utf8)
        let prefix = Array("bytes=".utf8)
        guard bytes.count > prefix.count, Array(bytes.prefix(prefix.count)) == prefix else { self = .whole; return }
        let spec = bytes[prefix.count...].filter { $0 != UInt8(ascii: " ") }
        guard !spec.contains(UInt8(ascii: ",")), let dash = spec.firstIndex(of: UInt8(ascii: "-")) else {
            self = .whole; return
        }
        let first = Self.number(spec[spec.startIndex..<dash])
        let last = Self.number(spec[(dash + 1)...])
        switch (first, last) {
        case (.some(let a), .some(let b)):
            guard a <= b else { self = .whole; return }
            guard a < size else { self = .unsatisfiable; return }
            self = .partial(offset: a, length: min(b, size - 1) - a + 1)
        case (.some(let a), .none) where spec.last == UInt8(ascii: "-"):
            guard a < size else { self = .unsatisfiable; return }
            self = .partial(offset: a, length: size - a)
        case (.none, .some(let n)) where spec.first == UInt8(ascii: "-"):
            guard n > 0, size > 0 else { self = .unsatisfiable; return }
            let length = min(n, size)
            self = .partial(offset: size - length, length: length)
        default:
            self = .whole
        }
    }

    private static func number(_ digits: ArraySlice<UInt8>) -> UInt64? {
        guard !digits.isEmpty, digits.count <= 19 else { return nil }
        var value: UInt64 = 0
        for d in digits {
            guard d >= UInt8(ascii: "0"), d <= UInt8(ascii: "9") else { return nil }
            value = value * 10 + UInt64(d - UInt8(ascii: "0"))
        }
        return value
    }
}
