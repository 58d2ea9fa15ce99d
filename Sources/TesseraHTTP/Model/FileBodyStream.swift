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

/// A regular file as a body stream, of the size it had when the stream was made. A reading fails
/// (`file`, `upload-unreadable`) when the file is gone, is no longer a regular file, or has
/// shrunk or grown since: what is sent is exactly what was measured (and signed, for SigV4).
final class FileBodyStream: HTTPBodyStream {
    let file: URL
    let length: Int64
    /// The descriptor opened to measure the file, handed to the first reading (so a file sent
    /// once is opened once); later readings open the file again.
    private let measured: Lock<Int32?>

    /// The stream of `file` at its present size.
    /// - Throws: `file` (`upload-unreadable`) when it cannot be opened or is not a regular file.
    init(_ file: URL) throws(HTTPError) {
        self.file = file
        let opened = try Self.openFile(file)
        measured = Lock(opened.descriptor)
        length = opened.size
    }

    deinit {
        if let descriptor = measured.withLock({ $0 }) { close(descriptor) }
    }

    var summary: String { "the file \(file.path)" }

    func makeReader() throws(HTTPError) -> any HTTPBodyStreamReader {
        if let descriptor = measured.withLock({ state in defer { state = nil }; return state }) {
            return FileBodyStreamReader(descriptor: descriptor, file: file, length: length)
        }
        let opened = try Self.openFile(file)
        guard opened.size == length else {
            close(opened.descriptor)
            throw Self.changed(file, from: length, to: opened.size)
        }
        return FileBodyStreamReader(descriptor: opened.descriptor, file: file, length: length)
    }

    /// Opens `file` for reading and measures it.
    /// - Throws: `file` (`upload-unreadable`) when it cannot be opened or is not a regular file.
    static func openFile(_ file: URL) throws(HTTPError) -> (descriptor: Int32, size: Int64) {
        let descriptor = open(file.path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw HTTPError(.file, code: .uploadUnreadable, "Cannot read the upload \(file.path): \(FileDescriptorIO.lastError).")
        }
        var info = stat()
        guard fstat(descriptor, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
            close(descriptor)
            throw HTTPError(.file, code: .uploadUnreadable, "The upload \(file.path) is not a regular file.")
        }
        return (descriptor, Int64(info.st_size))
    }

    /// The file's size is not the one measured.
    static func changed(_ file: URL, from length: Int64, to size: Int64) -> HTTPError {
        HTTPError(.file, code: .uploadUnreadable,
                  "The upload \(file.path) changed while it was being sent: \(length) bytes were measured, it now has \(size).")
    }
}
