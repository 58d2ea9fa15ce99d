import CMicroHTTPD
import TesseraHTTP

/// A body libmicrohttpd pulls through a content-reader callback so it can be cut short on purpose:
/// truncated (the connection is closed after `cutAt` bytes) or stalled (the connection is suspended
/// after `cutAt` bytes until the deadline or shutdown, then closed).
final class FaultyBody: Suspension, @unchecked Sendable {
    // @unchecked: the reader runs on MHD's thread for this connection only; `isStalled` is read
    // and written there; `connection` is only resumed through the registry.
    private let body: ServerResponse.Body
    private let start: UInt64
    private let cutAt: UInt64
    private let stalls: Bool
    private let connection: OpaquePointer
    private unowned let context: ServerContext
    private var isStalled = false
    let deadline: ContinuousClock.Instant

    init(body: ServerResponse.Body, start: UInt64, cutAt: UInt64, stalls: Bool,
         connection: OpaquePointer, context: ServerContext, stallLimit: Duration) {
        self.body = body
        self.start = start
        self.cutAt = cutAt
        self.stalls = stalls
        self.connection = connection
        self.context = context
        self.deadline = .now + stallLimit
    }

    /// MHD's reader: bytes for position `position` (relative to the response start).
    func read(position: UInt64, into buffer: UnsafeMutablePointer<CChar>, capacity: Int) -> Int {
        guard position < cutAt else {
            if stalls, !isStalled, context.suspensions.suspend(self, connection: connection) {
                isStalled = true
                return 0
            }
            return Int(MHD_CONTENT_READER_END_WITH_ERROR)
        }
        let count = Int(min(UInt64(capacity), cutAt - position))
        switch body {
        case .empty:
            return Int(MHD_CONTENT_READER_END_WITH_ERROR)
        case .bytes(let bytes):
            let from = Int(start + position)
            bytes.withUnsafeBytes { raw in
                UnsafeMutableRawPointer(buffer).copyMemory(from: raw.baseAddress! + from, byteCount: count)
            }
            return count
        case .file(let file):
            let n = file.read(at: start + position, into: buffer, count: count)
            return n > 0 ? n : Int(MHD_CONTENT_READER_END_WITH_ERROR)
        }
    }

    func expire() { context.suspensions.release(self, connection: connection) }
}
