#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TesseraHTTP
import TesseraSupport

/// An `HTTPTransport` that sends through a real one and records each exchange, redacted, into a
/// `Cassette` (see its redaction rules). Each response body is read whole (up to
/// `maximumBodyBytes`) so it can be recorded, then handed on unchanged. Transport failures are
/// not recorded (replay cannot stand in for them: stub those with `MockTransport.stub`).
///
/// ```swift
/// let recorder = CassetteRecorder(recording: try CurlTransport())
/// let client = try HTTPClient(baseURL: api, transport: recorder)
/// _ = try await client.send(GetUser(id: 1))
/// try recorder.cassette.write(to: fixtures.appending(path: "get-user.json"))
/// ```
public final class CassetteRecorder: HTTPTransport {
    private let base: any HTTPTransport
    private let recorded = Lock(Cassette())
    /// The largest response body recorded; a larger one fails the request (`body-too-large`).
    public let maximumBodyBytes: Int

    /// A recorder in front of `transport`.
    public init(recording transport: any HTTPTransport, maximumBodyBytes: Int = 64 << 20) {
        base = transport
        self.maximumBodyBytes = maximumBodyBytes
    }

    /// What was recorded so far.
    public var cassette: Cassette { recorded.withLock { $0 } }

    public func send(_ request: HTTPRequest) async throws(HTTPError) -> HTTPResponse {
        let response = try await base.send(request)
        let body = try await response.body.collect(upTo: maximumBodyBytes)
        var sentBody: Data?
        if case .bytes(let bytes)? = request.body { sentBody = Cassette.redacted(body: bytes) }
        let interaction = Cassette.Interaction(
            request: .init(method: request.method.rawValue, url: Cassette.redacted(request.url), headers: Cassette.redacted(request.headers), body: sentBody),
            response: .init(status: response.head.status, headers: Cassette.redacted(response.head.headers), body: Cassette.redacted(body: body)))
        recorded.withLock { $0.interactions.append(interaction) }
        return HTTPResponse(head: response.head, body: HTTPBody(source: StubBodySource(chunks: [body], failure: nil)))
    }
}
