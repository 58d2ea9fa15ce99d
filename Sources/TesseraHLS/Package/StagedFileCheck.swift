import TesseraSupport

/// The running check of a file being staged, which each of its checkpoint records keeps so that a
/// resume can tell the file's bytes are the ones written: SHA-256 for a file published as it is
/// (its digest goes to the package's manifest), CRC-32C for a file only the job itself reads back
/// (a streamed movie's body: the movie's SHA-256 is taken once its header is in front, and a
/// checksum in hardware costs a fraction of a digest beside the transfer). Either finds what a
/// crash tore, lost or zeroed; neither is asked to find tampering in the job's own folder.
/// One owner; not `Sendable`.
final class StagedFileCheck {
    /// What is computed.
    enum Kind: Sendable {
        case sha256
        case crc32c
    }

    let kind: Kind
    private let hasher: SHA256Hasher?
    private var crc = CRC32C()

    /// A check of no bytes yet.
    /// - Throws: `decrypt-failed` when libcrypto cannot start a SHA-256.
    init(_ kind: Kind) throws(HLSError) {
        self.kind = kind
        switch kind {
        case .sha256:
            do { hasher = try SHA256Hasher() } catch { throw HLSError(.decryptFailed, "libcrypto is unavailable: \(error)", cause: error) }
        case .crc32c:
            hasher = nil
        }
    }

    /// The kind of check `record` keeps.
    static func kind(of record: ResourceFileRecord) -> Kind {
        record.crc32c == nil ? .sha256 : .crc32c
    }

    /// Adds the next bytes.
    func update(_ bytes: UnsafeRawBufferPointer) {
        if let hasher { hasher.update(bytes) } else { crc.update(bytes) }
    }

    /// Adds the next bytes.
    func update(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { update($0) }
    }

    /// The check of the bytes so far as a record keeps it: `sha256` (hex, empty for a checksum)
    /// and `crc32c` (hex, nil for a digest).
    func recorded() -> (sha256: String, crc32c: String?) {
        if let hasher { return (hasher.snapshot().hex, nil) }
        return ("", crc.hex)
    }

    /// Whether `record` holds the check of the bytes so far.
    func matches(_ record: ResourceFileRecord) -> Bool {
        guard Self.kind(of: record) == kind else { return false }
        let now = recorded()
        return now.sha256 == record.sha256 && now.crc32c == record.crc32c
    }

    /// The file's SHA-256 once its last bytes are in; nil for a checksum.
    func finalize() -> SHA256Digest? {
        hasher?.finalize()
    }
}
