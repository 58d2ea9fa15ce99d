/// Changes a request before it is sent: adds headers, signs, rewrites. Interceptors run in the
/// configured order, once per request (not per retry or redirect hop); their header fields take
/// precedence over the request's own and the body's content type, but not over authentication.
public protocol HTTPInterceptor: Sendable {
    /// Adjusts `request`; throwing stops it before any transport.
    func intercept(_ request: inout HTTPRequest) async throws(HTTPError)
}

/// An interceptor that may have a request sent once more after seeing the response the pipeline
/// would deliver — a signer that corrects its clock from a skew refusal. The pipeline asks each
/// such interceptor in order, at most once per request; the first that returns true has the
/// adjusted request sent again (through the same retry, redirect and breaker state).
public protocol HTTPReplayingInterceptor: HTTPInterceptor {
    /// Returns true after adjusting `request` to be sent once more in answer to `head`.
    func replay(_ request: inout HTTPRequest, after head: HTTPResponseHead) async throws(HTTPError) -> Bool
}
