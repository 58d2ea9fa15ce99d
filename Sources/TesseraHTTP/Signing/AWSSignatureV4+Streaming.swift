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
    /// The body is encoded as it is sent (`.stream`), one chunk in memory at a time, and again
    /// from its start by each attempt; a file body (`.file`) that changes size after signing fails
    /// the sending (`file`, `upload-unreadable`) instead of sending what the signature does not
    /// cover. Signing a request signed this way again (a clock skew retry) encodes its original
    /// body afresh.
    /// - Throws: `signing-failed` for a chunk size under 8 KiB or a URL without a host; `file`
    ///   (`upload-unreadable`) for a file body that cannot be opened or is not a regular file.
    public func signStreaming(_ request: inout HTTPRequest, at date: Date, chunkBytes: Int = 64 << 10) throws(HTTPError) {
        guard chunkBytes >= 8 << 10 else {
            throw HTTPError(.invalidRequest, code: .signingFailed, "A streaming signature's chunks are at least 8 KiB, not \(chunkBytes) bytes.")
        }
        let source: any HTTPBodyStream
        var encodings = request.headers["Content-Encoding"].map { Self.tokens($0) } ?? []
        switch request.body {
        case nil: source = BytesBodyStream([])
        case .bytes(let bytes)?: source = BytesBodyStream(bytes)
        case .file(let file)?: source = try FileBodyStream(file)
        case .stream(let encoded as AWSChunkedBodyStream)?:
            source = encoded.source   // signed before: encode the original body again
            if encodings.first == "aws-chunked" { encodings.removeFirst() }
        case .stream(let stream)?: source = stream
        }
        request.headers.remove("Content-Length")
        request.headers.set("Content-Encoding", (["aws-chunked"] + encodings).joined(separator: ","))
        request.headers.set("X-Amz-Decoded-Content-Length", String(source.length))
        request.headers.set("Content-Length", String(AWSChunkSigner.encodedLength(decoded: source.length, chunkBytes: chunkBytes)))
        let seed = try sign(&request, at: date, payloadHash: Self.streamingPayload, alwaysSendsContentSHA256: true)
        let stamp = Self.timestamp(date)
        let signer = AWSChunkSigner(key: signingKey(day: String(stamp.prefix(8))), stamp: stamp, scope: scope(stamp), seed: seed)
        request.body = .stream(AWSChunkedBodyStream(source: source, chunkBytes: chunkBytes, signer: signer))
    }

    /// The comma-separated tokens of a header value (a coding token holds no blank).
    private static func tokens(_ value: String) -> [String] {
        value.split(separator: ",").map { String($0.filter { $0 != " " && $0 != "\t" }) }.filter { !$0.isEmpty }
    }
}
