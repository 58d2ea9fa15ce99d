/// What a single-file download's checkpoint records of one resource it made durable. No URL,
/// key or query value: the source, validator and key fields are digests.
package struct AssemblyRecord: Codable, Sendable, Equatable {
    /// Its index in the plan.
    var resource: Int
    /// The bytes it put in the output.
    var bytes: UInt64
    /// SHA-256 (hex) of the output from its first byte through this resource — the running file
    /// digest at this boundary, so one pass hashes every resource and the file.
    var sha256: String
    /// Digest of the URL it came from, without query (groups resources of one file).
    var source: String
    /// Digest of the response's ETag and Last-Modified, when it had any.
    var validator: String?
    /// The pathway that served it, when the presentation steers.
    var pathway: String?
    /// The fingerprint of the key it was decrypted with, when it was encrypted: a key that
    /// changed since discards the checkpoint.
    var key: String?
    /// The timestamp rebasing in force after it (`TSTimestampRebaser.run`), for MPEG-TS with
    /// discontinuities.
    var rebase: String?
}
