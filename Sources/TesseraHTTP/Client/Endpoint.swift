/// A named API call: where it goes, what it sends, and what it answers with.
///
/// Only `path` (and `decoding`, for response types other than `Decodable`, `[UInt8]`, `String`
/// and `HTTPNoContent`) must be written; everything else has a default:
///
/// ```swift
/// struct GetUser: Endpoint {
///     typealias Response = User
///     let id: Int
///     var path: String { "users/\(id)" }
///     var authentication: HTTPAuthentication { .required() }
/// }
/// ```
public protocol Endpoint: Sendable {
    /// The value the call produces.
    associatedtype Response: Sendable

    /// The method. Default GET.
    var method: HTTPMethod { get }
    /// The path, appended after the client's base path. Must not contain `?` or `#`.
    var path: String { get }
    /// Query items, percent-encoded by the client; repeated names kept in order. Default none.
    var query: [(String, String)] { get }
    /// The endpoint's header fields (above the client's defaults, below everything else).
    var headers: HTTPHeaders { get }
    /// The body, or nil. Default nil.
    var body: RequestContent? { get }
    /// Whether the call carries the client's bearer token. Default anonymous.
    var authentication: HTTPAuthentication { get }
    /// The statuses that count as success. Default 200–299.
    var acceptableStatus: AcceptableStatus { get }
    /// How the body becomes a `Response`.
    var decoding: ResponseDecoding<Response> { get }
    /// A tag for `HTTPClient.cancel(tag:)`. Default none.
    var cancellationTag: String? { get }
}

extension Endpoint {
    public var method: HTTPMethod { .get }
    public var query: [(String, String)] { [] }
    public var headers: HTTPHeaders { HTTPHeaders() }
    public var body: RequestContent? { nil }
    public var authentication: HTTPAuthentication { .anonymous }
    public var acceptableStatus: AcceptableStatus { .successful }
    public var cancellationTag: String? { nil }
}

extension Endpoint where Response: Decodable {
    /// JSON with a default `JSONDecoder`.
    public var decoding: ResponseDecoding<Response> { .json() }
}

extension Endpoint where Response == [UInt8] {
    /// The raw bytes.
    public var decoding: ResponseDecoding<Response> { .bytes }
}

extension Endpoint where Response == String {
    /// The body as text.
    public var decoding: ResponseDecoding<Response> { .string }
}

extension Endpoint where Response == HTTPNoContent {
    /// The body ignored.
    public var decoding: ResponseDecoding<Response> { .nothing }
}
