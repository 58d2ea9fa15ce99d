#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The status line and headers of a final (non-1xx) response.
public struct HTTPResponseHead: Sendable {
    /// Which bytes of the resource the body holds.
    public enum ServedRange: Sendable, Equatable {
        /// The whole resource (no range was asked for, or the reply is not a 2xx).
        case whole
        /// A `206` whose `Content-Range` matched the request.
        case partial(ContentRange)
        /// The server sent `200` to a range request; the transport trimmed the body to the range.
        case emulated(ByteRange)
    }

    /// The HTTP status code. Not an error at this layer, whatever its value.
    public let status: Int
    /// The response header fields.
    public let headers: HTTPHeaders
    /// The URL that answered.
    public let url: URL
    /// Which bytes the body holds.
    public let servedRange: ServedRange
    /// The HTTP version that answered: `1.0`, `1.1`, `2` or `3` (empty when unknown).
    public let httpVersion: String
    /// When each phase of the exchange ended.
    public let timings: TransferTimings

    /// Creates a head (transports and test doubles).
    public init(status: Int, headers: HTTPHeaders, url: URL, servedRange: ServedRange = .whole,
                httpVersion: String = "", timings: TransferTimings = TransferTimings()) {
        self.status = status
        self.headers = headers
        self.url = url
        self.servedRange = servedRange
        self.httpVersion = httpVersion
        self.timings = timings
    }

    /// True for 2xx statuses.
    public var isSuccess: Bool { (200..<300).contains(status) }
}
