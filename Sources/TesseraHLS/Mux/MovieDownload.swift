#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TesseraHTTP
import TesseraMedia
import TesseraPlaylist
import TesseraSupport

/// Downloads an HLS VOD presentation into one playable MP4 file, muxed by Tessera (no ffmpeg):
/// the variant and the audio renditions a `SelectionPolicy` chooses are fetched as a package's
/// tracks are — through the transfer engine, bounded-parallel across tracks, decrypted,
/// validated, checkpointed in a hidden folder beside the destination and resumable after a
/// kill — then their access units (H.264, H.265, AAC, AC-3, E-AC-3, MPEG audio) are laid out as one progressive MP4 with the
/// movie box first (`MovieMux`): one timeline across the tracks, discontinuities joined, each
/// audio rendition a track with its language and name (the first enabled, all in one
/// alternate group). Nothing appears at the destination until the file is whole. MPEG-TS and
/// fragmented MP4 sources (their sample entries copied); each chosen WebVTT subtitle track is
/// written beside the file (`movie.<language>.vtt`, its cues on the movie's clock); EXT-X-GAP is
/// refused before any media byte, or with `allowsGaps` kept as holes on the timeline.
public struct MovieDownload: Sendable {
    /// What the file holds.
    public enum Content: Sendable {
        /// The variant's pictures and the chosen audio (`.mp4`, `.m4v`, `.mov`).
        case movie
        /// The chosen audio alone (`.m4a`): the audio renditions, else the variant's own audio.
        case audioOnly
        /// One subtitle track alone (`.vtt`, `.srt`): the chosen subtitle rendition, or the
        /// subtitles media playlist given; its cues on the playlist's timeline.
        case subtitles
    }

    private let package: PackageDownload
    package let destination: URL
    private let options: PackageDownload.Options
    private let client: HLSClient
    private let writing: Writing

    /// A job that muxes the presentation at `url` (a multivariant or a media playlist) into the
    /// MP4 file `destination`, or writes what `writing` says.
    public init(url: URL, destination: URL, client: HLSClient, options: PackageDownload.Options = PackageDownload.Options(),
                writing: Writing = Writing()) {
        self.writing = writing
        var options = options
        options.iFrames = false
        var package = PackageDownload(url: url, destination: destination, client: client, options: options)
        package.subtitlesOnly = writing.content == .subtitles
        self.package = package
        self.destination = destination
        self.options = options
        self.client = client
    }

    /// Loads and plans without fetching media or keys, or touching the destination; `events`
    /// hears the playlists' retries.
    /// - Throws: as `run`, for the playlist and plan stages.
    public func plan(events: (@Sendable (PackageDownload.Event) -> Void)? = nil) async throws(HLSError) -> PackagePlanSummary {
        try await MediaJob(self, client: client).plan(events: events)
    }

    /// What the selection chose for this job, loaded but not planned (`planned(_:)` plans it, for a
    /// `run(planned:events:)` that follows); with `memo`, the playlists another plan of this
    /// decision read are not fetched again. `events` hears the retries.
    /// - Throws: as `plan(events:)`, for the playlist stage.
    package func chosen(events: (@Sendable (PackageDownload.Event) -> Void)? = nil, memo: PlaylistMemo? = nil) async throws(HLSError) -> PackageDownload.Chosen {
        try await MediaJob(self, client: client).loading(events: events, memo: memo) { loader throws(HLSError) in try await package.choose(loader) }
    }

    /// Whether `chosen` is one video track, the variant's MPEG-TS segments without a
    /// discontinuity or an EXT-X-GAP: what a `.ts` output takes byte for byte
    /// (`SingleFileDownload`) instead of muxing it — decided before the movie is planned, whose
    /// plan of a long playlist is large. (A gap is the movie's to refuse, or to keep as a hole.)
    package func isWholeTransportStream(_ chosen: PackageDownload.Chosen) -> Bool {
        guard chosen.sources.count == 1, let source = chosen.sources.first, source.role == .video else { return false }
        let segments = source.playlist.segments
        return segments.first?.map == nil && !segments.contains { $0.isDiscontinuity || $0.isGap }
    }

    /// Runs the job, its first attempt on `planned` when given (its playlists not loaded again).
    /// - Throws: as `run(events:)`.
    package func run(planned: PackageDownload.Planned?, events: @escaping @Sendable (PackageDownload.Event) -> Void) async throws(HLSError) -> MovieReport {
        try await MediaJob(self, client: client).run(planned: planned, events: events)
    }

    /// Runs the job; `events` may be called from several threads.
    /// - Throws: `HLSError`: `destination-exists`, `destination-unwritable`, `destination-busy`,
    ///   `insufficient-space`, `fetch-failed`, `http-status`, `invalid-playlist`,
    ///   `no-matching-variant`, `unsupported`, `bad-key`, `decrypt-failed`, `malformed-media`,
    ///   `budget-exceeded`, `source-changed` (twice in one run), `cancelled`.
    public func run(events: @escaping @Sendable (PackageDownload.Event) -> Void = { _ in }) async throws(HLSError) -> MovieReport {
        try await MediaJob(self, client: client).run(events: events)
    }
}

extension MovieDownload: JobPlanner {
    package var settings: JobSettings {
        var settings = package.settings
        settings.noun = "download"
        return settings
    }

    /// The package's plan, refused when a track cannot be muxed yet.
    package func plan(_ loader: PlaylistLoader, events: @escaping @Sendable (PackageDownload.Event) -> Void) async throws(HLSError) -> PackageDownload.Planned {
        try planned(try await package.choose(loader))
    }

    /// The movie's plan of `chosen`, refused when a track cannot be muxed yet.
    /// - Throws: as `plan(events:)`, for the plan stage.
    package func planned(_ chosen: PackageDownload.Chosen) throws(HLSError) -> PackageDownload.Planned {
        var planned = try package.plan(chosen)
        if writing.container == .transportStream, writing.fragmented || writing.embedsSubtitles {
            throw HLSError(.unsupported, "A transport stream is neither fragmented MP4 nor carries timed text: its subtitles are written beside it.")
        }
        if writing.embedsSubtitles, writing.fragmented, planned.plan.tracks.contains(where: { $0.info.role == .subtitles }) {
            throw HLSError(.unsupported, "Subtitles are embedded in a progressive MP4 only: ffmpeg reads a fragmented file's timed text without its durations "
                           + "(without --fragmented, or the subtitles beside the file).")
        }
        if !planned.plan.gaps.isEmpty, !writing.allowsGaps {
            throw HLSError(.unsupported, "\(planned.plan.gaps.count) segments are EXT-X-GAP; a file with holes is written only when asked (--allow-gaps).")
        }
        if writing.content != .subtitles, let track = planned.plan.tracks.first(where: { $0.info.role != .subtitles && SubtitlePlaylist.isWebVTT($0.playlist) }) {
            throw HLSError(.unsupported, "The \(track.info.role.rawValue) playlist \(URLRedaction.redact(track.url)) is a subtitles playlist (its segments are WebVTT): "
                           + "write it with -o <name>.vtt or <name>.srt.")
        }
        guard writing.isStreamed else { return planned }
        let muxed = MovieOutput.muxed(planned.plan, takesVariantAudio: options.selection.audio.choice != .none, audioOnly: writing.content == .audioOnly)
        try planned.stream(muxing: Set(muxed.map(\.track.stream)))
        return planned
    }

    package func summary(of planned: PackageDownload.Planned) -> PackagePlanSummary { planned.summary }

    package func fingerprint(of planned: PackageDownload.Planned) -> String { "movie 1 " + planned.plan.fingerprint.hex }

    package func sizes(of planned: PackageDownload.Planned) -> (known: UInt64?, largestRange: UInt64?) { package.sizes(of: planned) }

    package func steering(of planned: PackageDownload.Planned, events: @escaping @Sendable (PackageDownload.Event) -> Void) -> JobSteering? {
        package.steering(of: planned, events: events)
    }

    package func resolver(of planned: PackageDownload.Planned) -> any TransferURLResolver { package.resolver(of: planned) }

    package func encryption(of records: [ResourceFileRecord], in planned: PackageDownload.Planned) -> [(encryption: ResourceEncryption, fingerprint: String?)] {
        package.encryption(of: records, in: planned)
    }

    package func output(for planned: PackageDownload.Planned, staging: StagingDirectory, checkpoint: CheckpointLog<ResourceFileRecord>,
                        context: JobContext, resumes: Bool) throws(HLSError) -> MovieOutput {
        try MovieOutput(plan: planned.plan, destination: destination, policy: options.overwrite, takesVariantAudio: options.selection.audio.choice != .none,
                    writing: writing, package: try package.output(for: planned, staging: staging, checkpoint: checkpoint, context: context, resumes: resumes))
    }

    package func transfer(_ planned: PackageDownload.Planned, into output: MovieOutput, restored: JobRestoration, context: JobContext,
                          events: @escaping @Sendable (PackageDownload.Event) -> Void) async throws(HLSError) {
        try await package.transfer(planned, into: output.package, restored: restored, context: context, events: events)
    }

    package func report(_ planned: PackageDownload.Planned, product: MovieReport.Product, output: MovieOutput, restored: JobRestoration) -> MovieReport {
        MovieReport(destination: destination, plan: planned.summary, byteCount: product.byteCount, sha256: product.sha256, tracks: product.tracks,
                    subtitles: product.subtitles, gaps: planned.plan.gaps, resumedResources: restored.resources)
    }
}
