import TesseraHTTP

/// What the package folder's checkpoint records of one resource it made durable: the
/// file it went to, how far that file then reached and its digest so far. No URL, key or query
/// value: the source, validator and key fields are digests.
package struct ResourceFileRecord: Codable, Sendable, Equatable {
    /// The file, relative to the staging folder.
    package var path: String
    /// The resource's stream.
    package var stream: String
    /// The resource's kind (`map`, `segment`, `part`).
    package var kind: String
    /// The resource's media sequence number.
    package var sequence: UInt64
    /// The part's index, for parts.
    package var part: Int?
    /// The resource's byte range in its source file, when it had one.
    package var rangeOffset: UInt64?
    /// See `rangeOffset`.
    package var rangeLength: UInt64?
    /// The file's size once this resource was written.
    package var end: UInt64
    /// SHA-256 (hex) of the file's first `end` bytes; empty where `crc32c` checks them instead.
    package var sha256: String
    /// Digest of the URL it came from, without query.
    package var source: String
    /// Digest of the response's ETag and Last-Modified, when it had any.
    package var validator: String?
    /// The pathway that served it, when the presentation steers.
    package var pathway: String?
    /// The fingerprint of the key it was decrypted with, when it was encrypted.
    package var key: String?
    /// True when its server could not give it: no file was written (a recorder's gap).
    package var unavailable: Bool?
    /// What a folder's `transform` kept to restore itself at this resource
    /// (`TransformedResource.payload`).
    package var mux: String?
    /// CRC-32C (hex) of the file's first `end` bytes, for a file only the job reads back
    /// (`StagedFileCheck`); nil where `sha256` checks them.
    package var crc32c: String?

    /// The identity of the resource recorded.
    package var identity: ResourceIdentity? {
        guard let kind = ResourceIdentity.Kind(rawValue: kind) else { return nil }
        let range = rangeOffset.flatMap { ByteRange.checked(offset: $0, length: rangeLength) }
        return ResourceIdentity(stream: StreamIdentity(stream), kind: kind, mediaSequence: sequence, partIndex: part, byteRange: range)
    }
}
