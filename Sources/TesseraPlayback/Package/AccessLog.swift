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

/// A server's access log: one line per request — UTC time, method, path (no query), status and
/// body bytes — appended to a file (never through a symlink), each line in one write. Not
/// flushed to disk per line: it is a record of what was served, not a journal.
public final class AccessLog: Sendable {
    private let descriptor: Int32
    private let lock = Lock.section()

    /// Opens (or creates) the log at `path` for appending.
    /// - Throws: `log-unwritable`.
    public init(path: String) throws(PlaybackError) {
        let fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC | O_NOFOLLOW, 0o644)
        guard fd >= 0 else { throw PlaybackError(.logUnwritable, "Cannot open the access log \(path): \(String(cString: strerror(errno))).") }
        descriptor = fd
    }

    deinit { close(descriptor) }

    /// Records one request.
    public func record(method: ServerRequest.Method, path: String, status: Int, bytes: UInt64) {
        write("\(Date().ISO8601Format()) \(method == .get ? "GET" : "HEAD") \(path) \(status) \(bytes)\n")
    }

    /// Records something the server noticed (`NOTICE <text>`), such as a file it refused to serve.
    public func note(_ text: String) {
        write("\(Date().ISO8601Format()) NOTICE \(text)\n")
    }

    private func write(_ line: String) {
        lock.withLock { _ in _ = FileDescriptorIO.writeAll(descriptor, Array(line.utf8)) }
    }
}
