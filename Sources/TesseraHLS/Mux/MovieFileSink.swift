import TesseraMedia
import TesseraSupport

/// The muxed file as it is written: bytes gathered into 4 MiB appends, each hashed (SHA-256),
/// given to the transport stream validator when the file is MPEG-TS, and its writeback started
/// (so the sync before publication waits for less).
struct MovieFileSink {
    private let output: DurableFile
    private let hasher: SHA256Hasher
    private var buffer: [UInt8] = []
    /// Bytes appended to the file so far.
    private(set) var written: UInt64 = 0
    /// Checks an MPEG-TS file as it is written.
    var validator: TSValidator?

    /// A sink appending to `output`.
    /// - Throws: `destination-unwritable` when SHA-256 is unavailable.
    init(_ output: DurableFile) throws(HLSError) {
        self.output = output
        do { hasher = try SHA256Hasher() } catch { throw HLSError(.destinationUnwritable, "SHA-256 is unavailable: \(error).") }
        buffer.reserveCapacity(Self.chunkBytes + (1 << 20))
    }

    static let chunkBytes = 4 << 20

    /// Appends `bytes` (written once 4 MiB have gathered).
    /// - Throws: `destination-unwritable`, `insufficient-space`.
    mutating func append(_ bytes: [UInt8]) throws(HLSError) {
        buffer += bytes
        if buffer.count >= Self.chunkBytes { try flush() }
    }

    /// Writes what is gathered; the file's size and SHA-256.
    /// - Throws: `destination-unwritable`, `insufficient-space`.
    mutating func finish() throws(HLSError) -> (byteCount: UInt64, sha256: SHA256Digest) {
        try flush()
        return (written, hasher.finalize())
    }

    private mutating func flush() throws(HLSError) {
        guard !buffer.isEmpty else { return }
        hasher.update(buffer)
        validator?.consume(buffer)
        do { try output.append(buffer) } catch { throw HLSError(destination: error) }
        output.startWriteback(at: written, count: buffer.count)
        written += UInt64(buffer.count)
        buffer.removeAll(keepingCapacity: true)
    }
}
