#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// One request as the transport sends it. Only `http` and `https` URLs are accepted.
public struct HTTPRequest: Sendable {
    /// The absolute URL.
    public var url: URL
    /// The method. Default GET.
    public var method: HTTPMethod = .get
    /// Header fields sent as given (the transport adds none but `Range`).
    public var headers: HTTPHeaders = HTTPHeaders()
    /// A request body, sent with its length.
    public var body: HTTPRequestBody? = nil
    /// A single byte range to fetch. Default the whole resource.
    public var byteRange: ByteRange? = nil
    /// What to do when the server ignores `byteRange`.
    public var rangeFallback: RangeFallback = .emulate
    /// Bounds enforced on this request.
    public var limits: TransferLimits = TransferLimits()
    /// What the fetch is for.
    public var purpose: RequestPurpose = .general
    /// A tag for `HTTPPipeline.cancel(tag:)`, grouping requests that are cancelled together.
    public var cancellationTag: String?
    /// Whether the pipeline attaches the client's bearer token. Default anonymous.
    public var authentication: HTTPAuthentication = .anonymous
    /// This request's own retry policy, for a caller that retries on its own terms (a live
    /// reloader answers a refused blocking request with a plain reload and paces outages
    /// itself: it passes `.never`). Default nil: the pipeline's.
    public var retry: RetryPolicy? = nil

    /// A GET of `url`.
    public init(url: URL, purpose: RequestPurpose = .general) {
        self.url = url
        self.purpose = purpose
    }
}
