import Synchronization
import Testing
@testable import TesseraHTTP

@Suite("AuthRefreshCoordinator")
struct AuthRefreshCoordinatorTests {
    /// Hands out "t0", then "t1", "t2", … on each refresh, once the test lets a refresh finish.
    final class GatedSource: TokenSource {
        let refreshCalls = Atomic<Int>(0)
        let currentCalls = Atomic<Int>(0)
        let gate: AsyncStream<Result<Void, HTTPError>>
        let opener: AsyncStream<Result<Void, HTTPError>>.Continuation
        init() { (gate, opener) = AsyncStream.makeStream(of: Result<Void, HTTPError>.self) }

        func currentToken() async throws(HTTPError) -> String {
            currentCalls.add(1, ordering: .relaxed)
            return "t0"
        }

        func refreshToken() async throws(HTTPError) -> String {
            let n = refreshCalls.add(1, ordering: .relaxed).newValue
            for await outcome in gate {
                try outcome.get()
                return "t\(n)"
            }
            throw HTTPError(.cancelled, code: .cancelled, "refresh cancelled")
        }
    }

    private func waitForWaiters(_ coordinator: AuthRefreshCoordinator, _ count: Int) async {
        while await coordinator.refreshWaiters() < count { await Task.yield() }
    }

    @Test("concurrent 401s for one token cause one refresh, and all get the new token")
    func coalesced() async throws {
        let source = GatedSource()
        let coordinator = AuthRefreshCoordinator(source: source)
        #expect(try await coordinator.token() == "t0")
        #expect(try await coordinator.token() == "t0")
        let rejected = try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<5 { group.addTask { try await coordinator.token(afterRejecting: "t0") } }
            await waitForWaiters(coordinator, 5)
            source.opener.yield(.success(()))
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(rejected == Array(repeating: "t1", count: 5))
        let calls = (source.refreshCalls.load(ordering: .relaxed), source.currentCalls.load(ordering: .relaxed))
        #expect(calls == (1, 1))
        #expect(try await coordinator.token() == "t1")
    }

    @Test("a 401 for a token already replaced gets the newer one without refreshing")
    func staleRejection() async throws {
        let source = GatedSource()
        let coordinator = AuthRefreshCoordinator(source: source)
        _ = try await coordinator.token()
        source.opener.yield(.success(()))
        #expect(try await coordinator.token(afterRejecting: "t0") == "t1")
        #expect(try await coordinator.token(afterRejecting: "t0") == "t1")
        let calls = source.refreshCalls.load(ordering: .relaxed)
        #expect(calls == 1)
    }

    @Test("a failed refresh reaches every waiter; the next 401 tries again")
    func failedRefresh() async throws {
        let source = GatedSource()
        let coordinator = AuthRefreshCoordinator(source: source)
        _ = try await coordinator.token()
        async let first = coordinator.token(afterRejecting: "t0")
        async let second = coordinator.token(afterRejecting: "t0")
        await waitForWaiters(coordinator, 2)
        source.opener.yield(.failure(HTTPError(.connect, code: HTTPError.Code("refused"), "auth server down")))
        var failures = 0
        do { _ = try await first } catch { failures += 1 }
        do { _ = try await second } catch { failures += 1 }
        #expect(failures == 2)
        source.opener.yield(.success(()))
        #expect(try await coordinator.token(afterRejecting: "t0") == "t2")
    }
}
