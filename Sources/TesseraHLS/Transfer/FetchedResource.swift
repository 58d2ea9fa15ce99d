import TesseraSupport

/// A resource fetched, decrypted and prepared for its output, with what its checkpoint records
/// about where it came from.
struct FetchedResource: Sendable {
    /// Its position in the transfer (the output's order).
    let index: Int
    /// What it is.
    let resource: PlannedResource
    /// Its prepared bytes.
    let body: ResourceBody
    /// Bytes that came over the network for it (before decryption and preparation).
    let fetchedBytes: UInt64
    /// The digest naming the file it came from (URL without query), for validator checks.
    let source: String
    /// The digest of its response's ETag and Last-Modified, when it had any.
    let validator: String?
    /// The pathway that served it, when the presentation steers.
    let pathway: String?
    /// The fingerprint of the key it was decrypted with, when it was encrypted.
    let keyFingerprint: SHA256Digest?
}
