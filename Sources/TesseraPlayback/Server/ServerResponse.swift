
/// A response a responder hands back. The server adds `Accept-Ranges`, answers `Range` on 200
/// bodies in memory or in a file (206 / 416) and sends no body for HEAD.
public struct ServerResponse: Sendable {
    /// The body.
    public enum Body: Sendable {
        /// No body.
        case empty
        /// Bytes from memory (copied once into libmicrohttpd).
        case bytes([UInt8])
        /// A file, sent with sendfile from its descriptor without passing through Swift.
        case file(FileBody)
        /// Bytes produced over time by `producer`; `length` is announced as Content-Length, or
        /// with nil the body is sent with chunked transfer coding. Sent as produced: the server
        /// does not answer `Range` for it (the responder decides what to send).
        case stream(length: UInt64?, producer: any BodyProducer)
    }

    /// The status code.
    public var status: Int
    /// Extra header fields (never `Content-Length`: the server computes it).
    public var headers: ResponseHeaders
    /// The body.
    public var body: Body
    /// Whether the server answers a `Range` for this 200 body (default true; false sends the
    /// whole body, as after an `If-Range` that does not match).
    public var servesRanges = true

    /// Creates a response.
    public init(status: Int, headers: ResponseHeaders = ResponseHeaders(), body: Body = .empty, servesRanges: Bool = true) {
        self.status = status
        self.headers = headers
        self.body = body
        self.servesRanges = servesRanges
    }

    /// A bodiless response with only a status (and optional headers).
    public static func status(_ code: Int, headers: ResponseHeaders = ResponseHeaders()) -> ServerResponse {
        ServerResponse(status: code, headers: headers, body: .bytes(Array("\(code)\n".utf8)))
    }

    /// The body's length.
    var bodyByteCount: UInt64 {
        switch body {
        case .empty: 0
        case .bytes(let bytes): UInt64(bytes.count)
        case .file(let file): file.byteCount
        case .stream(let length, _): length ?? 0
        }
    }
}
