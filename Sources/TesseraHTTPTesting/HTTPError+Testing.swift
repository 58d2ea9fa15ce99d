import TesseraHTTP

extension HTTPError.Code {
    /// `MockTransport` was asked for a route nobody stubbed.
    public static let unstubbedRoute = HTTPError.Code("unstubbed-route")
}
