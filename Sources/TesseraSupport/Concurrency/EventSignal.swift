#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A wake-up a thread can poll(2) on beside its sockets: a non-blocking self-pipe that `signal`
/// makes readable and `drain` empties. Signalling after `close` does nothing (the descriptors are
/// never touched once closed, so a reused number is never written).
package final class EventSignal: Sendable {
    private let state: Lock<(read: Int32, write: Int32)>

    /// A fresh pipe.
    /// - Throws: `io-failed` when the kernel refuses one.
    package init() throws(SupportError) {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else {
            throw SupportError(.ioFailed, "No pipe could be made: \(String(cString: strerror(errno))).")
        }
        for end in ends {
            _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
        }
        state = Lock((ends[0], ends[1]))
    }

    deinit { close() }

    /// The descriptor to poll for `POLLIN` (-1 once closed).
    package var descriptor: Int32 { state.withLock { $0.read } }

    /// Makes the descriptor readable (a full pipe is already readable: nothing is lost).
    package func signal() {
        state.withLock { ends in
            guard ends.write >= 0 else { return }
            var one: UInt8 = 1
            _ = write(ends.write, &one, 1)
        }
    }

    /// Empties it after a poll saw it readable.
    package func drain() {
        state.withLock { ends in
            guard ends.read >= 0 else { return }
            var buffer = [UInt8](repeating: 0, count: 256)
            while read(ends.read, &buffer, buffer.count) > 0 {}
        }
    }

    /// Closes it; later signals do nothing.
    package func close() {
        state.withLock { ends in
            guard ends.read >= 0 else { return }
            _ = Glibc.close(ends.read)
            _ = Glibc.close(ends.write)
            ends = (-1, -1)
        }
    }
}
