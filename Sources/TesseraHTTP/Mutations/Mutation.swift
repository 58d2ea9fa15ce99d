/// A change to send to a server later, fire-and-forget, through a `MutationQueue`.
///
/// `key` names the state being changed (`"profile/42/name"`): a newer mutation with the same key
/// replaces one still waiting — the latest desired state wins. Each mutation carries its own
/// `Idempotency-Key`, so retries (by the queue, or by the client's retry policy) are safe.
/// Credentials never go in `headers`: the queue persists mutations, and the client's token
/// source adds `Authorization` when each is sent.
public struct Mutation: Codable, Sendable, Equatable {
    /// What state this changes; same key, latest wins.
    public var key: String
    /// The method (`POST`, `PUT`, `PATCH`, `DELETE`).
    public var method: String
    /// The path under the client's base URL.
    public var path: String
    /// Query items, in order.
    public var query: [[String]]
    /// Header fields (no credentials).
    public var headers: [[String]]
    /// The body and its content type.
    public var body: [UInt8]?
    /// The body's `Content-Type`.
    public var contentType: String?
    /// Whether the client's bearer token is attached.
    public var authenticated: Bool
    /// Sent as `Idempotency-Key`; generated when not given.
    public var idempotencyKey: String

    /// A mutation.
    public init(key: String, method: HTTPMethod, path: String, query: [(String, String)] = [], headers: HTTPHeaders = HTTPHeaders(),
                body: [UInt8]? = nil, contentType: String? = nil, authenticated: Bool = false, idempotencyKey: String? = nil) {
        self.key = key
        self.method = method.rawValue
        self.path = path
        self.query = query.map { [$0.0, $0.1] }
        self.headers = headers.map { [$0.name, $0.value] }
        self.body = body
        self.contentType = contentType
        self.authenticated = authenticated
        self.idempotencyKey = idempotencyKey ?? Self.randomKey()
    }

    /// A JSON mutation.
    /// - Throws: `request-construction` when `value` does not encode.
    public static func json<T: Encodable>(key: String, method: HTTPMethod, path: String, _ value: T,
                                          authenticated: Bool = false) throws(HTTPError) -> Mutation {
        Mutation(key: key, method: method, path: path, body: try RequestContent.encodedJSON(value),
                 contentType: "application/json", authenticated: authenticated)
    }

    private static func randomKey() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<4).map { _ in String(generator.next() as UInt32, radix: 16) }.joined(separator: "-")
    }
}
