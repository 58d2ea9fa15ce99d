import TesseraMedia
import TesseraSupport

/// The muxed file as it is written: bytes gathered into 4 MiB appends, each hashed (SHA-256) and
/// given to the transport stream validator when the file is MPEG-TS while it is written (side by
/// side), and its writeback started (so the sync before publication waits for less). `pipe`
/// makes the next 4 MiB while the last are hashed and written.
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

    /// Appends what `fill` adds to a buffer, call after call until it adds nothing: each call
    /// makes the next buffer (it stops adding once `chunkBytes` are in) while the last one is
    /// hashed, checked and written — one thread hashing, the other making the next buffer, and
    /// the write with whichever is lighter: the hashing when the making demuxes (MPEG-TS
    /// sources, `fillIsLight` false), the making when it only copies samples out (fragmented MP4).
    /// - Throws: what `fill` throws; `destination-unwritable`, `insufficient-space`.
    mutating func pipe(fillIsLight: Bool, _ fill: (inout [UInt8]) throws(HLSError) -> Void) throws(HLSError) {
        try flush()
        var full: [UInt8] = []
        full.reserveCapacity(Self.chunkBytes + (1 << 20))
        var empty = full
        try fill(&full)
        while !full.isEmpty {
            let (hasher, output, offset) = (hasher, output, written)
            var validator = self.validator.take()
            func write() throws(HLSError) {
                do throws(SupportError) { try output.append(full) } catch { throw HLSError(destination: error) }
                output.startWriteback(at: offset, count: full.count)
            }
            try SideBySide.run({ () throws(HLSError) in
                hasher.update(full)
                validator?.consume(full)
                if !fillIsLight { try write() }
            }, { () throws(HLSError) in
                if fillIsLight { try write() }
                try fill(&empty)
            })
            self.validator = validator
            written += UInt64(full.count)
            swap(&full, &empty)
            empty.removeAll(keepingCapacity: true)
        }
    }

    /// Writes what is gathered; the file's size and SHA-256.
    /// - Throws: `destination-unwritable`, `insufficient-space`.
    mutating func finish() throws(HLSError) -> (byteCount: UInt64, sha256: SHA256Digest) {
        try flush()
        return (written, hasher.finalize())
    }

    private mutating func flush() throws(HLSError) {
        guard !buffer.isEmpty else { return }
        // Hashed and checked on one thread while the other writes.
        let (bytes, hasher, output) = (buffer, hasher, output)
        var validator = self.validator.take()
        do throws(SupportError) {
            try SideBySide.run(bytes: bytes.count, { () throws(SupportError) in
                hasher.update(bytes)
                validator?.consume(bytes)
            }, { () throws(SupportError) in try output.append(bytes) })
        } catch {
            throw HLSError(destination: error)
        }
        self.validator = validator
        output.startWriteback(at: written, count: bytes.count)
        written += UInt64(bytes.count)
        buffer.removeAll(keepingCapacity: true)
    }
}
