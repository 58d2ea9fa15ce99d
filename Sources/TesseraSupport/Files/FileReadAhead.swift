#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch

/// Reads a file descriptor to its end on a thread of its own, one chunk ahead of the caller: the
/// caller works on a chunk (hashes it) while the next is copied out of the page cache, so one
/// large file is read at the speed of that work on one core. Two buffers of `chunk` bytes, each
/// handed over with a semaphore; the reader stops at the end of the file or at a read error.
/// `@unchecked Sendable`: a buffer and its count are touched by one side at a time — the reader
/// between `emptied[i]` and `filled[i]`, the caller between `filled[i]` and `emptied[i]`.
final class FileReadAhead: @unchecked Sendable {
    private let descriptor: Int32
    private let buffers: UnsafeMutableRawBufferPointer
    private let chunk: Int
    private var counts = [0, 0]
    private let filled = [DispatchSemaphore(value: 0), DispatchSemaphore(value: 0)]
    /// Made at 0 and signalled once each: libdispatch traps on disposing of a semaphore below
    /// the value it was made with, and the last buffer filled is not handed back.
    private let emptied = [DispatchSemaphore(value: 0), DispatchSemaphore(value: 0)]

    /// One buffer of `chunk` bytes to read in turn, two to read ahead.
    private init(descriptor: Int32, chunk: Int, readsAhead: Bool) {
        self.descriptor = descriptor
        self.chunk = chunk
        buffers = UnsafeMutableRawBufferPointer.allocate(byteCount: (readsAhead ? 2 : 1) * chunk, alignment: 64)
        for semaphore in emptied { semaphore.signal() }
    }

    deinit { buffers.deallocate() }

    /// Below this many bytes a thread costs more than reading ahead saves.
    static let worthwhileBytes = 4 << 20

    /// Calls `body` with each chunk of `descriptor` from its offset to its end, in order — read
    /// ahead on another thread when `expectedBytes` make it worthwhile and a thread can be
    /// started, else in turn on the caller's. Returns the bytes read, or nil after a read error.
    static func chunks(of descriptor: Int32, expectedBytes: Int, chunk: Int = 1 << 20,
                       _ body: (UnsafeRawBufferPointer) -> Void) -> UInt64? {
        let readsAhead = expectedBytes >= worthwhileBytes
        let reader = FileReadAhead(descriptor: descriptor, chunk: chunk, readsAhead: readsAhead)
        guard readsAhead, OSThread.start({ reader.fill() }) == 0 else { return reader.readInTurn(body) }
        var total: UInt64 = 0
        var index = 0
        while true {
            reader.filled[index].wait()
            let count = reader.counts[index]
            guard count > 0 else { return count == 0 ? total : nil }   // the reader has stopped
            body(UnsafeRawBufferPointer(rebasing: reader.buffer(index)[..<count]))
            total += UInt64(count)
            reader.emptied[index].signal()
            index ^= 1
        }
    }

    private func buffer(_ index: Int) -> UnsafeMutableRawBufferPointer {
        UnsafeMutableRawBufferPointer(rebasing: buffers[(index * chunk)..<((index + 1) * chunk)])
    }

    /// The reader's loop: fills the buffers in turn until the end of the file or an error.
    private func fill() {
        var index = 0
        while true {
            emptied[index].wait()
            let count = Self.readChunk(descriptor, into: buffer(index))
            counts[index] = count
            filled[index].signal()
            guard count > 0 else { return }
            index ^= 1
        }
    }

    /// Without a second thread: read, then `body`, one chunk at a time.
    private func readInTurn(_ body: (UnsafeRawBufferPointer) -> Void) -> UInt64? {
        var total: UInt64 = 0
        while true {
            let count = Self.readChunk(descriptor, into: buffer(0))
            guard count > 0 else { return count == 0 ? total : nil }
            body(UnsafeRawBufferPointer(rebasing: buffer(0)[..<count]))
            total += UInt64(count)
        }
    }

    /// Reads up to `buffer.count` bytes (fewer only at the end of the file); -1 on an error.
    private static func readChunk(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) -> Int {
        var filled = 0
        while filled < buffer.count {
            let count = read(fd, buffer.baseAddress! + filled, buffer.count - filled)
            if count < 0 {
                if errno == EINTR { continue }
                return -1
            }
            if count == 0 { break }
            filled += count
        }
        return filled
    }
}
