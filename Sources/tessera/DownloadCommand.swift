#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TesseraHLS
import TesseraHTTP
import TesseraMedia
import TesseraSupport

/// `tessera download <URL> -o <file> [--variant …] [--parallel N] [--no-resume] [--dry-run]
/// [--overwrite] [network options]` (CommandHelp.download).
struct DownloadCommand: Sendable {
    let playlistURL: URL
    let output: URL
    /// What is written.
    let kind: DownloadOutput
    /// The format of the subtitle files (beside an MP4, or the output itself).
    let subtitleFormat: SubtitleFormat
    /// Whether an MP4 is one fragmented MP4 instead of a progressive one.
    let fragmented: Bool
    /// Whether EXT-X-GAP segments become holes instead of a refusal.
    let allowsGaps: Bool
    /// Whether subtitles go into the MP4 as timed text instead of files beside it.
    let embedsSubtitles: Bool
    /// Whether a muxed MP4's SHA-256 is taken (a second read of the file after the transfer);
    /// the other outputs hash as they write and always report it.
    let digest: Bool
    let options: SingleFileDownload.Options
    /// The variant and renditions of an MP4 output.
    let selection: SelectionPolicy
    let network: NetworkOptions
    let dryRun: Bool

    func run() async -> Int32 {
        await network.withClient(entry: playlistURL) { client in await run(client) }
    }

    private func run(_ client: HLSClient) async -> Int32 {
        switch kind {
        case .stream:
            return await JobLines.run(dryRun: dryRun, describe: { () async throws(HLSError) in try await describeFile(client) }) {
                () async throws(HLSError) in try await runFile(client)
            }
        case .transportStream:
            // A TS variant taken whole is its segments byte for byte; anything else is muxed (on
            // the plan the decision made, when it made one: the playlists are loaded once).
            let job = movieJob(client)
            return await JobLines.run(dryRun: dryRun, describe: { () async throws(HLSError) in
                switch try await transportStreamWay(job, client) {
                case .whole(let file, let planned): Self.describe(file.summary(of: planned), dryRun: true)
                case .muxed(let planned?): PackageCommand.describe(job.summary(of: planned), dryRun: true)
                case .muxed(nil): PackageCommand.describe(try await job.plan(), dryRun: true)
                }
            }) { () async throws(HLSError) in
                switch try await transportStreamWay(job, client) {
                case .whole(_, let planned): try await runFile(client, planned: planned)
                case .muxed(let planned): try await runMovie(job, planned: planned)
                }
            }
        default:
            let job = movieJob(client)
            return await JobLines.run(dryRun: dryRun, describe: { () async throws(HLSError) in PackageCommand.describe(try await job.plan(), dryRun: true) }) {
                () async throws(HLSError) in try await runMovie(job)
            }
        }
    }

    /// How a `.ts` output is made: the variant's own MPEG-TS segments byte for byte (`whole`) when
    /// the chosen tracks are the variant alone, with its own audio, and its segments are MPEG-TS
    /// without a discontinuity (the muxer joins runs whose codec parameters change; the assembly
    /// cannot) or a hole to keep; else muxed, with the movie's plan when the decision made it.
    /// The whole file is decided on the chosen playlists before the movie is planned: a movie's
    /// plan of 500,000 segments holds some 200 MB, which the whole file never needs.
    private func transportStreamWay(_ job: MovieDownload, _ client: HLSClient) async throws(HLSError) -> TransportStreamWay {
        guard !allowsGaps, selection.audio.choice != .none else { return .muxed(nil) }
        // The playlists' retries are said as the job's would be; the second plan reads the
        // playlists the first fetched.
        let memo = PlaylistMemo()
        if let movie = try await Self.movieUnlessWhole(job, memo: memo) { return .muxed(movie) }
        let file = SingleFileDownload(playlistURL: playlistURL, destination: output, client: client, options: options)
        let whole = try await file.planned(events: { event in JobLines.show(event, plan: { _ in "" }, progress: { _ in }) }, memo: memo)
        let summary = file.summary(of: whole)
        // The file's plan chooses as the movie's did; were it ever to differ, the movie is planned
        // again.
        return summary.container == DownloadPlan.Container.mpegTS.rawValue && summary.discontinuities == 0 ? .whole(file, whole) : .muxed(nil)
    }

    /// The movie's plan, or nil when the choice is the variant's stream whole: then the movie is
    /// not planned, and the loaded playlists are let go here.
    private static func movieUnlessWhole(_ job: MovieDownload, memo: PlaylistMemo) async throws(HLSError) -> PackageDownload.Planned? {
        let chosen = try await job.chosen(events: { event in JobLines.show(event, plan: { _ in "" }, progress: { _ in }) }, memo: memo)
        return job.isWholeTransportStream(chosen) ? nil : try job.planned(chosen)
    }

    /// How a `.ts` output is made, with the plan the decision made.
    private enum TransportStreamWay {
        /// The variant's segments byte for byte.
        case whole(SingleFileDownload, SingleFileDownload.Planned)
        /// Muxed, on this plan when there is one.
        case muxed(PackageDownload.Planned?)
    }

    private func describeFile(_ client: HLSClient) async throws(HLSError) -> String {
        Self.describe(try await SingleFileDownload(playlistURL: playlistURL, destination: output, client: client, options: options).plan(), dryRun: true)
    }

    /// The movie job: the chosen tracks muxed into an MP4 or MPEG-TS, or one subtitle track.
    private func movieJob(_ client: HLSClient) -> MovieDownload {
        var movieOptions = PackageDownload.Options()
        movieOptions.selection = selection
        movieOptions.overwrite = options.overwrite
        movieOptions.resumes = options.resumes
        movieOptions.steering = options.steering
        movieOptions.steeringPenalty = options.steeringPenalty
        movieOptions.bounds = options.bounds
        // Bodies held in memory at once, with the buffers kept for the next: 10 MiB keeps the
        // transfer at full speed on a loopback origin (Scripts/bench.sh mux: two 4 MB video
        // segments and the audio beside them, as fast as 16 MiB) and the whole job of a 2 GB
        // movie within 64 MiB.
        movieOptions.bounds.maximumBufferedBytes = min(options.bounds.maximumBufferedBytes, 10 << 20)
        let content: MovieDownload.Content = switch kind {
        case .audio: .audioOnly
        case .subtitles: .subtitles
        case .movie, .stream, .transportStream: .movie
        }
        return MovieDownload(url: playlistURL, destination: output, client: client, options: movieOptions,
                             writing: MovieDownload.Writing(content: content, container: kind == .transportStream ? .transportStream : .mp4,
                                                            subtitleFormat: subtitleFormat, fragmented: fragmented, allowsGaps: allowsGaps,
                                                            embedsSubtitles: embedsSubtitles, digest: digest))
    }

    /// Runs the movie job; its summary line.
    private func runMovie(_ job: MovieDownload, planned: PackageDownload.Planned? = nil) async throws(HLSError) -> String {
        let display = ProgressDisplay(label: output.lastPathComponent)
        let events: @Sendable (PackageDownload.Event) -> Void = { event in
            JobLines.show(event, plan: { PackageCommand.describe($0, dryRun: false) }, progress: { display.update($0.whole) })
        }
        let report = try await job.run(planned: planned, events: events)
        let tracks = report.tracks.map { track in
            switch track.kind {
            case .video: "video (\(track.samples) pictures)"
            case .audio: "audio (\(track.language), \(track.samples) frames)"
            case .subtitles: "subtitles (\(track.language), \(track.samples) cues)"
            }
        }
        let container = switch kind {
        case .subtitles(let format): format == .subRip ? "SubRip" : "WebVTT"
        case .transportStream: "MPEG-TS"
        default: fragmented ? "fragmented MP4" : "MP4"
        }
        var line = "wrote \(report.destination.path): \(container) of \(tracks.joined(separator: ", ")), \(ProgressDisplay.bytes(report.byteCount))"
        if let sha256 = report.sha256 { line += ", sha256 \(sha256.hex)" }
        if !report.subtitles.isEmpty { line += "; subtitles " + report.subtitles.map(\.lastPathComponent).joined(separator: ", ") }
        if !report.gaps.isEmpty {
            line += "; \(report.gaps.count) EXT-X-GAP segment\(report.gaps.count == 1 ? "" : "s") left as holes ("
                + FixedDecimal.format(report.gaps.reduce(0) { $0 + $1.duration }, digits: 1) + " s)"
        }
        if report.resumedResources > 0 { line += " (\(report.resumedResources) resources resumed)" }
        return line
    }

    /// The variant's stream assembled into one file as its segments are (MPEG-TS, or fMP4 joined).
    private func runFile(_ client: HLSClient, planned: SingleFileDownload.Planned? = nil) async throws(HLSError) -> String {
        let job = SingleFileDownload(playlistURL: playlistURL, destination: output, client: client, options: options)
        let display = ProgressDisplay(label: output.lastPathComponent)
        let events: @Sendable (SingleFileDownload.Event) -> Void = { event in
            JobLines.show(event, plan: { Self.describe($0, dryRun: false) }, progress: { display.update($0) })
        }
        let report = try await job.run(planned: planned, events: events)
        var line = "wrote \(report.destination.path): \(report.segmentCount) segments, "
            + "\(ProgressDisplay.bytes(report.byteCount)), sha256 \(report.sha256.hex)"
        if report.resumedResources > 0 { line += " (\(report.resumedResources) resources resumed)" }
        let warnings = report.findings.filter { $0.severity == .warning }
        if !warnings.isEmpty {
            let ids = Set(warnings.map(\.id)).sorted().joined(separator: ", ")
            line += "; \(warnings.count) validator warning\(warnings.count == 1 ? "" : "s") (\(ids); see tessera validate)"
        }
        return line
    }

    /// "plan: fmp4, 320x180 …, 4 segments, 5 requests, 1 key, 1.2 MB, 16.0 s".
    static func describe(_ plan: DownloadPlanSummary, dryRun: Bool) -> String {
        var parts = [plan.container]
        if let variant = plan.variant { parts.append("variant \(variant)") }
        parts.append("\(plan.segments) segments")
        parts.append("\(plan.resources) resources in \(plan.requests) requests")
        parts.append("\(plan.keys) key\(plan.keys == 1 ? "" : "s")")
        if let known = plan.knownBytes {
            parts.append(ProgressDisplay.bytes(known))
        } else if let estimate = plan.estimatedBytes {
            parts.append("about \(ProgressDisplay.bytes(estimate)) (estimated from BANDWIDTH)")
        } else {
            parts.append("size unknown until fetched")
        }
        parts.append(FixedDecimal.format(plan.duration, digits: 1) + " s")
        return (dryRun ? "dry run: " : "plan: ") + parts.joined(separator: ", ")
    }
}
