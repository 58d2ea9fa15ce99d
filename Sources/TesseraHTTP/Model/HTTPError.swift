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

    /// A stable, payload-free name for the precise cause of a failure, such as
    /// `connect-timeout`. Extensible: interceptors and adapters may define their own.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        /// Stable text.
        public let rawValue: String
        /// Creates a code from its stable text.
        public init(_ rawValue: String) { self.rawValue = rawValue }
        public var description: String { rawValue }

        /// A header field cannot be sent (a name that is not a token, a line break in a value, or
        /// a field a protocol handshake owns).
        public static let badHeader = Code("bad-header")
        /// libcrypto could not produce random bytes or a digest.
        public static let cryptoUnavailable = Code("crypto-unavailable")
        /// The server did not answer a WebSocket upgrade within the handshake deadline.
        public static let handshakeTimeout = Code("handshake-timeout")
        /// The other side did not answer a WebSocket close within the close deadline.
        public static let closeTimeout = Code("close-timeout")
        /// A WebSocket message or ping was sent on a task that is not open (or ended before it
        /// was written).
        public static let webSocketClosed = Code("websocket-closed")
        /// The client's base URL is unusable (query, fragment or user-info in it, or not absolute).
        public static let badBaseURL = Code("bad-base-url")
        /// A multipart boundary is not valid (RFC 2046: 1–70 allowed characters).
        public static let badBoundary = Code("bad-boundary")
        /// An endpoint path is unusable (`?`, `#`, `.` or `..` segments).
        public static let badPath = Code("bad-path")
        /// A public-key pin is not `sha256//` followed by 32 bytes of base64.
        public static let badPin = Code("bad-pin")
        /// A redirect names a location that cannot be used.
        public static let badRedirect = Code("bad-redirect")
        /// The request URL cannot be used (malformed, or a scheme libcurl does not speak).
        public static let badURL = Code("bad-url")
        /// A request body could not be encoded.
        public static let bodyEncodingFailed = Code("body-encoding-failed")
        /// The body exceeded the request's byte limit.
        public static let bodyTooLarge = Code("body-too-large")
        /// A multipart part contains its boundary.
        public static let boundaryInContent = Code("boundary-in-content")
        /// A disk cache folder cannot be used.
        public static let cacheUnusable = Code("cache-unusable")
        /// Nothing is cached and the policy does not load (`Repository.Policy.returnCacheDontLoad`).
        public static let cacheMiss = Code("cache-miss")
        /// The request was cancelled.
        public static let cancelled = Code("cancelled")
        /// The host's circuit breaker refuses requests for now.
        public static let circuitOpen = Code("circuit-open")
        /// No TCP connection could be made.
        public static let connectFailed = Code("connect-failed")
        /// Connecting (TCP and TLS) took longer than the connect timeout.
        public static let connectTimeout = Code("connect-timeout")
        /// The connection broke before the response ended.
        public static let connectionLost = Code("connection-lost")
        /// The reader of a streamed body went away.
        public static let consumerGone = Code("consumer-gone")
        /// A stored mutation would carry a credential (header or query item); refused.
        public static let credentialsInMutation = Code("credentials-in-mutation")
        /// libcurl refused to add a transfer to its multi handle.
        public static let curlAdd = Code("curl-add")
        /// libcurl could not create a handle.
        public static let curlInit = Code("curl-init")
        /// The body did not decode into the requested type.
        public static let decodingFailed = Code("decoding-failed")
        /// A download destination cannot be written.
        public static let destinationUnwritable = Code("destination-unwritable")
        /// The host name could not be resolved.
        public static let dnsFailed = Code("dns-failed")
        /// A streamed event or line is larger than its decoder's limit.
        public static let eventTooLarge = Code("event-too-large")
        /// No response head arrived within the time-to-first-byte limit.
        public static let firstByteTimeout = Code("first-byte-timeout")
        /// The response header block (or one header line) is larger than its limit.
        public static let headersTooLarge = Code("headers-too-large")
        /// A plain-http base URL was given without allowing http.
        public static let insecureBaseURL = Code("insecure-base-url")
        /// A redirect would downgrade https to http; refused.
        public static let insecureRedirect = Code("insecure-redirect")
        /// A plain-http URL was given without allowing http.
        public static let insecureURL = Code("insecure-url")
        /// A request needs authentication but the client has no token source.
        public static let missingTokenSource = Code("missing-token-source")
        /// The transport ended without a response.
        public static let noResponse = Code("no-response")
        /// The server's reply broke HTTP.
        public static let protocolError = Code("protocol-error")
        /// A bounded queue (mutations) is full.
        public static let queueFull = Code("queue-full")
        /// A 206 answered another byte range than the one asked for.
        public static let rangeMismatch = Code("range-mismatch")
        /// A byte range was asked for and the server sent the whole resource.
        public static let rangeNotHonoured = Code("range-not-honoured")
        /// A byte-range response ended before the range's length.
        public static let rangeShort = Code("range-short")
        /// A record is larger than its store accepts.
        public static let recordTooLarge = Code("record-too-large")
        /// A redirect leads back to a URL already visited.
        public static let redirectLoop = Code("redirect-loop")
        /// A body ended before its announced length.
        public static let shortBody = Code("short-body")
        /// A request could not be signed (AWS Signature V4): no host, an expiry out of range, a
        /// body file that cannot be read.
        public static let signingFailed = Code("signing-failed")
        /// The transport's engine thread could not start.
        public static let threadStart = Code("thread-start")
        /// TLS failed: handshake, certificate verification or a pin mismatch.
        public static let tlsFailed = Code("tls-failed")
        /// A download manager holds its maximum number of downloads.
        public static let tooManyDownloads = Code("too-many-downloads")
        /// More redirects than the redirect policy allows.
        public static let tooManyRedirects = Code("too-many-redirects")
        /// A transfer passed its low-speed or total deadline.
        public static let transferTimeout = Code("transfer-timeout")
        /// The transport was shut down under the request.
        public static let transportShutDown = Code("transport-shut-down")
        /// The response's status is not one the request accepts.
        public static let unacceptableStatus = Code("unacceptable-status")
        /// No download has that ID.
        public static let unknownDownload = Code("unknown-download")
        /// A cross-origin redirect of a request whose credentials cannot be stripped; refused.
        public static let unsafeCrossOriginRedirect = Code("unsafe-cross-origin-redirect")
        /// A scheme other than http and https.
        public static let unsupportedScheme = Code("unsupported-scheme")
        /// An upload's file cannot be read.
        public static let uploadUnreadable = Code("upload-unreadable")
        /// A fresh URL for a restored download names another host or path.
        public static let urlMismatch = Code("url-mismatch")
        /// A restored download needs a fresh URL before it can resume.
        public static let urlNeeded = Code("url-needed")
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
    public let code: Code
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
    public init(_ category: Category, code: Code, _ message: String, curlCode: Int? = nil, osErrno: Int? = nil,
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
