/// The validator (ETag or Last-Modified digest) each source file answered with, per pathway and
/// per output file: a later response of the same file on the same pathway, going into the same
/// output file, with other validators means the file changed on the server, and bytes of the
/// two versions must not be put together. (Resources of one source URL that go to other output
/// files are other files: a live source restarted in place reuses its segment names.) Outputs
/// keep one, restored from their checkpoint records.
struct SourceValidators {
    /// By output file ("" for the one output), by source and pathway: the validator.
    private var seen: [String: [String: String]] = [:]

    /// Notes what a checkpoint record vouches for (of output file `file`; nil: the one output).
    mutating func restore(source: String, pathway: String?, validator: String?, file: String? = nil) {
        if let validator { seen[file ?? "", default: [:]][source + "\n" + (pathway ?? "")] = validator }
    }

    /// Checks `fetched`, going into output file `file` (nil: the one output), against what its
    /// file answered before, and notes it.
    /// - Throws: `source-changed`.
    mutating func check(_ fetched: FetchedResource, file: String? = nil) throws(HLSError) {
        guard let validator = fetched.validator else { return }
        let key = fetched.source + "\n" + (fetched.pathway ?? "")
        if let known = seen[file ?? ""]?[key], known != validator {
            throw HLSError(.sourceChanged, "\(fetched.resource.label) comes from a file that changed on the server (its ETag or Last-Modified differs from earlier responses).")
        }
        seen[file ?? "", default: [:]][key] = validator
    }

    /// Forgets what output file `file` took: it is complete and takes no further resource (a
    /// recording of days keeps no validator per segment it wrote).
    mutating func forget(file: String) { seen[file] = nil }

    /// Forgets everything.
    mutating func reset() { seen = [:] }
}
