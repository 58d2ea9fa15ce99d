#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What is known about a finished response besides its value.
public struct HTTPResponseMetadata: Sendable {
    /// The final status.
    public let status: Int
    /// The final response's header fields.
    public let headers: HTTPHeaders
    /// The URL that answered (after redirects).
    public let url: URL
    /// The HTTP version that answered (`1.1`, `2`, …; empty from a cache hit or a test double).
    public let httpVersion: String
    /// curl's phase timings for the final exchange.
    public let timings: TransferTimings
    /// From the call to the end of the body, retries and redirects included.
    public let total: Duration
    /// Body bytes received.
    public let bodyBytes: Int64

    init(head: HTTPResponseHead, total: Duration, bodyBytes: Int64) {
        status = head.status
        headers = head.headers
        url = head.url
        httpVersion = head.httpVersion
        timings = head.timings
        self.total = total
        self.bodyBytes = bodyBytes
    }
}
