#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Appends to a `DurableFile` for a writer that cannot hold the file itself (its owner keeps it
/// behind a lock): the descriptor and the path, nothing the owner changes. Valid only while the
/// file is open (its owner closes it after the writer is done).
package struct DurableFileAppender: Sendable {
    let descriptor: Int32
    /// Where the file is (for messages).
    package let path: String

    /// Appends through `descriptor`, which its caller keeps open while this is used (standard
    /// output); `path` names it in messages.
    package init(descriptor: Int32, path: String) {
        self.descriptor = descriptor
        self.path = path
    }

    /// The bytes the file holds.
    package var size: UInt64 {
        var info = stat()
        return fstat(descriptor, &info) == 0 ? UInt64(info.st_size) : 0
    }

    /// Appends bytes.
    /// - Throws: `destination-unwritable` (full disk, I/O error).
    package func append(_ bytes: UnsafeRawBufferPointer) throws(SupportError) {
        guard FileDescriptorIO.writeAll(descriptor, bytes) else {
            throw DurableFile.unwritable("Writing \(path) failed: \(FileDescriptorIO.lastError).")
        }
    }

    /// Appends bytes.
    /// - Throws: `destination-unwritable` (full disk, I/O error).
    package func append(_ bytes: [UInt8]) throws(SupportError) {
        let failure = bytes.withUnsafeBytes { raw -> SupportError? in
            do throws(SupportError) { try append(raw) } catch { return error }
            return nil
        }
        if let failure { throw failure }
    }
}
