#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TesseraSupport

/// One entry of a client's event stream. URLs are in event form (query values redacted,
/// user-info and fragment removed, JWT-like path segments masked); headers and bodies never
/// appear.
public struct HTTPEvent: Sendable, Equatable {
    /// What happened.
    public enum Kind: Sendable, Equatable {
        /// The request was handed to the pipeline.
        case start
        /// An attempt failed and another follows after `delay`.
        case retry(attempt: Int, delay: Duration, reason: String)
        /// A redirect was followed to `location` (event form).
        case redirect(status: Int, location: String)
        /// A response head arrived.
        case response(status: Int)
        /// The request finished with its body delivered.
        case finish(bytes: Int64)
        /// The request failed with this error code.
        case failure(code: HTTPError.Code)
    }

    /// The client-assigned request number, shared by all events of one request.
    public let requestID: UInt64
    /// The method.
    public let method: String
    /// The URL in event form.
    public let url: String
    /// What happened.
    public let kind: Kind
    /// Time since the request started.
    public let elapsed: Duration
    /// For a `response` event: when each phase of that attempt's exchange ended (libcurl's
    /// counters; zero for phases a reused connection skipped). Nil on other events.
    public let timings: TransferTimings?

    /// Creates an event, redacting `url` to its event form.
    public init(requestID: UInt64, method: String, url: URL, kind: Kind, elapsed: Duration, timings: TransferTimings? = nil) {
        self.init(requestID: requestID, method: method, redactedURL: URLRedaction.forEvents(url), kind: kind, elapsed: elapsed,
                  timings: timings)
    }

    /// Creates an event from a URL already in event form.
    init(requestID: UInt64, method: String, redactedURL: String, kind: Kind, elapsed: Duration, timings: TransferTimings? = nil) {
        self.requestID = requestID
        self.method = method
        self.url = redactedURL
        self.kind = kind
        self.elapsed = elapsed
        self.timings = timings
    }
}
