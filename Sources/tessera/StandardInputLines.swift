#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Dispatch

/// Standard input's lines as an async stream, read on a queue of their own (a blocking read
/// never holds a pool thread), at most `window` lines ahead of the consumer.
final class StandardInputLines: Sendable {
    let stream: AsyncStream<String>
    private let room: DispatchSemaphore

    init(window: Int = 64) {
        let (stream, continuation) = AsyncStream<String>.makeStream()
        self.stream = stream
        let room = DispatchSemaphore(value: window)
        self.room = room
        // A queue of its own: the blocking read holds a dispatch thread, never the async pool.
        DispatchQueue(label: "tessera.stdin").async {
            while let line = readLine(strippingNewline: true) {
                room.wait()
                continuation.yield(line)
            }
            continuation.finish()
        }
    }

    /// The consumer took a line: the reader may read one more.
    func consumed() { room.signal() }
}
