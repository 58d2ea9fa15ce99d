/// A request as a responder sees it: copied out of libmicrohttpd's connection pool, so it may
/// outlive the handler call.
public struct ServerRequest: Sendable {
    /// GET or HEAD (others never reach responders: the server answers 405).
    public enum Method: Sendable, Equatable {
        /// GET
        case get
        /// HEAD
        case head
    }

    /// The method.
    public let method: Method
    /// The percent-decoded path, starting with `/`, query removed.
    public let path: String
    /// Query arguments in order, decoded.
    public let query: [(name: String, value: String?)]
    /// The raw `Range` header, if any (the server resolves it; responders rarely need it).
    public let rangeHeader: String?
    /// The raw `If-Range` header, if any (a responder whose validator it does not match sets
    /// `ServerResponse.servesRanges` to false: the whole body is sent).
    public let ifRangeHeader: String?
    /// The raw `If-None-Match` header, if any.
    public let ifNoneMatchHeader: String?

    /// Creates a request (the server, and tests of responders).
    public init(method: Method, path: String, query: [(name: String, value: String?)] = [], rangeHeader: String? = nil,
                ifRangeHeader: String? = nil, ifNoneMatchHeader: String? = nil) {
        self.method = method
        self.path = path
        self.query = query
        self.rangeHeader = rangeHeader
        self.ifRangeHeader = ifRangeHeader
        self.ifNoneMatchHeader = ifNoneMatchHeader
    }

    /// The first value of query argument `name`.
    public func queryValue(_ name: String) -> String? {
        query.first { $0.name == name }?.value
    }
}
