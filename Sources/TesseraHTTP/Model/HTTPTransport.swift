/// Sends one request and returns as soon as the response head has arrived; the body streams after.
///
/// The libcurl transport (`CurlTransport`) is the production implementation; tests inject the
/// origin simulator through it or a mock from `TesseraHTTPTesting`. Status codes are never errors at
/// this layer.
public protocol HTTPTransport: Sendable {
    /// Sends `request`.
    /// - Throws: `HTTPError` for transport failures (DNS, connect, TLS, timeout, cancelled,
    ///   too large, connection lost, protocol, invalid request).
    func send(_ request: HTTPRequest) async throws(HTTPError) -> HTTPResponse
}
