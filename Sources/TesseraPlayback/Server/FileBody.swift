#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import TesseraSupport

/// An open regular file to serve, owned until the server hands it to libmicrohttpd (which then
/// closes it). Closed on deinit if never handed over.
public final class FileBody: Sendable {
    private let descriptor: Lock<Int32>
    /// The file's size in bytes.
    public let byteCount: UInt64

    init(descriptor: Int32, byteCount: UInt64) {
        self.descriptor = Lock(descriptor)
        self.byteCount = byteCount
    }

    deinit {
        if let fd = take() { close(fd) }
    }

    /// Gives up ownership: the caller must close the descriptor (or pass it to MHD).
    func take() -> Int32? {
        descriptor.withLock { fd in
            guard fd >= 0 else { return nil }
            defer { fd = -1 }
            return fd
        }
    }

    /// Reads up to `count` bytes at `offset` without moving any file position; -1 on failure.
    public func read(at offset: UInt64, into buffer: UnsafeMutableRawPointer, count: Int) -> Int {
        descriptor.withLock { fd in fd >= 0 ? pread(fd, buffer, count, off_t(offset)) : -1 }
    }
}
