/// A one-off request, built in place instead of declared as an `Endpoint` type:
///
/// ```swift
/// let user = try await client.send(RequestBuilder.get("users/42", as: User.self).query("fields", "name"))
/// ```
public struct RequestBuilder<Response: Sendable>: Endpoint {
    public var method: HTTPMethod
    public var path: String
    public var query: [(String, String)] = []
    public var headers = HTTPHeaders()
    public var body: RequestContent?
    public var authentication: HTTPAuthentication = .anonymous
    public var acceptableStatus: AcceptableStatus = .successful
    public var decoding: ResponseDecoding<Response>
    public var cancellationTag: String?

    /// A request decoded by `decoding`.
    public init(_ method: HTTPMethod, _ path: String, decoding: ResponseDecoding<Response>) {
        self.method = method
        self.path = path
        self.decoding = decoding
    }

    /// Adds a query item (after those already added).
    public func query(_ name: String, _ value: String) -> Self { with { $0.query.append((name, value)) } }

    /// Sets a header field, replacing earlier fields of that name.
    public func header(_ name: String, _ value: String) -> Self { with { $0.headers.set(name, value) } }

    /// Sets the body.
    public func body(_ content: RequestContent) -> Self { with { $0.body = content } }

    /// Sets how the request uses the bearer token.
    public func authentication(_ authentication: HTTPAuthentication) -> Self { with { $0.authentication = authentication } }

    /// Sets the statuses that count as success.
    public func accepting(_ statuses: AcceptableStatus) -> Self { with { $0.acceptableStatus = statuses } }

    /// Sets the cancellation tag.
    public func tagged(_ tag: String) -> Self { with { $0.cancellationTag = tag } }

    private func with(_ change: (inout Self) -> Void) -> Self {
        var copy = self
        change(&copy)
        return copy
    }
}

extension RequestBuilder where Response: Decodable {
    /// A request whose JSON body decodes to `Response`.
    public init(_ method: HTTPMethod, _ path: String, as type: Response.Type = Response.self) {
        self.init(method, path, decoding: .json())
    }

    /// A GET decoding JSON.
    public static func get(_ path: String, as type: Response.Type = Response.self) -> Self { Self(.get, path, decoding: .json()) }
    /// A POST decoding JSON.
    public static func post(_ path: String, as type: Response.Type = Response.self) -> Self { Self(.post, path, decoding: .json()) }
    /// A PUT decoding JSON.
    public static func put(_ path: String, as type: Response.Type = Response.self) -> Self { Self(.put, path, decoding: .json()) }
    /// A PATCH decoding JSON.
    public static func patch(_ path: String, as type: Response.Type = Response.self) -> Self { Self(.patch, path, decoding: .json()) }
    /// A DELETE decoding JSON.
    public static func delete(_ path: String, as type: Response.Type = Response.self) -> Self { Self(.delete, path, decoding: .json()) }
}

extension RequestBuilder where Response == [UInt8] {
    /// A request answered with raw bytes.
    public init(_ method: HTTPMethod, _ path: String, as type: Response.Type) { self.init(method, path, decoding: .bytes) }
    /// A GET answered with raw bytes.
    public static func get(_ path: String, as type: Response.Type) -> Self { Self(.get, path, decoding: .bytes) }
}

extension RequestBuilder where Response == String {
    /// A request answered with text.
    public init(_ method: HTTPMethod, _ path: String, as type: Response.Type) { self.init(method, path, decoding: .string) }
    /// A GET answered with text.
    public static func get(_ path: String, as type: Response.Type) -> Self { Self(.get, path, decoding: .string) }
}

extension RequestBuilder where Response == HTTPNoContent {
    /// A request whose body is ignored.
    public init(_ method: HTTPMethod, _ path: String) { self.init(method, path, decoding: .nothing) }
}
