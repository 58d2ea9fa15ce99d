import TesseraSupport

/// The signature chain of an `aws-chunked` body (S3's "Transferring Payload in Multiple
/// Chunks"): each chunk's signature covers its SHA-256 and the previous signature, the first
/// chained from the headers' seed signature; the body ends with a signed empty chunk.
struct AWSChunkSigner: Sendable {
    /// The day's signing key, the request's timestamp and scope.
    let key: [UInt8]
    let stamp: String
    let scope: String
    /// The signature the next chunk chains from.
    private(set) var previous: String

    init(key: [UInt8], stamp: String, scope: String, seed: String) {
        self.key = key
        self.stamp = stamp
        self.scope = scope
        previous = seed
    }

    /// Signs `chunk` (empty for the last) and returns its header, `<hex size>;chunk-signature=<64 hex>\r\n`.
    mutating func header(for chunk: UnsafeRawBufferPointer) -> [UInt8] {
        let toSign = ["AWS4-HMAC-SHA256-PAYLOAD", stamp, scope, previous, AWSSignatureV4.emptyPayloadHash,
                      SHA256Hasher.hash(chunk).hex].joined(separator: "\n")
        previous = HexCoding.encode(HMACSHA256.mac(key: key, toSign))
        return Array("\(String(chunk.count, radix: 16));chunk-signature=\(previous)\r\n".utf8)
    }

    /// The encoded length of `decoded` bytes in chunks of `chunkBytes`, the empty last chunk
    /// included: each chunk is its header, its bytes and CRLF.
    static func encodedLength(decoded: Int64, chunkBytes: Int) -> Int64 {
        func framed(_ size: Int64) -> Int64 { Int64(String(size, radix: 16).count + 17 + 64 + 2) + size + 2 }
        let whole = decoded / Int64(chunkBytes)
        let rest = decoded % Int64(chunkBytes)
        return whole * framed(Int64(chunkBytes)) + (rest > 0 ? framed(rest) : 0) + framed(0)
    }
}
