#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CSystem
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A file written beside its destination and published whole or not at all: data is written
/// to a hidden staging file in the same folder, fsynced, then linked (no-replace) or renamed
/// into place and the folder fsynced. Until `commit`, the destination is untouched; a staging
/// file that is never committed is removed (also when dropped). Missing parent folders are
/// created. Not `Sendable`: one owner.
public final class StagingFile {
    /// Where `commit` publishes the file.
    public let destination: URL
    /// The hidden file being written.
    public let stagingPath: String
    private var descriptor: Int32
    private var isFinished = false
    private let policy: OverwritePolicy

    /// Opens a new staging file beside `destination`, creating missing parent folders.
    /// - Throws: `file` errors `destination-exists` (policy `.refuse`), `destination-unwritable`.
    public convenience init(destination: URL, policy: OverwritePolicy) throws(HTTPError) {
        let folder = try Self.prepareFolder(of: destination, policy: policy)
        let suffix = String(UInt64.random(in: 0...UInt64.max), radix: 36)
        try self.init(destination: destination, policy: policy,
                      path: folder + "/." + destination.lastPathComponent + "." + suffix + ".tessera-partial", flags: O_EXCL)
    }

    /// Opens the partial file of a resumable job at `partialPath` (beside `destination`),
    /// creating it when missing and keeping the bytes it already holds; writes append after them.
    /// - Throws: `file` errors `destination-exists` (policy `.refuse`), `destination-unwritable`.
    public convenience init(destination: URL, policy: OverwritePolicy, resumableAt partialPath: String) throws(HTTPError) {
        _ = try Self.prepareFolder(of: destination, policy: policy)
        try self.init(destination: destination, policy: policy, path: partialPath, flags: 0)
        guard lseek(descriptor, 0, SEEK_END) >= 0 else { throw Self.unwritable("Cannot open \(partialPath): \(Self.lastError()).") }
    }

    private init(destination: URL, policy: OverwritePolicy, path: String, flags: Int32) throws(HTTPError) {
        self.destination = destination
        self.policy = policy
        stagingPath = path
        descriptor = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC | flags, 0o644)   // never through a planted symlink
        guard descriptor >= 0 else {
            throw Self.unwritable("Cannot write \(path): \(Self.lastError()).")
        }
    }

    /// Checks the destination's name, creates missing parent folders, and applies `policy` to
    /// an existing destination; returns the folder's path.
    private static func prepareFolder(of destination: URL, policy: OverwritePolicy) throws(HTTPError) -> String {
        let folder = destination.deletingLastPathComponent().path
        let name = destination.lastPathComponent
        guard !name.isEmpty, name != ".", name != ".." else {
            throw Self.unwritable("The destination \(destination.path) is not a file name.")
        }
        var info = stat()
        if stat(folder, &info) != 0 {
            do {
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            } catch {
                throw Self.unwritable("Cannot create the folder \(folder) for \(destination.path).")
            }
        } else if (info.st_mode & S_IFMT) != S_IFDIR {
            throw Self.unwritable("Cannot write \(destination.path): \(folder) is not a folder.")
        }
        if policy == .refuse, FileManager.default.fileExists(atPath: destination.path) {
            throw Self.exists("\(destination.path) already exists and replacing it was not asked for.")
        }
        return folder
    }

    deinit {
        if !isFinished { discard() }
    }

    /// Appends bytes.
    /// - Throws: `destination-unwritable` (full disk, I/O error).
    public func append(_ bytes: UnsafeRawBufferPointer) throws(HTTPError) {
        guard FileDescriptorIO.writeAll(descriptor, bytes) else {
            throw Self.unwritable("Writing \(destination.path) failed: \(Self.lastError()).")
        }
    }

    /// Appends bytes.
    /// - Throws: `destination-unwritable` (full disk, I/O error).
    public func append(_ bytes: [UInt8]) throws(HTTPError) {
        let failure = bytes.withUnsafeBytes { raw -> HTTPError? in
            do throws(HTTPError) { try append(raw) } catch { return error }
            return nil
        }
        if let failure { throw failure }
    }

    /// Empties the staging file to write it again from the start (a retried transfer).
    /// - Throws: `destination-unwritable`.
    public func truncate() throws(HTTPError) {
        guard ftruncate(descriptor, 0) == 0, lseek(descriptor, 0, SEEK_SET) == 0 else {
            throw Self.unwritable("Cannot rewrite \(destination.path): \(Self.lastError()).")
        }
    }

    /// The bytes the file holds.
    public var size: UInt64 {
        var info = stat()
        return fstat(descriptor, &info) == 0 ? UInt64(info.st_size) : 0
    }

    /// Cuts the file to its first `length` bytes; later writes append after them.
    /// - Throws: `destination-unwritable`.
    public func truncate(to length: UInt64) throws(HTTPError) {
        guard ftruncate(descriptor, off_t(length)) == 0, lseek(descriptor, off_t(length), SEEK_SET) >= 0 else {
            throw Self.unwritable("Cannot cut \(stagingPath) back to \(length) bytes: \(Self.lastError()).")
        }
    }

    /// `count` bytes at `offset`, or nil when the file ends sooner or cannot be read.
    public func read(at offset: UInt64, count: Int) -> [UInt8]? {
        var bytes = [UInt8](repeating: 0, count: count)
        var done = 0
        while done < count {
            let got = bytes.withUnsafeMutableBytes { raw in
                pread(descriptor, raw.baseAddress! + done, count - done, off_t(offset) + off_t(done))
            }
            if got < 0, errno == EINTR { continue }
            guard got > 0 else { return nil }
            done += got
        }
        return bytes
    }

    /// Reserves `count` bytes of disk after the current end without changing the file's size,
    /// so a full volume is found before any of those bytes is written. Returns true when the
    /// space is reserved, false when the file system cannot reserve (nothing was checked).
    /// - Throws: `destination-full` when the volume has too little space.
    public func reserve(_ count: UInt64) throws(HTTPError) -> Bool {
        let result = tessera_reserve_keep_size(descriptor, Int64(size), Int64(clamping: count))
        if result == 0 { return true }
        if result == ENOSPC || result == EDQUOT || result == EFBIG {
            throw HTTPError(.file, code: "destination-full", "The volume of \(destination.path) has no room for \(count) more bytes: \(String(cString: strerror(result))).")
        }
        return false
    }

    /// Flushes written bytes to stable storage (a checkpoint may then refer to them).
    /// - Throws: `destination-unwritable`.
    public func sync() throws(HTTPError) {
        #if os(Linux)
        let result = fdatasync(descriptor)
        #else
        let result = fsync(descriptor)
        #endif
        guard result == 0 else {
            throw Self.unwritable("Flushing \(stagingPath) failed: \(Self.lastError()).")
        }
    }

    /// Closes the file and leaves it in place for a later run to resume.
    public func keep() {
        if descriptor >= 0 { close(descriptor) }
        descriptor = -1
        isFinished = true
    }

    /// Flushes, then publishes the file at the destination.
    /// - Throws: `destination-exists` when it appeared meanwhile (policy `.refuse`),
    ///   `destination-unwritable` for I/O failures.
    public func commit() throws(HTTPError) {
        precondition(!isFinished, "StagingFile committed twice")
        guard fsync(descriptor) == 0 else {
            throw Self.unwritable("Flushing \(destination.path) failed: \(Self.lastError()).")
        }
        close(descriptor)
        descriptor = -1
        switch policy {
        case .refuse:
            guard link(stagingPath, destination.path) == 0 else {
                let exists = errno == EEXIST
                let reason = exists ? "it appeared while writing" : Self.lastError()
                discard()
                let message = "Cannot publish \(destination.path): \(reason)."
                throw exists ? Self.exists(message) : Self.unwritable(message)
            }
            unlink(stagingPath)
        case .replace:
            guard rename(stagingPath, destination.path) == 0 else {
                let reason = Self.lastError()
                discard()
                throw Self.unwritable("Cannot publish \(destination.path): \(reason).")
            }
        }
        isFinished = true
        FileDescriptorIO.syncFolder(of: destination.path)
    }

    /// Removes the staging file; the destination is untouched.
    public func discard() {
        if descriptor >= 0 { close(descriptor) }
        descriptor = -1
        unlink(stagingPath)
        isFinished = true
    }

    private static func unwritable(_ message: String) -> HTTPError {
        HTTPError(.file, code: "destination-unwritable", message)
    }

    private static func exists(_ message: String) -> HTTPError {
        HTTPError(.file, code: "destination-exists", message)
    }

    private static func lastError() -> String { String(cString: strerror(errno)) }
}
