import TesseraHTTP
import TesseraSupport

/// The SHA-256 identity of a plan, for its checkpoints: a header, then one line per resource —
/// kind, URI without its query or fragment, byte range, EXTINF, discontinuity, IV — and whatever
/// text the plan adds (a package's local playlists). URL-free: no host, no query value. The lines
/// are gathered in one buffer and hashed 64 KiB at a time, not made into a string each.
struct PlanFingerprint {
    private let hasher: SHA256Hasher
    private var buffer: [UInt8] = []

    /// Starts a fingerprint with `header`.
    /// - Throws: `decrypt-failed` when libcrypto is unavailable.
    init(header: String) throws(HLSError) {
        do { hasher = try SHA256Hasher() } catch { throw HLSError(.decryptFailed, "libcrypto is unavailable: \(error)", cause: error) }
        buffer.reserveCapacity(Self.flushBytes + 256)
        add(header)
    }

    private static let flushBytes = 1 << 16

    /// Adds `text` as it is.
    mutating func add(_ text: String) {
        flush()
        var text = text
        text.withUTF8 { hasher.update(UnsafeRawBufferPointer($0)) }
    }

    /// Adds the line of `resource`.
    mutating func add(_ resource: PlannedResource) {
        append(resource.identity.kind.rawValue)
        buffer.append(0x20)
        let uri = resource.uri.utf8   // up to the query or fragment: bytes, not characters
        buffer += uri[..<(uri.firstIndex { $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") } ?? uri.endIndex)]
        buffer.append(0x20)
        if let range = resource.identity.byteRange {
            append(String(range.offset))
            buffer.append(0x2B)   // +
            if let length = range.length { append(String(length)) }
        } else {
            buffer.append(0x2D)   // -
        }
        buffer.append(0x20)
        append(resource.duration.description)
        buffer.append(0x20)
        append(resource.startsDiscontinuity ? "true" : "false")
        buffer.append(0x20)
        append(resource.encryption.map { HexCoding.encode($0.iv) } ?? "clear")
        buffer.append(0x0A)
        if buffer.count >= Self.flushBytes { flush() }
    }

    /// The digest of everything added.
    mutating func finalize() -> SHA256Digest {
        flush()
        return hasher.finalize()
    }

    private mutating func append(_ text: String) {
        buffer += text.utf8
    }

    private mutating func flush() {
        guard !buffer.isEmpty else { return }
        hasher.update(buffer)
        buffer.removeAll(keepingCapacity: true)
    }
}
