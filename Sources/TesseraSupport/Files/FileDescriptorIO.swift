#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CSystem

/// Whole writes and flushes on POSIX descriptors, shared by the module's file writers.
package enum FileDescriptorIO {
    /// Writes every byte of `bytes`, retrying short writes and EINTR; false on an error (errno set).
    package static func writeAll(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) -> Bool {
        guard var base = bytes.baseAddress else { return true }
        var remaining = bytes.count
        while remaining > 0 {
            let n = write(descriptor, base, remaining)
            if n < 0 {
                if errno == EINTR { continue }
                return false
            }
            remaining -= n
            base += n
        }
        return true
    }

    /// Writes every byte of `bytes` at `offset` (pwrite), retrying short writes and EINTR; false
    /// on an error (errno set).
    package static func writeAll(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer, at offset: UInt64) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        var done = 0
        while done < bytes.count {
            let n = pwrite(descriptor, base + done, bytes.count - done, off_t(offset) + off_t(done))
            if n < 0 {
                if errno == EINTR { continue }
                return false
            }
            done += n
        }
        return true
    }

    /// `writeAll` for an array.
    package static func writeAll(_ descriptor: Int32, _ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { writeAll(descriptor, $0) }
    }

    /// Every byte from the current offset to the end, retrying short reads and EINTR; nil on an
    /// error (errno set) or past `limit` bytes.
    package static func readAll(_ descriptor: Int32, limit: Int) -> [UInt8]? {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress!, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                return nil
            }
            if n == 0 { return bytes }
            guard bytes.count + n <= limit else { return nil }
            bytes += chunk[..<n]
        }
    }

    /// The bytes of the regular file at `path` (never through a symlink's target check: the file
    /// is opened as given and must be regular), read in one copy, at most `limit`.
    /// - Throws: `destination-unwritable` naming the reason (missing, not regular, over the limit,
    ///   changed while being read).
    package static func readRegularFile(_ path: String, limit: Int) throws(SupportError) -> [UInt8] {
        let (fd, size) = try openRegularFile(path, limit: limit)
        defer { close(fd) }
        // An empty file is the empty array: `Array(unsafeUninitializedCapacity: 0)` writes its
        // count into the shared empty-array storage, a race ThreadSanitizer reports.
        guard size > 0, let bytes = readExactly(fd, count: size, from: 0) else {
            guard size > 0 else { return [] }
            throw SupportError(.destinationUnwritable, "Cannot read \(path): it changed while being read.")
        }
        return bytes
    }

    /// Opens the regular file at `path` (as given, not through a symlink's target check) for
    /// reading and returns its descriptor, which the caller closes, and its size, at most `limit`.
    /// - Throws: `destination-unwritable` naming the reason (missing, not regular, over the limit).
    package static func openRegularFile(_ path: String, limit: Int) throws(SupportError) -> (descriptor: Int32, size: Int) {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw SupportError(.destinationUnwritable, "Cannot read \(path): \(lastError).") }
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
            close(fd)
            throw SupportError(.destinationUnwritable, "Cannot read \(path): not a regular file.")
        }
        let size = Int(info.st_size)
        guard size <= limit else {
            close(fd)
            throw SupportError(.destinationUnwritable, "\(path) is \(size) bytes, over the limit of \(limit).")
        }
        return (fd, size)
    }

    /// `count` bytes of the regular file at `path` from `offset`.
    /// - Throws: `destination-unwritable` when it cannot be opened or holds fewer bytes there.
    package static func readRegularFile(_ path: String, offset: UInt64, count: Int) throws(SupportError) -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw SupportError(.destinationUnwritable, "Cannot read \(path): \(lastError).") }
        defer { close(fd) }
        guard count > 0 else { return [] }
        guard let bytes = readExactly(fd, count: count, from: offset) else {
            throw SupportError(.destinationUnwritable, "\(path) holds fewer than \(count) bytes from \(offset).")
        }
        return bytes
    }

    /// Appends `count` bytes of the regular file at `path` from `offset` to `bytes`, read
    /// straight into its tail (no buffer between); `bytes` is unchanged when it throws.
    /// - Throws: `destination-unwritable` when it cannot be opened or holds fewer bytes there.
    package static func readRegularFile(_ path: String, offset: UInt64, count: Int, appendingTo bytes: inout [UInt8]) throws(SupportError) {
        guard count > 0 else { return }
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw SupportError(.destinationUnwritable, "Cannot read \(path): \(lastError).") }
        defer { close(fd) }
        let start = bytes.count
        bytes.append(contentsOf: repeatElement(0, count: count))
        var done = 0
        bytes.withUnsafeMutableBytes { buffer in
            while done < count {
                let n = pread(fd, buffer.baseAddress! + start + done, count - done, off_t(offset) + off_t(done))
                if n < 0, errno == EINTR { continue }
                if n <= 0 { break }
                done += n
            }
        }
        guard done == count else {
            bytes.removeSubrange(start...)
            throw SupportError(.destinationUnwritable, "\(path) holds fewer than \(count) bytes from \(offset).")
        }
    }

    /// Exactly `count` (> 0) bytes of `fd` from `offset` (`pread`, retried on EINTR), or nil
    /// when fewer are there.
    private static func readExactly(_ fd: Int32, count: Int, from offset: UInt64) -> [UInt8]? {
        var done = 0
        let bytes = [UInt8](unsafeUninitializedCapacity: count) { buffer, filled in
            while done < count {
                let n = pread(fd, buffer.baseAddress! + done, count - done, off_t(offset) + off_t(done))
                if n < 0, errno == EINTR { continue }
                if n <= 0 { break }
                done += n
            }
            filled = done
        }
        return done == count ? bytes : nil
    }

    /// fsyncs the folder holding `path` (after a link or rename in it), best effort.
    package static func syncFolder(of path: String) {
        var folder = path
        while let last = folder.last, last != "/" { folder.removeLast() }
        let descriptor = open(folder.isEmpty ? "." : folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if descriptor >= 0 {
            fsync(descriptor)
            close(descriptor)
        }
    }

    /// The text of the current errno.
    package static var lastError: String { String(cString: strerror(errno)) }
}
