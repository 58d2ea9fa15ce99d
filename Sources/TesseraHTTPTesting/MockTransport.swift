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
        /// A cassette being replayed, and which of its interactions are used.
        var cassette: Cassette?
        var used: [Bool] = []
        var nextInOrder = 0
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
    private let order: Cassette.Order

    /// An empty mock; unstubbed URLs fail loudly unless `unstubbed` says otherwise.
    public init(unstubbed: Unstubbed = .fail) {
        self.unstubbed = unstubbed
        order = .inOrder
    }

    /// A mock answering from `cassette`: each request is matched by method and redacted URL —
    /// the next recorded one (`.inOrder`) or the first unused one (`.byMatch`) — and a request
    /// with no recorded answer fails loudly (`unrecorded-request`, naming it). Stubs added with
    /// `stub(_:_:)` answer first.
    public init(replaying cassette: Cassette, order: Cassette.Order = .inOrder) {
        unstubbed = .fail
        self.order = order
        state.withLock { state in
            state.cassette = cassette
            state.used = Array(repeating: false, count: cassette.interactions.count)
        }
    }

    /// Adds `stub` as the answer to the next unanswered attempt at `url`.
    public func stub(_ url: URL, _ stub: Stub) {
        state.withLock { $0.stubs[url, default: []].append(stub) }
    }

    /// Every request sent so far, in order.
    public var requests: [HTTPRequest] { state.withLock { $0.requests } }

    public func send(_ request: HTTPRequest) async throws(HTTPError) -> HTTPResponse {
        let (stub, replayed) = state.withLock { state -> (Stub?, Result<Cassette.Response, HTTPError>?) in
            state.requests.append(request)
            guard var queue = state.stubs[request.url], let first = queue.first else {
                return (nil, state.cassette == nil ? nil : Self.replay(request, &state, order))
            }
            if queue.count > 1 {
                queue.removeFirst()
                state.stubs[request.url] = queue
            }
            return (first, nil)
        }
        if let replayed {
            let recorded = try replayed.get()
            var headers = HTTPHeaders()
            for field in recorded.headers where field.count == 2 { headers.add(field[0], field[1]) }
            return Self.response(status: recorded.status, headers: headers, chunks: [[UInt8](recorded.body)], failure: nil, url: request.url)
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

    /// The recorded answer to `request`, marking it used.
    private static func replay(_ request: HTTPRequest, _ state: inout State, _ order: Cassette.Order) -> Result<Cassette.Response, HTTPError> {
        guard let cassette = state.cassette else { preconditionFailure("replay without a cassette") }
        let method = request.method.rawValue, url = Cassette.redacted(request.url)
        func matches(_ index: Int) -> Bool {
            let recorded = cassette.interactions[index].request
            return !state.used[index] && recorded.method == method && recorded.url == url
        }
        let index: Int?
        switch order {
        case .inOrder: index = state.nextInOrder < cassette.interactions.count && matches(state.nextInOrder) ? state.nextInOrder : nil
        case .byMatch: index = cassette.interactions.indices.first(where: matches)
        }
        guard let index else {
            let expected = order == .inOrder && state.nextInOrder < cassette.interactions.count
                ? " (the next recorded one is \(cassette.interactions[state.nextInOrder].request.method) \(cassette.interactions[state.nextInOrder].request.url))"
                : ""
            return .failure(HTTPError(.invalidRequest, code: .unrecordedRequest,
                                      "The cassette has no recorded answer for \(method) \(url)\(expected)."))
        }
        state.used[index] = true
        state.nextInOrder = index + 1
        return .success(cassette.interactions[index].response)
    }

    /// Interactions of the cassette no request used.
    public var unusedInteractions: Int { state.withLock { $0.used.filter { !$0 }.count } }

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
