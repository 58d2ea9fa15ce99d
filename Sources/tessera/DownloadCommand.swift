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
    let options: SingleFileDownload.Options
    /// The variant and renditions of an MP4 output.
    let selection: SelectionPolicy
    let network: NetworkOptions
    let dryRun: Bool

    /// The extensions whose file is an MP4 muxed by Tessera.
    static let movieExtensions: Set<String> = ["mp4", "m4v", "mov", "m4a"]

    func run() async -> Int32 {
        await network.withClient(entry: playlistURL) { client in await run(client) }
    }

    private func run(_ client: HLSClient) async -> Int32 {
        if Self.movieExtensions.contains(output.pathExtension.lowercased()) { return await runMovie(client) }
        return await JobLines.run(dryRun: dryRun, describe: { () async throws(HLSError) in
            Self.describe(try await SingleFileDownload(playlistURL: playlistURL, destination: output, client: client, options: options).plan(), dryRun: true)
        }) { () async throws(HLSError) in try await runFile(client) }
    }

    /// An MP4 muxed from the chosen tracks.
    private func runMovie(_ client: HLSClient) async -> Int32 {
        var movieOptions = PackageDownload.Options()
        movieOptions.selection = selection
        movieOptions.overwrite = options.overwrite
        movieOptions.resumes = options.resumes
        movieOptions.steering = options.steering
        movieOptions.steeringPenalty = options.steeringPenalty
        movieOptions.bounds = options.bounds
        let job = MovieDownload(url: playlistURL, destination: output, client: client, options: movieOptions,
                                content: output.pathExtension.lowercased() == "m4a" ? .audioOnly : .movie)
        return await JobLines.run(dryRun: dryRun, describe: { () async throws(HLSError) in PackageCommand.describe(try await job.plan(), dryRun: true) }) {
            () async throws(HLSError) in
            let display = ProgressDisplay(label: output.lastPathComponent)
            let report = try await job.run { event in
                JobLines.show(event, plan: { PackageCommand.describe($0, dryRun: false) }, progress: { display.update($0.whole) })
            }
            let tracks = report.tracks.map { $0.kind == .audio ? "audio (\($0.language), \($0.samples) frames)" : "video (\($0.samples) pictures)" }
            var line = "wrote \(report.destination.path): MP4 of \(tracks.joined(separator: ", ")), \(ProgressDisplay.bytes(report.byteCount)), sha256 \(report.sha256.hex)"
            if !report.subtitles.isEmpty { line += "; subtitles " + report.subtitles.map(\.lastPathComponent).joined(separator: ", ") }
            if report.resumedResources > 0 { line += " (\(report.resumedResources) resources resumed)" }
            return line
        }
    }

    /// The variant's stream assembled into one file as its segments are (MPEG-TS, or fMP4 joined).
    private func runFile(_ client: HLSClient) async throws(HLSError) -> String {
        let job = SingleFileDownload(playlistURL: playlistURL, destination: output, client: client, options: options)
        let display = ProgressDisplay(label: output.lastPathComponent)
        let report = try await job.run { event in
            JobLines.show(event, plan: { Self.describe($0, dryRun: false) }, progress: { display.update($0) })
        }
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
