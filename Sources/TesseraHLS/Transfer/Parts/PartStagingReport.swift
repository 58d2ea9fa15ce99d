/// What part staging did with LL-HLS parts (a recording's `RecordingReport.parts`, when they were
/// asked for); its coding keys are the CLI's `--json` `parts` object's.
public struct PartStagingReport: Sendable, Equatable, Codable {
    /// Parts fetched and staged (a confirmed preload hint counts as one).
    public var fetched = 0
    /// Their bytes.
    public var bytes: UInt64 = 0
    /// Segments written from their parts (not fetched whole).
    public var promoted = 0
    /// Segments whose parts were staged but could not be proven to be them: fetched whole.
    public var fellBack = 0
    /// Preload hints fetched.
    public var hintsFetched = 0
    /// Those whose bytes a later playlist confirmed as the part it listed.
    public var hintsConfirmed = 0
    /// Those discarded: the part was never listed as hinted, or the fetch failed.
    public var hintsDiscarded = 0

    /// Nothing yet.
    public init() {}
}
