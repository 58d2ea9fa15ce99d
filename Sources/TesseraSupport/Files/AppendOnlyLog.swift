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

/// A durable append-only log of JSON records, one per line: each append is written whole and
/// fsynced before it returns; a process killed mid-append leaves at most a torn last line, which
/// the next open drops (as it drops any line that does not decode). `compact` rewrites the log
/// from a snapshot through a temporary file and a rename. Not thread-safe: one owner, which
/// serialises access.
package final class AppendOnlyLog<Record: Codable> {
    package let file: URL
    /// The records read when the log was opened, in order.
    package private(set) var opened: [Record] = []
    /// Lines dropped when opening because they did not decode.
    package private(set) var droppedLines = 0
    /// Records appended since the last compaction (or open).
    package private(set) var lineCount = 0
    private var descriptor: Int32
    /// The largest log read when opening (a longer one is refused as unusable).
    package static var maximumBytes: Int { 256 << 20 }

    /// Opens (or creates, owner-only) the log at `file`.
    /// - Throws: `log-unusable`.
    package init(file: URL) throws(SupportError) {
        self.file = file
        do {
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
        } catch {
            throw Self.unusable(file, "its folder cannot be created")
        }
        // Never through a symlink: a planted link must not redirect our writes elsewhere.
        descriptor = open(file.path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw Self.unusable(file, String(cString: strerror(errno))) }
        errno = 0
        guard let existing = FileDescriptorIO.readAll(descriptor, limit: Self.maximumBytes) else {
            let reason = errno == 0 ? "it is over \(Self.maximumBytes) bytes" : String(cString: strerror(errno))
            close(descriptor)
            throw Self.unusable(file, reason)
        }
        let (records, whole, dropped) = Self.decode(existing)
        opened = records
        droppedLines = dropped
        lineCount = opened.count
        guard ftruncate(descriptor, off_t(whole)) == 0, lseek(descriptor, 0, SEEK_END) >= 0 else {
            close(descriptor)
            throw Self.unusable(file, String(cString: strerror(errno)))
        }
    }

    deinit { if descriptor >= 0 { close(descriptor) } }

    /// The records of `bytes` read as a log, the length of its whole lines, and the lines
    /// dropped: whole lines end with a newline (anything after the last one is a torn append),
    /// and a line that does not decode is damaged.
    private static func decode(_ bytes: [UInt8]) -> (records: [Record], whole: Int, dropped: Int) {
        let whole = bytes.lastIndex(of: 0x0A).map { $0 + 1 } ?? 0
        var dropped = whole < bytes.count ? 1 : 0
        var records: [Record] = []
        let decoder = JSONDecoder()
        for line in bytes[..<whole].split(separator: 0x0A) {
            if let record = try? decoder.decode(Record.self, from: Data(line)) {   // else a damaged line, counted
                records.append(record)
            } else {
                dropped += 1
            }
        }
        return (records, whole, dropped)
    }

    /// Lets go of the records read when the log was opened (their owner has taken them): a log
    /// kept open for days holds none of its history in memory.
    package func releaseOpened() {
        opened = []
    }

    /// Every record the log holds now, read back from its file (lines that do not decode
    /// skipped, as when opening).
    /// - Throws: `log-unusable`.
    package func readBack() throws(SupportError) -> [Record] {
        let reader = open(file.path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
        guard reader >= 0 else { throw Self.unusable(file, String(cString: strerror(errno))) }
        defer { close(reader) }
        errno = 0
        guard let bytes = FileDescriptorIO.readAll(reader, limit: Self.maximumBytes) else {
            throw Self.unusable(file, errno == 0 ? "it is over \(Self.maximumBytes) bytes" : String(cString: strerror(errno)))
        }
        return Self.decode(bytes).records
    }

    /// Appends `record` durably.
    /// - Throws: `log-write-failed` — full disk, I/O error.
    package func append(_ record: Record) throws(SupportError) {
        try append(contentsOf: [record])
    }

    /// Appends `records` durably with one write and one fsync.
    /// - Throws: `log-write-failed` — full disk, I/O error.
    package func append(contentsOf records: [Record]) throws(SupportError) {
        guard !records.isEmpty else { return }
        var bytes: [UInt8] = []
        for record in records { bytes += try Self.line(record) }
        try writeAll(descriptor, bytes)
        guard fsync(descriptor) == 0 else { throw Self.writeFailed(file) }
        lineCount += records.count
    }

    /// Replaces the log with `records`, atomically.
    /// - Throws: `log-write-failed`.
    package func compact(_ records: [Record]) throws(SupportError) {
        let temporary = file.path + ".tmp-" + String(UInt64.random(in: 0...UInt64.max), radix: 36)
        let fresh = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard fresh >= 0 else { throw Self.writeFailed(file) }
        do throws(SupportError) {
            for record in records { try writeAll(fresh, Self.line(record)) }
            guard fsync(fresh) == 0, rename(temporary, file.path) == 0 else { throw Self.writeFailed(file) }
        } catch {
            close(fresh)
            unlink(temporary)
            throw error
        }
        close(descriptor)
        descriptor = fresh
        lineCount = records.count
        FileDescriptorIO.syncFolder(of: file.path)
    }

    private static func line(_ record: Record) throws(SupportError) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        do {
            return Array(try encoder.encode(record)) + [0x0A]
        } catch {
            throw SupportError(.logWriteFailed, "A log record could not be encoded: \(error).")
        }
    }

    private func writeAll(_ descriptor: Int32, _ bytes: [UInt8]) throws(SupportError) {
        guard FileDescriptorIO.writeAll(descriptor, bytes) else { throw Self.writeFailed(file) }
    }

    private static func unusable(_ file: URL, _ reason: String) -> SupportError {
        SupportError(.logUnusable, "The log \(file.path) cannot be used: \(reason).")
    }

    private static func writeFailed(_ file: URL) -> SupportError {
        SupportError(.logWriteFailed, "Writing the log \(file.path) failed: \(String(cString: strerror(errno))).")
    }
}
