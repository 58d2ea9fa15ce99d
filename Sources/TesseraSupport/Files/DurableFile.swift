#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CSystem

/// A file written through one descriptor and made durable on request: whole appends, reads at
/// any offset, cutting back, space reservation and flushes. `StagingFile` publishes one; a
/// `StagingDirectory` holds many. Not `Sendable`: one owner.
public class DurableFile {
    /// Where the file is.
    public let path: String
    var descriptor: Int32

    /// Takes over `descriptor`, open for reading and writing at `path`, positioned at its end.
    package init(descriptor: Int32, path: String) {
        self.descriptor = descriptor
        self.path = path
    }

    deinit {
        if descriptor >= 0 { closeDescriptor(descriptor) }
    }

    /// Appends bytes.
    /// - Throws: `destination-unwritable` (full disk, I/O error).
    public func append(_ bytes: UnsafeRawBufferPointer) throws(SupportError) {
        try appender.append(bytes)
    }

    /// A sendable handle that appends to this file, for a writer that cannot hold the file
    /// itself (its owner keeps it behind a lock); valid while the file is open.
    package var appender: DurableFileAppender { DurableFileAppender(descriptor: descriptor, path: path) }

    /// Appends bytes.
    /// - Throws: `destination-unwritable` (full disk, I/O error).
    public func append(_ bytes: [UInt8]) throws(SupportError) {
        try appender.append(bytes)
    }

    /// Writes `bytes` at `offset` (over what is there, or extending the file), without moving
    /// where appends go.
    /// - Throws: `destination-unwritable`.
    public func write(_ bytes: [UInt8], at offset: UInt64) throws(SupportError) {
        let ok = bytes.withUnsafeBytes { FileDescriptorIO.writeAll(descriptor, $0, at: offset) }
        guard ok else { throw Self.unwritable("Writing \(path) failed: \(FileDescriptorIO.lastError).") }
    }

    /// The bytes the file holds.
    public var size: UInt64 { appender.size }

    /// Cuts the file to its first `length` bytes (0: empty it to write again from the start);
    /// later writes append after them.
    /// - Throws: `destination-unwritable`.
    public func truncate(to length: UInt64 = 0) throws(SupportError) {
        guard ftruncate(descriptor, off_t(length)) == 0, lseek(descriptor, off_t(length), SEEK_SET) >= 0 else {
            throw Self.unwritable("Cannot cut \(path) back to \(length) bytes: \(FileDescriptorIO.lastError).")
        }
    }

    /// `count` bytes at `offset`, or nil when the file ends sooner or cannot be read.
    public func read(at offset: UInt64, count: Int) -> [UInt8]? {
        var bytes = [UInt8](repeating: 0, count: count)
        let done = bytes.withUnsafeMutableBytes { read(at: offset, into: $0) }
        return done == count ? bytes : nil
    }

    /// Reads up to `buffer.count` bytes at `offset` into `buffer`; returns how many (fewer only at
    /// the end of the file or on an error).
    public func read(at offset: UInt64, into buffer: UnsafeMutableRawBufferPointer) -> Int {
        var done = 0
        while done < buffer.count {
            let got = pread(descriptor, buffer.baseAddress! + done, buffer.count - done, off_t(offset) + off_t(done))
            if got < 0, errno == EINTR { continue }
            guard got > 0 else { break }
            done += got
        }
        return done
    }

    /// Reserves `count` bytes of disk after the current end without changing the file's size,
    /// so a full volume is found before any of those bytes is written. Returns true when the
    /// space is reserved, false when the file system cannot reserve (nothing was checked).
    /// - Throws: `destination-full` when the volume has too little space.
    public func reserve(_ count: UInt64) throws(SupportError) -> Bool {
        let result = tessera_reserve_keep_size(descriptor, Int64(size), Int64(clamping: count))
        if result == 0 { return true }
        if result == ENOSPC || result == EDQUOT || result == EFBIG {
            throw SupportError(.destinationFull, "The volume of \(path) has no room for \(count) more bytes: \(String(cString: strerror(result))).")
        }
        return false
    }

    /// Starts writing the `count` bytes at `offset` back to the disk without waiting for them (a
    /// hint: the later `sync` has less to wait for; nothing is promised until it returns).
    public func startWriteback(at offset: UInt64, count: Int) {
        _ = tessera_start_writeback(descriptor, Int64(clamping: offset), Int64(count))
    }

    /// Flushes written bytes to stable storage (a checkpoint may then refer to them).
    /// - Throws: `destination-unwritable`.
    public func sync() throws(SupportError) {
        #if os(Linux)
        let result = fdatasync(descriptor)
        #else
        let result = fsync(descriptor)
        #endif
        guard result == 0 else {
            throw Self.unwritable("Flushing \(path) failed: \(FileDescriptorIO.lastError).")
        }
    }

    /// Flushes data and metadata (size) to stable storage, before a publication.
    /// - Throws: `destination-unwritable`.
    func syncWhole() throws(SupportError) {
        guard fsync(descriptor) == 0 else {
            throw Self.unwritable("Flushing \(path) failed: \(FileDescriptorIO.lastError).")
        }
    }

    /// Closes the descriptor (nothing after that but `path` is usable).
    public func close() {
        if descriptor >= 0 { closeDescriptor(descriptor) }
        descriptor = -1
    }

    static func unwritable(_ message: String) -> SupportError {
        SupportError(.destinationUnwritable, message)
    }
}

/// `close(2)`, named apart from `DurableFile.close()`.
private func closeDescriptor(_ descriptor: Int32) {
    close(descriptor)
}
