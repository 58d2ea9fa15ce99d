/// Where path states come from: the Linux netlink monitor, or a test's own source.
public protocol NetworkPathSource: Sendable {
    /// The current path first, then each change, until the source stops.
    func paths() -> AsyncStream<NetworkPath>
}
