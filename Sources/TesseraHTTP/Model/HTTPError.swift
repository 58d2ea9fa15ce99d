/// The one error type of `TesseraHTTP`.
///
/// `category` says what kind of failure it was (what retry and reporting policies switch on);
/// `code` is a stable, payload-free name for the precise cause; `message` is one sentence naming
/// what failed and where, with the URL redacted (no query, no user-info). Transport failures carry
/// the raw curl code and OS errno for logs.
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

    /// Creates an error.
    public init(_ category: Category, code: String, _ message: String, curlCode: Int? = nil, osErrno: Int? = nil) {
        self.category = category
        self.code = code
        self.message = message
        self.curlCode = curlCode
        self.osErrno = osErrno
    }

    public var description: String { message }
}
