#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
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
    public init(destination: URL, policy: OverwritePolicy) throws(HTTPError) {
        self.destination = destination
        self.policy = policy
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
        let suffix = String(UInt64.random(in: 0...UInt64.max), radix: 36)
        stagingPath = folder + "/." + name + "." + suffix + ".tessera-partial"
        descriptor = open(stagingPath, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw Self.unwritable("Cannot write in \(folder): \(Self.lastError()).")
        }
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
