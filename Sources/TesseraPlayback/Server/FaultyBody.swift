import CMicroHTTPD
import TesseraHTTP

/// A body libmicrohttpd pulls through a content-reader callback so it can end differently from a
/// plain file: truncated (the connection is closed after `cutAt` bytes), stalled (the connection is
/// suspended after `cutAt` bytes until the deadline or shutdown, then closed), or sent with no
/// announced length (chunked) and ended normally.
final class FaultyBody: Suspension, @unchecked Sendable {
    // @unchecked: the reader runs on MHD's thread for this connection only; `isStalled` is read
    // and written there; `connection` is only resumed through the registry.
    private let body: ServerResponse.Body
    private let start: UInt64
    private let cutAt: UInt64
    /// What happens at `cutAt`.
    enum Ending {
        case cut
        case stall
        case endOfStream
    }

    private let ending: Ending
    private let connection: OpaquePointer
    private unowned let context: ServerContext
    private var isStalled = false
    let deadline: ContinuousClock.Instant

    init(body: ServerResponse.Body, start: UInt64, cutAt: UInt64, ending: Ending,
         connection: OpaquePointer, context: ServerContext, stallLimit: Duration) {
        self.body = body
        self.start = start
        self.cutAt = cutAt
        self.ending = ending
        self.connection = connection
        self.context = context
        self.deadline = .now + stallLimit
    }

    /// MHD's reader: bytes for position `position` (relative to the response start).
    func read(position: UInt64, into buffer: UnsafeMutablePointer<CChar>, capacity: Int) -> Int {
        guard position < cutAt else {
            if ending == .endOfStream { return Int(MHD_CONTENT_READER_END_OF_STREAM) }
            if ending == .stall, !isStalled, context.suspensions.suspend(self, connection: connection) {
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
