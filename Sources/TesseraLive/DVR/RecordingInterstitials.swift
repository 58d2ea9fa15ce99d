/// Interstitials in a recording (`LiveRecording.Options.interstitials`, the CLI's
/// `--interstitials`): the assets of each Apple interstitial Date Range
/// (`CLASS="com.apple.hls.interstitial"`) the recorded playlist shows — its X-ASSET-URI, or each
/// asset of its X-ASSET-LIST — packaged while the recording runs as complete package-local VOD
/// packages under `interstitials/`, within these bounds. A Date Range the recording keeps is
/// written with its asset attribute pointing at the local copy; one whose assets could not all
/// be packaged is omitted whole, never referenced half-made, and counted.
public struct RecordingInterstitials: Sendable, Equatable {
    /// Distinct asset sources (an X-ASSET-URI or an X-ASSET-LIST) packaged; more are omitted.
    public var maximumEvents = 16
    /// Assets packaged in all (an asset list counts each of its assets).
    public var maximumAssets = 32
    /// Bytes of every packaged asset's files together.
    public var maximumBytes: UInt64 = 512 << 20
    /// The largest asset list read.
    public var maximumListBytes = 1 << 20

    /// The defaults: 16 sources, 32 assets, 512 MiB, 1 MiB asset lists.
    public init() {}
}
