#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TesseraHTTP

extension HTTPClient {
    /// A client for users' tests: requests go to `transport` (a `MockTransport` with scripted
    /// responses), backoff sleeps on an `ImmediateClock`, and `http://` bases are allowed.
    /// Everything else is the configuration given, so the policies under test are the real ones.
    /// - Throws: `configuration` errors for a base URL that breaks the rules.
    public static func stub(baseURL: URL, transport: MockTransport,
                            configuration: HTTPClientConfiguration = HTTPClientConfiguration(),
                            clock: ImmediateClock = ImmediateClock()) throws(HTTPError) -> HTTPClient {
        var configuration = configuration
        configuration.allowsHTTP = true
        return try HTTPClient(baseURL: baseURL, configuration: configuration, transport: transport, clock: clock)
    }
}
