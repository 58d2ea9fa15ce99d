#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TesseraSupport

extension AWSSignatureV4 {
    /// The payload hash of a chunked streaming signature.
    public static let streamingPayload = "STREAMING-AWS4-HMAC-SHA256-PAYLOAD"

    /// Signs `request` with a chunked streaming signature (`STREAMING-AWS4-HMAC-SHA256-PAYLOAD`,
    /// as S3 documents it): the headers are signed with that payload hash (`Content-Encoding:
    /// aws-chunked`, `X-Amz-Decoded-Content-Length`, the encoded `Content-Length` among them),
    /// and the body becomes `aws-chunked` — chunks of `chunkBytes` (at least 8 KiB, S3's minimum),
    /// each prefixed by its size and a signature chained from the previous one (the first from
    /// the headers' seed signature), ending with a signed empty chunk. No body is hashed up front.
    ///
    /// The body must be in memory (`.bytes`, or none); a file body fails with `signing-failed`
    /// (sign it `.signed`, which reads it once to hash it, or `.unsigned` over HTTPS).
    /// - Throws: `signing-failed` for a file body, a chunk size under 8 KiB, or a URL without a host.
    public func signStreaming(_ request: inout HTTPRequest, at date: Date, chunkBytes: Int = 64 << 10) throws(HTTPError) {
        guard chunkBytes >= 8 << 10 else {
            throw HTTPError(.invalidRequest, code: .signingFailed, "A streaming signature's chunks are at least 8 KiB, not \(chunkBytes) bytes.")
        }
        let body: [UInt8]
        switch request.body {
        case nil: body = []
        case .bytes(let bytes)?: body = bytes
        case .file?:
            throw HTTPError(.invalidRequest, code: .signingFailed,
                            "A streaming signature needs the body in memory; sign a file body .signed or .unsigned instead.")
        }
        var chunks: [ArraySlice<UInt8>] = stride(from: 0, to: body.count, by: chunkBytes).map { body[$0..<min(body.count, $0 + chunkBytes)] }
        chunks.append([])
        let encodedLength = chunks.reduce(0) { $0 + Self.chunkHeaderLength($1.count) + $1.count + 2 }
        request.headers.remove("Content-Length")
        let encoding = request.headers["Content-Encoding"].map { "aws-chunked," + $0 } ?? "aws-chunked"
        request.headers.set("Content-Encoding", encoding)
        request.headers.set("X-Amz-Decoded-Content-Length", String(body.count))
        request.headers.set("Content-Length", String(encodedLength))
        let seed = try sign(&request, at: date, payloadHash: Self.streamingPayload, alwaysSendsContentSHA256: true)
        let stamp = Self.timestamp(date)
        let scope = self.scope(stamp)
        let key = signingKey(day: String(stamp.prefix(8)))
        var previous = seed
        var encoded: [UInt8] = []
        encoded.reserveCapacity(encodedLength)
        for chunk in chunks {
            let toSign = ["AWS4-HMAC-SHA256-PAYLOAD", stamp, scope, previous, Self.emptyPayloadHash,
                          SHA256Hasher.hash(Array(chunk)).hex].joined(separator: "\n")
            let signature = HexCoding.encode(HMACSHA256.mac(key: key, toSign))
            encoded.append(contentsOf: "\(String(chunk.count, radix: 16));chunk-signature=\(signature)\r\n".utf8)
            encoded.append(contentsOf: chunk)
            encoded.append(contentsOf: [0x0D, 0x0A])
            previous = signature
        }
        request.body = .bytes(encoded)
    }

    /// `<hex size>;chunk-signature=<64 hex>\r\n`.
    private static func chunkHeaderLength(_ size: Int) -> Int { String(size, radix: 16).count + 17 + 64 + 2 }
}
