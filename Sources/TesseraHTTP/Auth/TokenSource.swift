/// Where a client gets bearer tokens for endpoints that require or accept authentication.
public protocol TokenSource: Sendable {
    /// The token to use now (for example from a keychain or a previous login).
    func currentToken() async throws(HTTPError) -> String
    /// A new token, after the server rejected the current one with 401.
    func refreshToken() async throws(HTTPError) -> String
}
