#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Random access to the bytes of an ISO-BMFF file: the validator reads box headers and the small
/// boxes it parses (moov, moof), and skips media data, so memory stays small whatever the size.
public protocol MP4ByteSource {
    /// The total size.
    var size: UInt64 { get }
    /// Up to `count` bytes at `offset` (fewer only at the end).
    func read(at offset: UInt64, count: Int) -> [UInt8]
    /// Calls `body` with up to `count` bytes at `offset` (fewer only at the end): borrowed where
    /// the source holds them, else read.
    func withBytes<Result>(at offset: UInt64, count: Int, _ body: (UnsafeRawBufferPointer) -> Result) -> Result
}

extension MP4ByteSource {
    /// Reads the bytes, then lends them.
    public func withBytes<Result>(at offset: UInt64, count: Int, _ body: (UnsafeRawBufferPointer) -> Result) -> Result {
        read(at: offset, count: count).withUnsafeBytes(body)
    }
}

/// Bytes held in memory.
public struct MP4MemorySource: MP4ByteSource {
    private let bytes: [UInt8]

    /// A source over `bytes`.
    public init(_ bytes: [UInt8]) { self.bytes = bytes }

    public var size: UInt64 { UInt64(bytes.count) }

    public func read(at offset: UInt64, count: Int) -> [UInt8] {
        guard offset < size else { return [] }
        let start = Int(offset)
        return Array(bytes[start..<min(bytes.count, start + max(0, count))])
    }

    /// Lends the bytes held, without a copy.
    public func withBytes<Result>(at offset: UInt64, count: Int, _ body: (UnsafeRawBufferPointer) -> Result) -> Result {
        let start = Int(min(offset, size))
        let end = min(bytes.count, start + max(0, count))
        return bytes.withUnsafeBytes { body(UnsafeRawBufferPointer(rebasing: $0[start..<end])) }
    }
}

/// A file read with `pread`.
public final class MP4FileSource: MP4ByteSource {
    private let descriptor: Int32
    /// The file's size when opened.
    public let size: UInt64

    /// Opens `path`; nil when it cannot be read.
    public convenience init?(path: String) {
        self.init(descriptor: open(path, O_RDONLY | O_CLOEXEC))
    }

    /// Reads the open file `descriptor` (closed on deinit; nil, closed, when it is not one).
    public init?(descriptor: Int32) {
        guard descriptor >= 0 else { return nil }
        self.descriptor = descriptor
        var info = stat()
        guard fstat(descriptor, &info) == 0 else {
            close(descriptor)
            return nil
        }
        size = UInt64(info.st_size)
    }

    deinit { close(descriptor) }

    public func read(at offset: UInt64, count: Int) -> [UInt8] {
        guard offset < size, count > 0 else { return [] }
        var buffer = [UInt8](repeating: 0, count: Int(min(UInt64(count), size - offset)))
        var done = 0
        while done < buffer.count {
            let n = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress! + done, $0.count - done, off_t(offset) + off_t(done)) }
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { break }
            done += n
        }
        return Array(buffer.prefix(done))
    }
}
