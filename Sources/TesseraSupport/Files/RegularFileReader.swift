#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads a regular file a piece at a time, for a consumer that keeps only what it has not used
/// yet (a playlist parsed as it is read): at most the size the file had when it was opened, which
/// is at most the limit given.
package final class RegularFileReader {
    private let descriptor: Int32
    private let path: String
    /// Bytes left of the size the file had when opened.
    private var remaining: Int

    /// Opens the regular file at `path`.
    /// - Throws: `destination-unwritable` naming the reason (missing, not regular, over `limit`).
    package init(path: String, limit: Int) throws(SupportError) {
        (descriptor, remaining) = try FileDescriptorIO.openRegularFile(path, limit: limit)
        self.path = path
    }

    deinit { close(descriptor) }

    /// Appends up to `count` more bytes to `bytes`, read straight into its tail; returns false
    /// once the whole file was read (nothing appended then).
    /// - Throws: `destination-unwritable` when the file cannot be read or ends early (it changed
    ///   while being read); `bytes` is unchanged then.
    package func read(appendingTo bytes: inout [UInt8], upTo count: Int) throws(SupportError) -> Bool {
        let wanted = min(count, remaining)
        guard wanted > 0 else { return false }
        let start = bytes.count
        bytes.append(contentsOf: repeatElement(0, count: wanted))
        var done = 0
        var failure: String?
        bytes.withUnsafeMutableBytes { buffer in
            while done < wanted {
                let n = readDescriptor(descriptor, buffer.baseAddress! + start + done, wanted - done)
                if n < 0, errno == EINTR { continue }
                if n < 0 { failure = String(cString: strerror(errno)) }
                if n == 0 { failure = "it changed while being read" }
                if n <= 0 { break }
                done += n
            }
        }
        if let failure {
            bytes.removeSubrange(start...)
            throw SupportError(.destinationUnwritable, "Cannot read \(path): \(failure).")
        }
        remaining -= wanted
        return true
    }
}

/// `read(2)`, named apart from the reader's own method.
private func readDescriptor(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
    read(descriptor, buffer, count)
}
