#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TesseraHTTP
import TesseraSupport

/// An in-memory `HTTPTransport` for tests: answers from stubs registered per URL, records every
/// request, and serves single byte ranges of stubbed bodies (206 with `Content-Range`, or 416).
/// An unstubbed URL fails loudly by default (an `unstubbed-route` error naming it), or answers a
/// chosen status. Several stubs for one URL answer successive attempts in order; the last one
/// repeats.
public final class MockTransport: HTTPTransport {
    /// One canned answer.
    public enum Stub: Sendable {
        /// A response whose body arrives in `chunks`, optionally failing after them.
        case response(status: Int, headers: HTTPHeaders = HTTPHeaders(), chunks: [[UInt8]], failure: HTTPError? = nil)
        /// A transport failure before any response.
        case failure(HTTPError)

        /// A 200 with `body` in one chunk.
        public static func ok(_ body: [UInt8], headers: HTTPHeaders = HTTPHeaders()) -> Stub {
            .response(status: 200, headers: headers, chunks: [body])
        }
    }

    private struct State {
        var stubs: [URL: [Stub]] = [:]
        var requests: [HTTPRequest] = []
    }

    /// What an unstubbed URL gets.
    public enum Unstubbed: Sendable {
        /// An `invalidRequest` error with code `unstubbed-route` naming the method and URL.
        case fail
        /// A response with this status and no body (404 imitates an origin).
        case status(Int)
    }

    private let state = Lock(State())
    private let unstubbed: Unstubbed

    /// An empty mock; unstubbed URLs fail loudly unless `unstubbed` says otherwise.
    public init(unstubbed: Unstubbed = .fail) {
        self.unstubbed = unstubbed
    }

    /// Adds `stub` as the answer to the next unanswered attempt at `url`.
    public func stub(_ url: URL, _ stub: Stub) {
        state.withLock { $0.stubs[url, default: []].append(stub) }
    }

    /// Every request sent so far, in order.
    public var requests: [HTTPRequest] { state.withLock { $0.requests } }

    public func send(_ request: HTTPRequest) async throws(HTTPError) -> HTTPResponse {
        let stub = state.withLock { state -> Stub? in
            state.requests.append(request)
            guard var queue = state.stubs[request.url], let first = queue.first else { return nil }
            if queue.count > 1 {
                queue.removeFirst()
                state.stubs[request.url] = queue
            }
            return first
        }
        switch stub {
        case nil:
            guard case .status(let status) = unstubbed else {
                throw HTTPError(.invalidRequest, code: .unstubbedRoute,
                                "MockTransport has no stub for \(request.method.rawValue) \(URLRedaction.forEvents(request.url)); add one with stub(_:_:).")
            }
            return Self.response(status: status, headers: HTTPHeaders(), chunks: [], failure: nil, url: request.url)
        case .failure(let error):
            throw error
        case .response(let status, let headers, let chunks, let failure):
            guard let range = request.byteRange, status == 200, failure == nil else {
                return Self.response(status: status, headers: headers, chunks: chunks, failure: failure, url: request.url)
            }
            return Self.ranged(range, of: chunks.flatMap { $0 }, headers: headers, url: request.url)
        }
    }

    private static func ranged(_ range: ByteRange, of body: [UInt8], headers: HTTPHeaders, url: URL) -> HTTPResponse {
        let size = UInt64(body.count)
        guard range.offset < size else {
            return response(status: 416, headers: ["Content-Range": "bytes */\(size)"], chunks: [], failure: nil, url: url)
        }
        let last = min(range.lastByte ?? size - 1, size - 1)
        let content = ContentRange(headerValue: "bytes \(range.offset)-\(last)/\(size)")!
        var headers = headers
        headers.set("Content-Range", "bytes \(range.offset)-\(last)/\(size)")
        let slice = Array(body[Int(range.offset)...Int(last)])
        return HTTPResponse(head: HTTPResponseHead(status: 206, headers: headers, url: url, servedRange: .partial(content)),
                            body: HTTPBody(source: StubBodySource(chunks: [slice], failure: nil)))
    }

    private static func response(status: Int, headers: HTTPHeaders, chunks: [[UInt8]], failure: HTTPError?, url: URL) -> HTTPResponse {
        HTTPResponse(head: HTTPResponseHead(status: status, headers: headers, url: url),
                     body: HTTPBody(source: StubBodySource(chunks: chunks, failure: failure)))
    }
}
