import Foundation
import TesseraHTTP
import TesseraSupport

/// Bounded fetches through an HTTP pipeline (its retry policy, Retry-After, mid-body refetch and
/// events): success status required, body collected up to a limit, failures mapped to `HLSError`
/// with the URL redacted.
struct ResourceFetcher: Sendable {
    private let collect: @Sendable (HTTPRequest, Int) async throws(HTTPError) -> (head: HTTPResponseHead, body: [UInt8])

    /// A fetcher over `pipeline`.
    init<C: Clock>(pipeline: HTTPPipeline<C>) where C.Duration == Duration {
        collect = { request, limit throws(HTTPError) in try await pipeline.data(request, upTo: limit) }
    }

    /// A fetcher over `transport` with the default retry policy.
    init(transport: any HTTPTransport) {
        self.init(pipeline: HTTPPipeline(transport: transport, clock: ContinuousClock()))
    }

    /// The body of `url` and the URL that answered.
    func fetch(_ url: URL, purpose: RequestPurpose, what: String, limit: Int) async throws(HLSError) -> (bytes: [UInt8], url: URL) {
        var request = HTTPRequest(url: url, purpose: purpose)
        request.limits.maximumBodyBytes = UInt64(limit)
        let response = try await fetch(request, what: what, limit: limit)
        return (response.body, response.head.url)
    }

    /// The response to `request`, whose status must be 2xx, with its body of at most `limit` bytes.
    func fetch(_ request: HTTPRequest, what: String, limit: Int) async throws(HLSError) -> (head: HTTPResponseHead, body: [UInt8]) {
        let response: (head: HTTPResponseHead, body: [UInt8])
        do {
            response = try await collect(request, limit)
        } catch {
            throw Self.map(error, what: what, url: request.url)
        }
        guard response.head.isSuccess else {
            throw HLSError(.httpStatus, "\(what) \(URLRedaction.redact(request.url)) answered HTTP \(response.head.status).")
        }
        return response
    }

    static func map(_ error: HTTPError, what: String, url: URL) -> HLSError {
        if error.category == .cancelled {
            return HLSError(.cancelled, "Cancelled while fetching \(what.lowercased()) \(URLRedaction.redact(url)).", cause: error)
        }
        if error.code == .bodyTooLarge {
            return HLSError(.budgetExceeded, "\(what) \(URLRedaction.redact(url)) is larger than its byte budget: \(error.message)", cause: error)
        }
        return HLSError(.fetchFailed, "\(what) could not be fetched: \(error.message)", cause: error)
    }
}
