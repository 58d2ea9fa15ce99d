import TesseraHTTP

extension HTTPError.Code {
    /// `MockTransport` was asked for a route nobody stubbed.
    public static let unstubbedRoute = HTTPError.Code("unstubbed-route")
    /// A replaying `MockTransport` was asked for a request its cassette did not record.
    public static let unrecordedRequest = HTTPError.Code("unrecorded-request")
}
