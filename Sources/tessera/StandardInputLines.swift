#if canImport(Glibc)
import Glibc
#endif
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Dispatch

/// Standard input's lines as an async stream, read on a queue of their own (a blocking read
/// never holds a pool thread), at most `window` lines ahead of the consumer, each at most
/// `maximumLineBytes` (a longer one arrives as `.oversized`, its bytes dropped): what is held
/// is bounded by `window × maximumLineBytes`.
final class StandardInputLines: Sendable {
    let stream: AsyncStream<LineSplitter.Line>
    let maximumLineBytes: Int
    private let room: DispatchSemaphore

    init(window: Int = 16, maximumLineBytes: Int) {
        let (stream, continuation) = AsyncStream<LineSplitter.Line>.makeStream()
        self.stream = stream
        self.maximumLineBytes = maximumLineBytes
        // Made at 0 and given its window by signals: libdispatch traps when a semaphore goes
        // with a value below the one it was made with, as this one does when the session ends
        // before it took every line the reader waited room for (a refused connection).
        let room = DispatchSemaphore(value: 0)
        for _ in 0..<max(1, window) { room.signal() }
        self.room = room
        // A queue of its own: the blocking read holds a dispatch thread, never the async pool.
        DispatchQueue(label: "tessera.stdin").async {
            var splitter = LineSplitter(maximumBytes: maximumLineBytes)
            var buffer = [UInt8](repeating: 0, count: 64 << 10)
            func hand(_ line: LineSplitter.Line) {
                room.wait()
                continuation.yield(line)
            }
            while true {
                let count = buffer.withUnsafeMutableBytes { read(STDIN_FILENO, $0.baseAddress, $0.count) }
                if count < 0, errno == EINTR { continue }
                if count < 0 { Terminal.error("standard input cannot be read: \(String(cString: strerror(errno))); no more lines are sent") }
                guard count > 0 else { break }   // the end, or a read error (said above): the input is over
                for line in splitter.feed(buffer[0..<count]) { hand(line) }
            }
            if let last = splitter.finish() { hand(last) }
            continuation.finish()
        }
    }

    /// The consumer took a line: the reader may read one more.
    func consumed() { room.signal() }
}
