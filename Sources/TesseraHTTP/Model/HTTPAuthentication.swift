/// How a request uses the client's bearer token.
public enum HTTPAuthentication: Sendable, Equatable {
    /// Never send a token.
    case anonymous
    /// Send a token when the client has a token source; otherwise go without.
    case optional(refreshOn401: Bool = true)
    /// A token is needed: without a token source the request fails before any transport.
    case required(refreshOn401: Bool = true)

    /// Whether a 401 may refresh the token and replay the request once.
    var refreshesOn401: Bool {
        switch self {
        case .anonymous: false
        case .optional(let refresh), .required(let refresh): refresh
        }
    }
}
