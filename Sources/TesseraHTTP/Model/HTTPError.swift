/// The one error type of `TesseraHTTP`.
///
/// `stage` says where the request was when it failed (configuration, construction, transport,
/// status, decoding, file, cancelled); `category` says what kind of failure it was (what retry and
/// reporting policies switch on); `code` is a stable, payload-free name for the precise cause;
/// `message` is one sentence naming what failed and where, with the URL redacted (no query, no
/// user-info). Transport failures carry the raw curl code and OS errno for logs; status failures
/// carry the status and, only when the client opted in to payload capture, a redacted copy of the
/// body.
public struct HTTPError: Error, Sendable, CustomStringConvertible {
    /// The broad kind of failure.
    public struct Category: Hashable, Sendable, CustomStringConvertible {
        /// Stable text.
        public let rawValue: String
        init(_ rawValue: String) { self.rawValue = rawValue }
        public var description: String { rawValue }

        /// A name could not be resolved.
        public static let dns = Category("dns")
        /// No TCP connection could be made (refused, unreachable).
        public static let connect = Category("connect")
        /// The TLS handshake or certificate verification failed.
        public static let tls = Category("tls")
        /// A connect, low-speed, time-to-first-byte or total deadline passed.
        public static let timeout = Category("timeout")
        /// The caller cancelled the request, or the transport shut down under it.
        public static let cancelled = Category("cancelled")
        /// The body exceeded the request's byte limit.
        public static let tooLarge = Category("too-large")
        /// The connection broke mid-response (reset, truncated body, closed without a reply).
        public static let connectionLost = Category("connection-lost")
        /// The server's reply broke HTTP or the request's expectations (bad Content-Range, …).
        public static let `protocol` = Category("protocol")
        /// The request itself is unusable (bad URL, forbidden scheme, bad configuration).
        public static let invalidRequest = Category("invalid-request")
        /// libcurl failed internally (out of memory, bad option).
        public static let `internal` = Category("internal")
        /// The response's status is not one the request accepts.
        public static let status = Category("status")
        /// The body could not be decoded into the requested type.
        public static let decoding = Category("decoding")
        /// A local file could not be read, created or published.
        public static let file = Category("file")
    }

    /// Where the request was when it failed.
    public enum Stage: String, Sendable, CaseIterable {
        /// The client or a policy is misconfigured (bad base URL, bad pin, no token source).
        case configuration
        /// The request could not be built (bad path, body encoding failed).
        case requestConstruction = "request-construction"
        /// The exchange failed; `category` says how.
        case transport
        /// The server answered with a status the request does not accept.
        case status
        /// The body did not decode into the requested type.
        case decoding
        /// A file to upload or a download destination failed.
        case file
        /// The caller cancelled.
        case cancelled
    }

    /// The kind of failure.
    public let category: Category
    /// A stable name for the precise cause, such as `connect-timeout` or `range-mismatch`.
    public let code: String
    /// One sentence: what failed and where (URL redacted).
    public let message: String
    /// The libcurl result code, when libcurl reported the failure.
    public let curlCode: Int?
    /// The OS errno libcurl saw, when non-zero.
    public let osErrno: Int?
    /// Where the request was when it failed.
    public let stage: Stage
    /// The HTTP status, for `status` failures (and decoding failures of a received body).
    public internal(set) var status: Int?
    /// The request's URL in its event form (query values redacted), when known.
    public internal(set) var url: String?
    /// A redacted, bounded copy of the failure response's body — only when the client opted in to
    /// payload capture.
    public internal(set) var capturedPayload: String?

    /// Creates an error. Without `stage`, it follows from `category`: `invalid-request` is request
    /// construction; `cancelled`, `status`, `decoding` and `file` are their own stages; the rest
    /// are transport.
    public init(_ category: Category, code: String, _ message: String, curlCode: Int? = nil, osErrno: Int? = nil,
                stage: Stage? = nil) {
        self.category = category
        self.code = code
        self.message = message
        self.curlCode = curlCode
        self.osErrno = osErrno
        self.stage = stage ?? Self.stage(of: category)
    }

    private static func stage(of category: Category) -> Stage {
        switch category {
        case .invalidRequest: .requestConstruction
        case .cancelled: .cancelled
        case .status: .status
        case .decoding: .decoding
        case .file: .file
        default: .transport
        }
    }

    public var description: String { message }
}
