/// What a recording did with interstitials (`RecordingReport.interstitials`, when asked for).
public struct RecordingInterstitialsReport: Sendable, Equatable, Codable {
    /// Interstitial Date Ranges kept, their assets local.
    public var kept = 0
    /// Interstitial Date Ranges omitted whole: an asset that could not be packaged, a bound
    /// reached, or (without `Options.interstitials`) not asked for.
    public var omitted = 0
    /// Assets packaged (each once, however many Date Ranges name it).
    public var assets = 0
    /// Their bytes.
    public var bytes: UInt64 = 0

    /// Nothing yet.
    public init() {}
}
