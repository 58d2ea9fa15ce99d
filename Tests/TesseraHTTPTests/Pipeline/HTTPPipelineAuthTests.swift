import Foundation
import Synchronization
import Testing
import TesseraHTTPTesting
@testable import TesseraHTTP

@Suite("HTTPPipeline authentication")
struct HTTPPipelineAuthTests {
    /// Tokens t0, t1, … counting refreshes.
    final class CountingSource: TokenSource {
        let refreshes = Atomic<Int>(0)
        func currentToken() async throws(HTTPError) -> String { "t0" }
        func refreshToken() async throws(HTTPError) -> String { "t\(refreshes.add(1, ordering: .relaxed).newValue)" }
    }

    let url = URL(string: "https://api.example/me")!

    private func pipeline(_ mock: MockTransport, _ source: (any TokenSource)?) -> HTTPPipeline<ImmediateClock> {
        var configuration = HTTPPipelineConfiguration()
        configuration.tokenSource = source
        return HTTPPipeline(transport: mock, configuration: configuration, clock: ImmediateClock())
    }

    private func request(_ authentication: HTTPAuthentication) -> HTTPRequest {
        var request = HTTPRequest(url: url)
        request.authentication = authentication
        return request
    }

    @Test("the token is attached; a 401 refreshes it and replays once with the new one")
    func replay() async throws {
        let mock = MockTransport()
        mock.stub(url, .response(status: 401, chunks: []))
        mock.stub(url, .ok([1]))
        let source = CountingSource()
        let response = try await pipeline(mock, source).send(request(.required()))
        #expect(response.head.status == 200)
        #expect(mock.requests.map { $0.headers["Authorization"] } == ["Bearer t0", "Bearer t1"])
    }

    @Test("a second 401 is delivered, not replayed again; endpoints that did not opt in are not refreshed")
    func once() async throws {
        let mock = MockTransport()
        mock.stub(url, .response(status: 401, chunks: []))
        let source = CountingSource()
        #expect(try await pipeline(mock, source).send(request(.required())).head.status == 401)
        #expect(mock.requests.count == 2)
        let noRefresh = MockTransport()
        noRefresh.stub(url, .response(status: 401, chunks: []))
        #expect(try await pipeline(noRefresh, source).send(request(.optional(refreshOn401: false))).head.status == 401)
        #expect(noRefresh.requests.count == 1)
        let refreshes = source.refreshes.load(ordering: .relaxed)
        #expect(refreshes == 1)
    }

    @Test("required authentication without a token source fails before any transport; anonymous sends no token")
    func requirements() async throws {
        let mock = MockTransport()
        mock.stub(url, .ok([1]))
        do {
            _ = try await pipeline(mock, nil).send(request(.required()))
            Issue.record("sent without a token source")
        } catch {
            #expect(error.code == .missingTokenSource)
        }
        #expect(mock.requests.isEmpty)
        _ = try await pipeline(mock, nil).send(request(.optional()))
        _ = try await pipeline(mock, CountingSource()).send(request(.anonymous))
        #expect(mock.requests.allSatisfy { $0.headers["Authorization"] == nil })
    }

    @Test("a 401 storm: many concurrent requests share one refresh and each replays at most once")
    func storm() async throws {
        let mock = MockTransport()
        mock.stub(url, .response(status: 401, chunks: []))
        let source = CountingSource()
        let pipeline = pipeline(mock, source)
        let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<20 { group.addTask { try await pipeline.send(request(.required())).head.status } }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(statuses.allSatisfy { $0 == 401 })
        #expect(mock.requests.count == 40)
        let refreshes = source.refreshes.load(ordering: .relaxed)
        #expect(refreshes >= 1 && refreshes <= 20)
    }
}
