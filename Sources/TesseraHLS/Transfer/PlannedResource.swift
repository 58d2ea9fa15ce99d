import TesseraHTTP

/// One resource of a transfer: what it is, how it is encrypted, and what the output needs to
/// know to write it (a discontinuity before it, its EXTINF, where it stood in the playlist).
public struct PlannedResource: Sendable {
    /// What it is.
    public let identity: ResourceIdentity
    /// Its AES-128 parameters, or nil when it is in the clear.
    public let encryption: ResourceEncryption?
    /// Whether an EXT-X-DISCONTINUITY comes before it.
    public let startsDiscontinuity: Bool
    /// EXTINF seconds (0 for an initialization section).
    public let duration: Double
    /// The playlist line that names it.
    public let line: Int
    /// The playlist URI as written, for the outputs that lay files out by name (never logged:
    /// it may carry a signed query).
    public let uri: String

    /// Creates a planned resource.
    public init(identity: ResourceIdentity, encryption: ResourceEncryption?, startsDiscontinuity: Bool = false,
                duration: Double = 0, line: Int = 0, uri: String) {
        self.identity = identity
        self.encryption = encryption
        self.startsDiscontinuity = startsDiscontinuity
        self.duration = duration
        self.line = line
        self.uri = uri
    }

    /// How messages name it: "Segment 3 (line 17)", "Initialization section (line 5)".
    public var label: String {
        let place = line > 0 ? " (line \(line))" : ""
        switch identity.kind {
        case .initialization: return "Initialization section\(place)"
        case .segment: return "Segment \(identity.mediaSequence)\(place)"
        case .part: return "Part \(identity.partIndex ?? 0) of segment \(identity.mediaSequence)\(place)"
        case .unlisted:
            let range = identity.byteRange.map { " \($0.offset)–\($0.offset + ($0.length ?? 0))" } ?? ""
            return "Unlisted bytes\(range) before segment \(identity.mediaSequence)\(place)"
        }
    }
}
