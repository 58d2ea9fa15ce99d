/// LL-HLS part staging (a recording's `LiveRecording.Options.parts`, the CLI's `--parts`): each
/// segment that completes after tune-in is fetched part by part as its parts are published, the
/// parts staged within these bounds (`PartStager`), and the segment promoted from them once they
/// prove to be it — every part its playlist listed for it staged as listed, their durations
/// adding up to its EXTINF, the joined bytes a well-formed segment (`PartProof`). On any mismatch
/// the segment is fetched whole, as without parts. Parts never appear in the committed package,
/// nor in a checkpoint: a resumed recording fetches whole what it had only staged.
public struct PartStaging: Sendable, Equatable {
    /// Parts held at once, every track's (a segment whose part would exceed it is fetched whole).
    public var maximumParts = 64
    /// Bytes of parts held at once.
    public var maximumBytes: UInt64 = 32 << 20
    /// The largest part (or preload hint) fetched.
    public var maximumPartBytes: UInt64 = 8 << 20
    /// Also fetch the part an EXT-X-PRELOAD-HINT announces (TYPE=PART) before it is listed —
    /// the server answers once it exists — keeping the bytes only once a later playlist lists
    /// that part (same URI and start), else discarding them. Default false.
    public var preloadHints = false

    /// The defaults: 64 parts, 32 MiB, 8 MiB a part, no preload hints.
    public init() {}
}
