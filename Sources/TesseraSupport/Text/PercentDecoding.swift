/// Percent-decoding of URI components (RFC 3986 §2.1), as query parameters need it: `%XX` to the
/// byte it names, and — for form-encoded queries — `+` to a space. Without Foundation.
package enum PercentDecoding {
    /// The decoded text of `text`, or nil for a malformed escape or bytes that are not UTF-8.
    /// - Complexity: O(n).
    package static func decode(_ text: some StringProtocol, plusIsSpace: Bool = false) -> String? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        var iterator = text.utf8.makeIterator()
        while let byte = iterator.next() {
            switch byte {
            case UInt8(ascii: "%"):
                guard let high = iterator.next().flatMap(HexCoding.digitValue), let low = iterator.next().flatMap(HexCoding.digitValue) else { return nil }
                bytes.append(high << 4 | low)
            case UInt8(ascii: "+") where plusIsSpace:
                bytes.append(UInt8(ascii: " "))
            default:
                bytes.append(byte)
            }
        }
        return String(validating: bytes, as: UTF8.self)
    }
}
