#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TesseraHTTP
import TesseraSupport

/// Bounded fetches through an HTTP pipeline (its retry policy, Retry-After, mid-body refetch and
/// events): success status required, body collected up to a limit or handed to a consumer,
/// failures mapped to `HLSError` with the URL redacted.
package struct ResourceFetcher: Sendable {
    private let collect: @Sendable (HTTPRequest, Int) async throws(HTTPError) -> (head: HTTPResponseHead, body: [UInt8])
    private let deliverBody: @Sendable (HTTPRequest, @escaping @Sendable (HTTPResponse) async throws(HTTPError) -> Delivered) async throws(HTTPError) -> Delivered

    /// What a streamed fetch produced: the body, or a status that is not a success.
    package enum Delivered: Sendable {
        case body(HTTPResponseHead, ResourceBody)
        case status(HTTPResponseHead)
    }

    private let cancelTagged: @Sendable (String) -> Void

    /// A fetcher over `pipeline`.
    package init<C: Clock>(pipeline: HTTPPipeline<C>) where C.Duration == Duration {
        collect = { request, limit throws(HTTPError) in try await pipeline.data(request, upTo: limit) }
        deliverBody = { request, consume throws(HTTPError) in try await pipeline.deliver(request, consume) }
        cancelTagged = { pipeline.cancel(tag: $0) }
    }

    /// Cancels every request in flight whose `cancellationTag` is `tag`.
    package func cancel(tag: String) { cancelTagged(tag) }

    /// A fetcher over `transport` with the default retry policy.
    package init(transport: any HTTPTransport) {
        self.init(pipeline: HTTPPipeline(transport: transport, clock: ContinuousClock()))
    }

    /// The body of `url` and the URL that answered.
    package func fetch(_ url: URL, purpose: RequestPurpose, what: String, limit: Int) async throws(HLSError) -> (bytes: [UInt8], url: URL) {
        var request = HTTPRequest(url: url, purpose: purpose)
        request.limits.maximumBodyBytes = UInt64(limit)
        let response = try await fetch(request, what: what, limit: limit)
        return (response.body, response.head.url)
    }

    /// The response to `request`, whose status must be 2xx, with its body of at most `limit` bytes.
    package func fetch(_ request: HTTPRequest, what: String, limit: Int) async throws(HLSError) -> (head: HTTPResponseHead, body: [UInt8]) {
        let response = try await answer(request, what: what, limit: limit)
        guard response.head.isSuccess else {
            throw HLSError(.httpStatus, "\(what) \(URLRedaction.redact(request.url)) answered HTTP \(response.head.status).")
        }
        return response
    }

    /// The final response to `request` whatever its status (after the pipeline's retries), with
    /// its body of at most `limit` bytes — for callers that act on the status themselves.
    package func answer(_ request: HTTPRequest, what: String, limit: Int) async throws(HLSError) -> (head: HTTPResponseHead, body: [UInt8]) {
        do {
            return try await collect(request, limit)
        } catch {
            throw Self.map(error, what: what, url: request.url)
        }
    }

    /// The response to `request`, whose status must be 2xx, with its body gathered by a fresh
    /// collector from `makeCollector` (given the response's head) for each attempt (a retried body
    /// starts again); `onHead`
    /// sees each successful response's head before its body.
    package func fetch(_ request: HTTPRequest, what: String, onHead: @escaping @Sendable (HTTPResponseHead) -> Void = { _ in },
               collector makeCollector: @escaping @Sendable (HTTPResponseHead) -> BodyCollector) async throws(HLSError) -> (head: HTTPResponseHead, body: ResourceBody) {
        let delivered: Delivered
        do {
            delivered = try await deliverBody(request) { response throws(HTTPError) in
                guard response.head.isSuccess else {
                    response.body.discard()
                    return .status(response.head)
                }
                onHead(response.head)
                let collector = makeCollector(response.head)
                try await collector.receive(response.body)
                return .body(response.head, collector.finish())
            }
        } catch {
            throw Self.map(error, what: what, url: request.url)
        }
        switch delivered {
        case .body(let head, let body): return (head, body)
        case .status(let head):
            throw HLSError(.httpStatus, "\(what) \(URLRedaction.redact(request.url)) answered HTTP \(head.status).")
        }
    }

    package static func map(_ error: HTTPError, what: String, url: URL) -> HLSError {
        if error.category == .cancelled {
            return HLSError(.cancelled, "Cancelled while fetching \(what.lowercased()) \(URLRedaction.redact(url)).", cause: error)
        }
        if error.code == .bodyTooLarge {
            return HLSError(.budgetExceeded, "\(what) \(URLRedaction.redact(url)) is larger than its byte budget: \(error.message)", cause: error)
        }
        if error.category == .file {
            return HLSError(.destinationUnwritable, "\(what) could not be stored while it arrived: \(error.message)", cause: error)
        }
        return HLSError(.fetchFailed, "\(what) could not be fetched: \(error.message)", cause: error)
    }
}
