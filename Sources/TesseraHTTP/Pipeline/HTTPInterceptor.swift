/// Changes a request before it is sent: adds headers, signs, rewrites. Interceptors run in the
/// configured order, once per request (not per retry or redirect hop); their header fields take
/// precedence over the request's own and the body's content type, but not over authentication.
public protocol HTTPInterceptor: Sendable {
    /// Adjusts `request`; throwing stops it before any transport.
    func intercept(_ request: inout HTTPRequest) async throws(HTTPError)
}
