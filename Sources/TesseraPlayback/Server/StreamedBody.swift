import CMicroHTTPD
import TesseraSupport

/// Resumes a streamed body's connection when its producer has bytes again. Waking a body that
/// is not waiting, or has ended, does nothing.
public final class BodyWaker: Sendable {
    private let body: Lock<StreamedBody?>

    init(_ body: StreamedBody) { self.body = Lock(body) }

    /// Resumes the connection so the producer is asked again.
    public func wake() {
        body.withLock { $0 }?.wake()
    }

    func detach() { body.withLock { $0 = nil } }
}

/// The server's side of a `.stream` body: libmicrohttpd pulls it through a content-reader
/// callback; a `pending` producer suspends the connection (registered, so shutdown and the
/// suspension limit end it) until it is woken.
final class StreamedBody: Suspension, @unchecked Sendable {
    // @unchecked: `read` runs on MHD's thread for this connection only and is the only reader
    // of `producer`; `state` is behind its lock; the connection is only resumed through the registry.
    private let producer: any BodyProducer
    private let connection: OpaquePointer
    private unowned let context: ServerContext
    private let limit: Duration
    private let state = Lock<(isSuspended: Bool, isExpired: Bool, deadline: ContinuousClock.Instant)>((false, false, .now))
    private(set) var waker: BodyWaker!

    init(producer: any BodyProducer, connection: OpaquePointer, context: ServerContext, suspensionLimit: Duration) {
        self.producer = producer
        self.connection = connection
        self.context = context
        limit = suspensionLimit
        waker = BodyWaker(self)
    }

    var deadline: ContinuousClock.Instant { state.withLock { $0.deadline } }

    /// MHD's reader: bytes for `position`, or the end of the body.
    func read(position: UInt64, into buffer: UnsafeMutablePointer<CChar>, capacity: Int) -> Int {
        guard !state.withLock({ $0.isExpired }) else { return Int(MHD_CONTENT_READER_END_WITH_ERROR) }
        switch producer.produce(at: position, into: UnsafeMutableRawBufferPointer(start: buffer, count: capacity), waker: waker) {
        case .bytes(let count):
            return count > 0 ? min(count, capacity) : Int(MHD_CONTENT_READER_END_WITH_ERROR)
        case .end:
            waker.detach()
            return Int(MHD_CONTENT_READER_END_OF_STREAM)
        case .fail:
            waker.detach()
            return Int(MHD_CONTENT_READER_END_WITH_ERROR)
        case .pending:
            let suspend = state.withLock { state -> Bool in
                guard !state.isSuspended else { return false }
                state.isSuspended = true
                state.deadline = .now + limit
                return true
            }
            if suspend, !context.suspensions.suspend(self, connection: connection) {
                return Int(MHD_CONTENT_READER_END_WITH_ERROR)    // shutting down
            }
            return 0
        }
    }

    /// The producer has bytes again.
    func wake() {
        let resume = state.withLock { state -> Bool in
            guard state.isSuspended, !state.isExpired else { return false }
            state.isSuspended = false
            return true
        }
        if resume { context.suspensions.release(self, connection: connection) }
    }

    /// The suspension limit passed, or the server stops: cut the body.
    func expire() {
        let resume = state.withLock { state -> Bool in
            state.isExpired = true
            defer { state.isSuspended = false }
            return state.isSuspended
        }
        if resume { context.suspensions.release(self, connection: connection) }
        waker.detach()
    }
}
