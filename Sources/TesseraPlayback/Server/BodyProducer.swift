/// Produces a response body over time, a chunk at a time, on the server's thread — the primitive
/// for bodies that do not exist whole when the response starts: a live part still being
/// written, a preload hint answered as its bytes arrive, a test origin's trickles, cuts and
/// stalls. Must not block: when nothing is ready it says `pending`, and the server suspends the
/// connection until `waker.wake()` is called (from any thread), the server's suspension limit
/// passes, or it shuts down — the last two cut the connection.
public protocol BodyProducer: Sendable {
    /// The body's bytes from `position` on: fill at most `buffer.count` of them and say how
    /// many, or say that the body has ended, that it failed (the connection is cut, so a client
    /// sees a short body), or that nothing is ready yet.
    func produce(at position: UInt64, into buffer: UnsafeMutableRawBufferPointer, waker: BodyWaker) -> BodyProduction
}

/// What a `BodyProducer` gives for one call.
public enum BodyProduction: Sendable, Equatable {
    /// This many bytes were written into the buffer (at least one).
    case bytes(Int)
    /// Nothing is ready: suspend until woken.
    case pending
    /// The body is complete.
    case end
    /// Cut the connection here.
    case fail
}
