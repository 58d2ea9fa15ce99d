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
import TesseraSupport

/// The bytes of a fetched resource, in memory or in a spill file beside the output when they
/// were too many for the job's memory budget. A spill file is removed when its body is written
/// or dropped.
package enum ResourceBody: Sendable {
    /// Bytes in memory, with the budget they hold.
    case memory([UInt8], MemoryReservation)
    /// Bytes in a spill file.
    case spilled(SpillFile)

    /// The number of bytes.
    package var count: UInt64 {
        switch self {
        case .memory(let bytes, _): UInt64(bytes.count)
        case .spilled(let file): file.size
        }
    }

    /// The bytes and their reservation when in memory, moved out of the body (a binding in a
    /// `switch` would share the buffer with the subject, and an in-place change would copy it).
    package consuming func takeMemory() -> (bytes: [UInt8], reservation: MemoryReservation)? {
        switch self {
        case .memory(let bytes, let reservation): (bytes, reservation)
        case .spilled: nil
        }
    }

    /// Hands the bytes to `body` in order, at most `chunkBytes` at a time (the whole buffer at
    /// once when they are in memory).
    /// - Throws: what `body` throws; `destination-unwritable` when a spill file cannot be read.
    package func forEachChunk(_ chunkBytes: Int = SpillFile.chunkBytes, _ body: ([UInt8]) throws(HLSError) -> Void) throws(HLSError) {
        switch self {
        case .memory(let bytes, _):
            try body(bytes)
        case .spilled(let file):
            try file.forEachChunk(chunkBytes, body)
        }
    }
}

/// A resource body on disk: a hidden file in the output's spill folder, created never through a
/// symlink, removed when the last owner lets go.
package final class SpillFile: Sendable {
    /// How much of a spill file is read at a time.
    package static let chunkBytes = 1 << 20

    /// Where it is.
    package let path: String

    /// Creates an empty spill file in `folder`.
    /// - Throws: `destination-unwritable`.
    package init(in folder: String) throws(HLSError) {
        let name = ".spill-" + String(UInt64.random(in: 0...UInt64.max), radix: 36)
        path = folder + "/" + name
        let fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else {
            throw HLSError(.destinationUnwritable, "Cannot create a spill file in \(folder): \(FileDescriptorIO.lastError).")
        }
        close(fd)
    }

    deinit { unlink(path) }

    /// Its size now.
    package var size: UInt64 {
        var info = stat()
        return stat(path, &info) == 0 ? UInt64(info.st_size) : 0
    }

    /// Opens it for reading and writing, positioned at its end.
    /// - Throws: `destination-unwritable`.
    package func openHandle() throws(HLSError) -> DurableFile {
        let fd = SpillFile.openDescriptor(path)
        guard fd >= 0, lseek(fd, 0, SEEK_END) >= 0 else {
            throw HLSError(.destinationUnwritable, "Cannot open the spill file \(path): \(FileDescriptorIO.lastError).")
        }
        return DurableFile(descriptor: fd, path: path)
    }

    private static func openDescriptor(_ path: String) -> Int32 {
        open(path, O_RDWR | O_NOFOLLOW | O_CLOEXEC)
    }

    /// Hands the file's bytes to `body` in order, `chunkBytes` at a time.
    package func forEachChunk(_ chunkBytes: Int, _ body: ([UInt8]) throws(HLSError) -> Void) throws(HLSError) {
        let handle = try openHandle()
        var offset: UInt64 = 0
        let total = handle.size
        while offset < total {
            let count = Int(min(UInt64(chunkBytes), total - offset))
            guard let chunk = handle.read(at: offset, count: count) else {
                throw HLSError(.destinationUnwritable, "The spill file \(path) could not be read back.")
            }
            try body(chunk)
            offset += UInt64(count)
        }
    }
}
