/// An HTTP request method (RFC 9110 §9).
public struct HTTPMethod: Hashable, Sendable, CustomStringConvertible {
    /// The method token as sent.
    public let rawValue: String
    /// Creates a method from its token.
    public init(_ rawValue: String) { self.rawValue = rawValue }
    public var description: String { rawValue }

    /// GET.
    public static let get = HTTPMethod("GET")
    /// HEAD: the response has no body.
    public static let head = HTTPMethod("HEAD")
    /// POST.
    public static let post = HTTPMethod("POST")
    /// PUT.
    public static let put = HTTPMethod("PUT")
    /// DELETE.
    public static let delete = HTTPMethod("DELETE")
    /// OPTIONS.
    public static let options = HTTPMethod("OPTIONS")
    /// PATCH.
    public static let patch = HTTPMethod("PATCH")
}
