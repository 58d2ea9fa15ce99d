/// An opt-in pipeline policy: before retrying after a network failure (dns, connect, TLS, lost
/// connection, timeout), wait for the path to be satisfied — instead of spending the retry's
/// backoff and attempts on a network that is down — for at most `maximumWait`. With a satisfied
/// path the retry waits its usual backoff.
public struct ReachabilityPolicy: Sendable {
    /// Where the path comes from.
    public let reachability: NetworkReachability
    /// The longest a retry waits for the path before going anyway. Default 60 s.
    public var maximumWait: Duration

    /// A policy over `reachability`.
    public init(reachability: NetworkReachability, maximumWait: Duration = .seconds(60)) {
        self.reachability = reachability
        self.maximumWait = maximumWait
    }

    static let networkCategories: Set<HTTPError.Category> = [.dns, .connect, .tls, .connectionLost, .timeout]
}
