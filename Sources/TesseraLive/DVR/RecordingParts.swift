import TesseraHLS

/// LL-HLS parts in a recording (`LiveRecording.Options.parts`, the CLI's `--parts`): the house's
/// part staging, its bounds and preload hints.
public typealias RecordingParts = PartStaging

/// What a recording did with LL-HLS parts (`RecordingReport.parts`, when they were asked for).
public typealias RecordingPartsReport = PartStagingReport
