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

/// One reading of a `FileBodyStream`: its open descriptor, read in order up to the measured
/// length; at the end the file must still have that length.
final class FileBodyStreamReader: HTTPBodyStreamReader {
    private let descriptor: Int32
    private let file: URL
    private let length: Int64
    private var offset: Int64 = 0

    init(descriptor: Int32, file: URL, length: Int64) {
        self.descriptor = descriptor
        self.file = file
        self.length = length
    }

    deinit { close(descriptor) }

    func read(into buffer: UnsafeMutableRawBufferPointer) throws(HTTPError) -> Int {
        let wanted = Int(min(Int64(buffer.count), length - offset))
        guard wanted > 0 else {
            try checkUnchanged()
            return 0
        }
        while true {
            let count = pread(descriptor, buffer.baseAddress, wanted, off_t(offset))
            if count < 0, errno == EINTR { continue }
            guard count >= 0 else {
                throw HTTPError(.file, code: .uploadUnreadable, "Cannot read the upload \(file.path): \(FileDescriptorIO.lastError).")
            }
            guard count > 0 else { throw FileBodyStream.changed(file, from: length, to: offset) }
            offset += Int64(count)
            return count
        }
    }

    /// The file has not grown (nor been truncated and refilled) past what was read.
    private func checkUnchanged() throws(HTTPError) {
        var info = stat()
        guard fstat(descriptor, &info) == 0 else {
            throw HTTPError(.file, code: .uploadUnreadable, "Cannot read the upload \(file.path): \(FileDescriptorIO.lastError).")
        }
        guard Int64(info.st_size) == length else { throw FileBodyStream.changed(file, from: length, to: Int64(info.st_size)) }
    }
}
