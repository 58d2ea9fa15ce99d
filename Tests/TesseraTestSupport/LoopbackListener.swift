#if canImport(Glibc)
import Glibc
#endif
import Foundation
import TesseraSupport

/// A TCP listener on 127.0.0.1 (an ephemeral port) that hands each accepted connection to
/// `serve` on its own thread and closes it when `serve` returns. Test use only.
public final class LoopbackListener: Sendable {
    /// The listening port.
    public let port: UInt16
    private let listener: Int32
    private let serve: @Sendable (Int32) -> Void
    private let state = Lock<(connections: Set<Int32>, stopped: Bool)>(([], false))

    /// Starts listening.
    public init(_ serve: @escaping @Sendable (Int32) -> Void) throws {
        self.serve = serve
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        self.listener = listener
        guard listener >= 0 else { throw SocketFailure(description: "socket() failed") }
        var yes: Int32 = 1
        setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = SaturatedListener.loopback(port: 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let ok = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(listener, $0, length) == 0 && listen(listener, 64) == 0 && getsockname(listener, $0, &length) == 0
            }
        }
        guard ok else {
            close(listener)
            throw SocketFailure(description: "bind/listen failed")
        }
        port = UInt16(bigEndian: address.sin_port)
        Thread { [self] in acceptLoop() }.start()
    }

    deinit { shutdown() }

    /// Stops accepting and shuts every open connection down.
    public func shutdown() {
        let connections = state.withLock { state -> Set<Int32> in
            guard !state.stopped else { return [] }
            state.stopped = true
            Glibc.shutdown(listener, Int32(SHUT_RDWR))
            return state.connections
        }
        for fd in connections { Glibc.shutdown(fd, Int32(SHUT_RDWR)) }
    }

    private func acceptLoop() {
        while true {
            let fd = accept(listener, nil, nil)
            guard fd >= 0 else {
                if errno == EINTR { continue }
                close(listener)
                return
            }
            let admitted = state.withLock { state -> Bool in
                guard !state.stopped else { return false }
                state.connections.insert(fd)
                return true
            }
            guard admitted else {
                close(fd)
                continue
            }
            Thread { [self] in
                serve(fd)
                state.withLock { _ = $0.connections.remove(fd) }
                close(fd)
            }.start()
        }
    }
}
