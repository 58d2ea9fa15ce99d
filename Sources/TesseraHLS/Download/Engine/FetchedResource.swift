/// A resource fetched, decrypted and prepared for the output (fMP4 segments without their
/// `styp`/`sidx`).
struct FetchedResource: Sendable {
    let index: Int
    let bytes: [UInt8]
    /// Bytes that came over the network for it (before decryption and preparation).
    let fetchedBytes: UInt64
    /// `PlanFingerprint.source` of its URL.
    let source: String
    /// `PlanFingerprint.validator` of its response, when it had ETag or Last-Modified.
    let validator: String?
}
