import TesseraHTTP

/// A response a responder hands back. The server adds `Accept-Ranges`, answers `Range` on 200
/// bodies (206 / 416) and sends no body for HEAD.
public struct ServerResponse: Sendable {
    /// The body.
    public enum Body: Sendable {
        /// No body.
        case empty
        /// Bytes from memory (copied once into libmicrohttpd).
        case bytes([UInt8])
        /// A file, sent with sendfile from its descriptor without passing through Swift.
        case file(FileBody)
    }

    /// How the body is delivered: normally, or broken on purpose (the origin simulator's faults).
    public enum Delivery: Sendable, Equatable {
        /// Whole.
        case normal
        /// The full length is announced, `byteCount` bytes are sent, then the connection is cut.
        case truncated(after: UInt64)
        /// The full length is announced, `byteCount` bytes are sent, then nothing until the
        /// server's park expiry (or shutdown) cuts the connection.
        case stalled(after: UInt64)
        /// No length is announced: the body is sent with chunked transfer coding (the shape of
        /// a generated or proxied response).
        case unannouncedLength
    }

    /// Whether a `Range` request is answered with 206 / 416.
    public enum RangeHandling: Sendable, Equatable {
        /// Answer single ranges of a 200 body (the default).
        case honour
        /// Send the whole body with 200 whatever the request asked (a fault, or bodies that must
        /// not be sliced).
        case ignore
    }

    /// The status code.
    public var status: Int
    /// Extra header fields (never `Content-Length`: the server computes it).
    public var headers: HTTPHeaders
    /// The body.
    public var body: Body
    /// How the body is sent.
    public var delivery: Delivery = .normal
    /// Whether ranges are answered.
    public var rangeHandling: RangeHandling = .honour

    /// Creates a response.
    public init(status: Int, headers: HTTPHeaders = HTTPHeaders(), body: Body = .empty) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// A bodiless response with only a status (and optional headers).
    public static func status(_ code: Int, headers: HTTPHeaders = HTTPHeaders()) -> ServerResponse {
        ServerResponse(status: code, headers: headers, body: .bytes(Array("\(code)\n".utf8)))
    }

    /// The body's length.
    var bodyByteCount: UInt64 {
        switch body {
        case .empty: 0
        case .bytes(let bytes): UInt64(bytes.count)
        case .file(let file): file.byteCount
        }
    }
}
