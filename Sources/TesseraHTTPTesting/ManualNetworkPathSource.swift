import TesseraHTTP
import TesseraSupport

/// A `NetworkPathSource` a test drives: `send(_:)` hands the next path to the reader of
/// `paths()` (one reader; paths sent before it reads are kept, in order).
public final class ManualNetworkPathSource: NetworkPathSource {
    private let stream: AsyncStream<NetworkPath>
    private let continuation: AsyncStream<NetworkPath>.Continuation

    /// A source that has said nothing yet.
    public init() {
        (stream, continuation) = AsyncStream<NetworkPath>.makeStream()
    }

    public func paths() -> AsyncStream<NetworkPath> { stream }

    /// Reports `path`.
    public func send(_ path: NetworkPath) { continuation.yield(path) }

    /// A satisfied path over one wired interface.
    public static let satisfied = NetworkPath(interfaces: [NetworkInterface(name: "eth0", kind: .wired, isUp: true, hasRoutableAddress: true)],
                                              hasIPv4DefaultRoute: true, hasIPv6DefaultRoute: false)
    /// An unsatisfied path: the link is down.
    public static let unsatisfied = NetworkPath(interfaces: [NetworkInterface(name: "eth0", kind: .wired, isUp: false, hasRoutableAddress: false)],
                                                hasIPv4DefaultRoute: false, hasIPv6DefaultRoute: false)
}
