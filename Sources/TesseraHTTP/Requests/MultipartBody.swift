/// A `multipart/form-data` body (RFC 7578) with explicit parts and boundary.
public struct MultipartBody: Sendable {
    /// One part.
    public struct Part: Sendable {
        /// The form field name.
        public var name: String
        /// The file name, for file parts.
        public var fileName: String?
        /// The part's media type; omitted (text/plain) when nil.
        public var contentType: String?
        /// The content.
        public var bytes: [UInt8]

        /// Creates a part.
        public init(name: String, fileName: String? = nil, contentType: String? = nil, bytes: [UInt8]) {
            self.name = name
            self.fileName = fileName
            self.contentType = contentType
            self.bytes = bytes
        }
    }

    /// The boundary: 1–70 characters of RFC 2046's `bchars`, not ending in a space.
    public let boundary: String
    /// The parts in order.
    public var parts: [Part]

    /// A body with an explicit boundary.
    /// - Throws: `invalidRequest` (`bad-boundary`) when the boundary breaks RFC 2046 §5.1.1.
    public init(boundary: String, parts: [Part] = []) throws(HTTPError) {
        let allowed = Set(Array("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz'()+_,-./:=? ".utf8))
        guard (1...70).contains(boundary.utf8.count), boundary.utf8.allSatisfy(allowed.contains), !boundary.hasSuffix(" ") else {
            throw HTTPError(.invalidRequest, code: .badBoundary, "The multipart boundary must be 1–70 RFC 2046 characters, not ending in a space.")
        }
        self.boundary = boundary
        self.parts = parts
    }

    /// A body with a random boundary.
    public init(parts: [Part] = []) {
        var generator = SystemRandomNumberGenerator()
        let random = (0..<4).map { _ in String(generator.next() as UInt64, radix: 36) }.joined()
        self.boundary = "tessera-" + random
        self.parts = parts
    }

    /// The media type to send with it.
    public var contentType: String { "multipart/form-data; boundary=\"\(boundary)\"" }

    /// The encoded body.
    /// - Throws: `invalidRequest` (`boundary-in-content`) when a part contains the delimiter.
    public func encode() throws(HTTPError) -> [UInt8] {
        let delimiter = Array("\r\n--\(boundary)".utf8)
        var out: [UInt8] = []
        for part in parts {
            guard !Self.contains(part.bytes, delimiter) else {
                throw HTTPError(.invalidRequest, code: .boundaryInContent, "The multipart part '\(part.name)' contains the boundary.")
            }
            out += Array("--\(boundary)\r\n".utf8)
            var disposition = "Content-Disposition: form-data; name=\"\(Self.escape(part.name))\""
            if let fileName = part.fileName { disposition += "; filename=\"\(Self.escape(fileName))\"" }
            out += Array((disposition + "\r\n").utf8)
            if let type = part.contentType { out += Array("Content-Type: \(Self.escape(type))\r\n".utf8) }
            out += [0x0D, 0x0A]
            out += part.bytes
            out += [0x0D, 0x0A]
        }
        out += Array("--\(boundary)--\r\n".utf8)
        return out
    }

    /// WHATWG's escaping for names in `multipart/form-data`: LF, CR and `"` percent-encoded.
    private static func escape(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\n": out += "%0A"
            case "\r": out += "%0D"
            case "\"": out += "%22"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    private static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        // The delimiter also matches at the very start of a part (no preceding CRLF there).
        let bare = Array(needle.dropFirst(2))
        if haystack.starts(with: bare) { return true }
        guard haystack.count >= needle.count else { return false }
        for start in 0...(haystack.count - needle.count) where haystack[start] == needle[0] {
            if haystack[start..<(start + needle.count)].elementsEqual(needle) { return true }
        }
        return false
    }
}
