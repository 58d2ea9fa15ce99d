#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TesseraHLS
import TesseraPlaylist
import TesseraSupport

/// A `LiveRecording` as `MediaJob` runs it: the source loaded and chosen (`RecordingSource`),
/// the checkpoints' fingerprint, the job's one steering controller shared by every track's
/// reloader, the `RecordingOutput`, and the transfer — a `RecordingSession` that follows the
/// playlists and feeds the engine until the recording has what it wants.
struct RecordingJob: JobPlanner {
    let recording: LiveRecording
    let control: RecordingControl

    /// A loaded source, and the resolver its fetches go through (each track's playlist in use).
    struct Planned: Sendable {
        let source: RecordingSource
        let resolver: LiveURLResolver
    }

    var destination: URL { recording.destination }
    var settings: JobSettings {
        JobSettings(noun: "recording", bounds: recording.options.bounds, resumes: recording.options.resume != .never,
                    steeringPenalty: LiveReloader.Options().steeringPenalty, overwrite: .refuse, parser: recording.options.parser)
    }
    /// A required resume fails rather than start over.
    var restartsWhenSourceChanges: Bool { recording.options.resume != .required }

    func plan(_ loader: PlaylistLoader, events: @escaping @Sendable (LiveRecording.Event) -> Void) async throws(HLSError) -> Planned {
        let source = try await RecordingSource.load(recording.url, selection: recording.options.selection, loader: loader)
        var urls = [StreamIdentity.main: source.mediaURL]
        for rendition in source.renditions { urls[StreamIdentity(rendition.id)] = rendition.url }
        return Planned(source: source, resolver: LiveURLResolver(urls: urls, clock: ElapsedClock(recording.client.clock)))
    }

    func summary(of planned: Planned) -> RecordingPlanSummary {
        RecordingPlanSummary(tracks: [RecordingPlanner.primaryTrack] + planned.source.renditions.map(\.id),
                             provenance: [planned.source.provenance] + planned.source.renditions.map(\.provenance))
    }

    func fingerprint(of planned: Planned) -> String { LiveRecording.fingerprint(planned.source, start: recording.options.start) }

    /// A live source's size is not known: no budget or free-space check before the transfer.
    func sizes(of planned: Planned) -> (known: UInt64?, largestRange: UInt64?) { (nil, nil) }

    /// The presentation's Content Steering: one controller for the job, which every track's
    /// reloader follows (its own equivalent on the pathway in use).
    func steering(of planned: Planned, events: @escaping @Sendable (LiveRecording.Event) -> Void) -> JobSteering? {
        let source = planned.source
        guard let multivariant = source.multivariant, let steering = multivariant.contentSteering, let url = source.multivariantURL else { return nil }
        return JobSteering(multivariant: multivariant, url: url, steering: steering, pathway: source.pathway, tracks: [], variables: source.variables)
    }

    func resolver(of planned: Planned) -> any TransferURLResolver { planned.resolver }

    func encryption(of records: [ResourceFileRecord], in planned: Planned) -> [(encryption: ResourceEncryption, fingerprint: String?)] { [] }

    func output(for planned: Planned, staging: StagingDirectory, checkpoint: CheckpointLog<ResourceFileRecord>, context: JobContext,
                resumes: Bool) throws(HLSError) -> RecordingOutput {
        try RecordingOutput(source: planned.source, options: recording.options, destination: destination, staging: staging, checkpoint: checkpoint,
                            context: context, fingerprint: fingerprint(of: planned), resumes: resumes)
    }

    func resumed(_ restored: JobRestoration, output: RecordingOutput) -> LiveRecording.Event? {
        let counts = output.restoredCounts
        return counts.entries > 0 ? .job(.resumed(segments: counts.segments, gaps: counts.gaps, bytes: restored.bytes)) : nil
    }

    func transfer(_ planned: Planned, into output: RecordingOutput, restored: JobRestoration, context: JobContext,
                  events: @escaping @Sendable (LiveRecording.Event) -> Void) async throws(HLSError) {
        let session = RecordingSession(recording: recording, control: control, output: output, resolver: planned.resolver, context: context,
                                       events: events)
        try await session.run()
    }

    func report(_ planned: Planned, product: RecordingReport, output: RecordingOutput, restored: JobRestoration) -> RecordingReport {
        var report = product
        report.parts = output.ending?.parts
        if recording.options.interstitials == nil { report.interstitials = nil }
        return report
    }
}
