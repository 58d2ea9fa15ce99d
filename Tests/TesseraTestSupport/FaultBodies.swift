import Dispatch
import TesseraPlayback
import TesseraSupport

/// The origin simulator's broken bodies, built on the server's `BodyProducer`: a file's bytes
/// from `start` for `length`, ending as the fault says.
struct FaultBody: BodyProducer {
    /// What happens after `cutAt` bytes.
    enum Ending: Sendable {
        /// The body ends normally (with `length` bytes).
        case complete
        /// The connection is cut.
        case cut
        /// Nothing more is sent until the server's suspension limit (or shutdown) cuts it.
        case stall
    }

    let file: FileBody
    let start: UInt64
    let cutAt: UInt64
    let ending: Ending

    func produce(at position: UInt64, into buffer: UnsafeMutableRawBufferPointer, waker: BodyWaker) -> BodyProduction {
        guard position < cutAt else {
            switch ending {
            case .complete: return .end
            case .cut: return .fail
            case .stall: return .pending    // never woken
            }
        }
        let count = Int(min(UInt64(buffer.count), cutAt - position))
        let read = file.read(at: start + position, into: buffer.baseAddress!, count: count)
        return read > 0 ? .bytes(read) : .fail
    }
}

/// A body that arrives `bytesPerSecond` at a time, once a second (a trickling segment).
struct TrickleBody: BodyProducer {
    let file: FileBody
    let bytesPerSecond: Int
    private let sent = Lock<(allowed: UInt64, isScheduled: Bool)>((0, false))

    init(file: FileBody, bytesPerSecond: Int) {
        self.file = file
        self.bytesPerSecond = bytesPerSecond
        sent.withLock { $0.allowed = UInt64(bytesPerSecond) }
    }

    func produce(at position: UInt64, into buffer: UnsafeMutableRawBufferPointer, waker: BodyWaker) -> BodyProduction {
        guard position < file.byteCount else { return .end }
        let allowed = sent.withLock { $0.allowed }
        guard position < allowed else {
            let schedule = sent.withLock { state -> Bool in
                guard !state.isScheduled else { return false }
                state.isScheduled = true
                return true
            }
            if schedule {
                DispatchQueue.global().asyncAfter(deadline: .now() + 1) { [sent, bytesPerSecond] in
                    sent.withLock {
                        $0.allowed += UInt64(bytesPerSecond)
                        $0.isScheduled = false
                    }
                    waker.wake()
                }
            }
            return .pending
        }
        let count = Int(min(UInt64(buffer.count), allowed - position, file.byteCount - position))
        let read = file.read(at: position, into: buffer.baseAddress!, count: count)
        return read > 0 ? .bytes(read) : .fail
    }
}

/// A body that never ends (an endless chunked response): 0x47 filler, as fast as it is read.
struct EndlessBody: BodyProducer {
    func produce(at position: UInt64, into buffer: UnsafeMutableRawBufferPointer, waker: BodyWaker) -> BodyProduction {
        buffer.initializeMemory(as: UInt8.self, repeating: 0x47)
        return .bytes(buffer.count)
    }
}
