import TesseraSupport

/// A resource fetched, decrypted and prepared for its output, with what its checkpoint records
/// about where it came from.
package struct FetchedResource: Sendable {
    /// Its position in the transfer (the output's order).
    package let index: Int
    /// What it is.
    package let resource: PlannedResource
    /// Its prepared bytes.
    package let body: ResourceBody
    /// Bytes that came over the network for it (before decryption and preparation).
    package let fetchedBytes: UInt64
    /// The digest naming the file it came from (URL without query), for validator checks.
    package let source: String
    /// The digest of its response's ETag and Last-Modified, when it had any.
    package let validator: String?
    /// The pathway that served it, when the presentation steers.
    package let pathway: String?
    /// The fingerprint of the key it was decrypted with, when it was encrypted.
    package let keyFingerprint: SHA256Digest?
    /// Why its server could not give it (`PlannedFetch.gapWhenUnavailable`); its body is empty.
    package private(set) var unavailable: HLSError?

    /// A fetched resource.
    package init(index: Int, resource: PlannedResource, body: ResourceBody, fetchedBytes: UInt64, source: String,
                 validator: String?, pathway: String?, keyFingerprint: SHA256Digest?) {
        self.index = index
        self.resource = resource
        self.body = body
        self.fetchedBytes = fetchedBytes
        self.source = source
        self.validator = validator
        self.pathway = pathway
        self.keyFingerprint = keyFingerprint
    }

    /// A resource its server could not give, and why.
    package static func unavailable(index: Int, resource: PlannedResource, reason: HLSError, budget: MemoryBudget) -> FetchedResource {
        var fetched = FetchedResource(index: index, resource: resource, body: .memory([], MemoryReservation(budget)), fetchedBytes: 0,
                                      source: "", validator: nil, pathway: nil, keyFingerprint: nil)
        fetched.unavailable = reason
        return fetched
    }

    /// Its body, moved out (to give its memory back to the budget once written).
    package consuming func takeBody() -> ResourceBody { body }
}
