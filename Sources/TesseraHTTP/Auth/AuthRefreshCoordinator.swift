/// Hands out bearer tokens and coordinates refreshes: any number of concurrent 401s for the same
/// token cause one call to `refreshToken()`, whose result they all get; a 401 for a token that
/// has already been replaced gets the newer token without another refresh. (Replaying each
/// request at most once is the client's rule; this type only decides which token it uses.)
public actor AuthRefreshCoordinator {
    private let source: any TokenSource
    private var current: String?
    private var generation = 0
    private let refreshes = RequestCoalescer<Int, String>()
    private let initial = RequestCoalescer<Int, String>()

    /// A coordinator over `source`.
    public init(source: any TokenSource) {
        self.source = source
    }

    /// The token to send now, fetched from the source once and then remembered.
    public func token() async throws(HTTPError) -> String {
        if let current { return current }
        let source = self.source
        let token = try await initial.run(generation) { () async throws(HTTPError) in
            let token = try await source.currentToken()
            await self.installInitial(token)
            return token
        }
        return current ?? token
    }

    /// The token to replay with after the server rejected `rejected` with 401.
    /// - Throws: the source's refresh error, shared by every request that waited on it.
    public func token(afterRejecting rejected: String) async throws(HTTPError) -> String {
        if let current, current != rejected { return current }
        let refreshing = generation
        let source = self.source
        let token = try await refreshes.run(refreshing) { () async throws(HTTPError) in
            let token = try await source.refreshToken()
            // Installed before the shared refresh completes: a 401 arriving after it sees the new
            // token instead of starting a second refresh for the same rejected one.
            await self.install(token, replacing: refreshing)
            return token
        }
        return current ?? token
    }

    private func installInitial(_ token: String) {
        if current == nil { current = token }
    }

    private func install(_ token: String, replacing refreshing: Int) {
        guard generation == refreshing else { return }
        current = token
        generation += 1
    }

    /// How many requests wait on the refresh now in flight (for tests and diagnostics).
    public func refreshWaiters() async -> Int {
        await refreshes.waiterCount(for: generation)
    }
}
