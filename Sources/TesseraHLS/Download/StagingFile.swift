#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

/// A file written beside its destination and published whole or not at all: data is written
/// to a hidden staging file in the same folder, fsynced, then linked (no-replace) or renamed
/// into place and the folder fsynced. Until `commit`, the destination is untouched; a staging
/// file that is never committed is removed. Not `Sendable`: one owner.
final class StagingFile {
    let destination: URL
    let stagingPath: String
    private var descriptor: Int32
    private var isFinished = false
    private let policy: OverwritePolicy

    /// Opens a new staging file beside `destination`.
    /// - Throws: `destination-exists` (policy `.refuse`), `destination-unwritable`.
    init(destination: URL, policy: OverwritePolicy) throws(HLSError) {
        self.destination = destination
        self.policy = policy
        let folder = destination.deletingLastPathComponent().path
        let name = destination.lastPathComponent
        guard !name.isEmpty, name != ".", name != ".." else {
            throw HLSError(.destinationUnwritable, "The destination \(destination.path) is not a file name.")
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw HLSError(.destinationUnwritable, "Cannot write \(destination.path): the folder \(folder) does not exist.")
        }
        if policy == .refuse, FileManager.default.fileExists(atPath: destination.path) {
            throw HLSError(.destinationExists, "\(destination.path) already exists; pass --overwrite to replace it.")
        }
        let suffix = String(UInt64.random(in: 0...UInt64.max), radix: 36)
        stagingPath = folder + "/." + name + "." + suffix + ".tessera-partial"
        descriptor = open(stagingPath, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw HLSError(.destinationUnwritable, "Cannot write in \(folder): \(Self.lastError()).")
        }
    }

    deinit {
        if !isFinished { discard() }
    }

    /// Appends bytes.
    /// - Throws: `destination-unwritable` (full disk, I/O error).
    func append(_ bytes: UnsafeRawBufferPointer) throws(HLSError) {
        guard var base = bytes.baseAddress else { return }
        var remaining = bytes.count
        while remaining > 0 {
            let n = write(descriptor, base, remaining)
            if n < 0 {
                if errno == EINTR { continue }
                throw HLSError(.destinationUnwritable, "Writing \(destination.path) failed: \(Self.lastError()).")
            }
            remaining -= n
            base += n
        }
    }

    /// Flushes, then publishes the file at the destination.
    /// - Throws: `destination-exists` when it appeared meanwhile (policy `.refuse`),
    ///   `destination-unwritable` for I/O failures.
    func commit() throws(HLSError) {
        precondition(!isFinished, "StagingFile committed twice")
        guard fsync(descriptor) == 0 else {
            throw HLSError(.destinationUnwritable, "Flushing \(destination.path) failed: \(Self.lastError()).")
        }
        close(descriptor)
        descriptor = -1
        switch policy {
        case .refuse:
            guard link(stagingPath, destination.path) == 0 else {
                let reason = errno == EEXIST ? "it appeared while downloading" : Self.lastError()
                discard()
                throw HLSError(errno == EEXIST ? .destinationExists : .destinationUnwritable,
                               "Cannot publish \(destination.path): \(reason).")
            }
            unlink(stagingPath)
        case .replace:
            guard rename(stagingPath, destination.path) == 0 else {
                let reason = Self.lastError()
                discard()
                throw HLSError(.destinationUnwritable, "Cannot publish \(destination.path): \(reason).")
            }
        }
        isFinished = true
        let folder = open(destination.deletingLastPathComponent().path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if folder >= 0 {
            fsync(folder)
            close(folder)
        }
    }

    /// Removes the staging file; the destination is untouched.
    func discard() {
        if descriptor >= 0 { close(descriptor) }
        descriptor = -1
        unlink(stagingPath)
        isFinished = true
    }

    private static func lastError() -> String { String(cString: strerror(errno)) }
}
