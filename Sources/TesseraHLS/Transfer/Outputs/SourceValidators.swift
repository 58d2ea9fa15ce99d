/// The validator (ETag or Last-Modified digest) each source file answered with, per pathway: a
/// later response of the same file on the same pathway with other validators means the file
/// changed on the server, and bytes of the two versions must not be put together. Outputs keep
/// one, restored from their checkpoint records.
struct SourceValidators {
    private var seen: [String: String] = [:]

    /// Notes what a checkpoint record vouches for.
    mutating func restore(source: String, pathway: String?, validator: String?) {
        if let validator { seen[source + "\n" + (pathway ?? "")] = validator }
    }

    /// Checks `fetched` against what its file answered before, and notes it.
    /// - Throws: `source-changed`.
    mutating func check(_ fetched: FetchedResource) throws(HLSError) {
        guard let validator = fetched.validator else { return }
        let key = fetched.source + "\n" + (fetched.pathway ?? "")
        if let known = seen[key], known != validator {
            throw HLSError(.sourceChanged, "\(fetched.resource.label) comes from a file that changed on the server (its ETag or Last-Modified differs from earlier responses).")
        }
        seen[key] = validator
    }

    /// Forgets everything.
    mutating func reset() { seen = [:] }
}
