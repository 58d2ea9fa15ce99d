#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A download's partial file, kept beside its destination across pauses and restarts and
/// published under a name that does not exist yet (never replacing a file).
final class ResumableFile {
    let path: String
    private var descriptor: Int32

    /// Opens (or creates) the partial file at `path` for appending.
    /// - Throws: `file` (`destination-unwritable`).
    init(path: String) throws(HTTPError) {
        self.path = path
        descriptor = open(path, O_WRONLY | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o644)   // never through a planted symlink
        guard descriptor >= 0, lseek(descriptor, 0, SEEK_END) >= 0 else {
            throw Self.unwritable("Cannot open \(path): \(FileDescriptorIO.lastError).")
        }
    }

    deinit { if descriptor >= 0 { close(descriptor) } }

    /// The bytes held.
    var size: Int64 {
        var info = stat()
        return fstat(descriptor, &info) == 0 ? Int64(info.st_size) : 0
    }

    /// Empties the file (the resource changed, or the server ignored the range).
    func truncate() throws(HTTPError) {
        guard ftruncate(descriptor, 0) == 0, lseek(descriptor, 0, SEEK_SET) == 0 else {
            throw Self.unwritable("Cannot rewrite \(path): \(FileDescriptorIO.lastError).")
        }
    }

    func append(_ bytes: [UInt8]) throws(HTTPError) {
        guard FileDescriptorIO.writeAll(descriptor, bytes) else {
            throw Self.unwritable("Writing \(path) failed: \(FileDescriptorIO.lastError).")
        }
    }

    /// Flushes what was written (at a pause, so a crash afterwards keeps it).
    func sync() {
        fsync(descriptor)
    }

    /// Flushes and links the file to the first of `candidates` that does not exist, removes the
    /// partial name, and returns where it went.
    /// - Throws: `destination-unwritable`; the partial file is kept.
    func publish(to candidates: [URL]) throws(HTTPError) -> URL {
        guard fsync(descriptor) == 0 else { throw Self.unwritable("Flushing \(path) failed: \(FileDescriptorIO.lastError).") }
        for candidate in candidates {
            if link(path, candidate.path) == 0 {
                unlink(path)
                FileDescriptorIO.syncFolder(of: candidate.path)
                return candidate
            }
            guard errno == EEXIST else {
                throw Self.unwritable("Cannot publish \(candidate.path): \(FileDescriptorIO.lastError).")
            }
        }
        throw Self.unwritable("Every candidate name for \(path) is taken.")
    }

    private static func unwritable(_ message: String) -> HTTPError {
        HTTPError(.file, code: "destination-unwritable", message)
    }
}
