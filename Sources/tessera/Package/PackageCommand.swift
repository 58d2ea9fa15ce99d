#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TesseraHLS
import TesseraHTTP
import TesseraSupport

/// `tessera package <URL> -o <dir> …` (PackageArguments.help).
struct PackageCommand: Sendable {
    let url: URL
    let output: URL
    let options: PackageDownload.Options
    let network: NetworkOptions
    let dryRun: Bool

    func run() async -> Int32 {
        await network.withClient(entry: url) { client in await run(client) }
    }

    private func run(_ client: HLSClient) async -> Int32 {
        let job = PackageDownload(url: url, destination: output, client: client, options: options)
        let display = ProgressDisplay(label: output.lastPathComponent)
        let totals = Lock<[String: Int]>([:])
        return await JobLines.run(dryRun: dryRun, describe: { () async throws(HLSError) in Self.describe(try await job.plan(), dryRun: true) }) {
            () async throws(HLSError) in
            let report = try await job.run { event in
                if case .planned(let summary) = event { totals.withLock { $0 = summary.resourcesByTrack } }
                JobLines.show(event, plan: { Self.describe($0, dryRun: false) }) { progress in
                    let totals = totals.withLock { $0 }
                    let detail = totals.keys.sorted().map { "\($0) \(progress.tracks[$0] ?? 0)/\(totals[$0] ?? 0)" }.joined(separator: " ")
                    display.update(progress.whole, detail: detail)
                }
            }
            let media = report.manifest.files.filter { $0.role == .media }
            var line = "wrote \(report.destination.path): \(report.manifest.tracks.map(\.id).joined(separator: ", ")); "
                + "\(report.manifest.files.count + 2) files, \(ProgressDisplay.bytes(media.reduce(0) { $0 + $1.size })) of media"
            if report.resumedResources > 0 { line += " (\(report.resumedResources) resources resumed)" }
            return line + "; check it with tessera verify-package or sha256sum -c manifest-sha256.txt"
        }
    }

    /// "plan: 4 tracks (video 1280x720 …), 40 resources in 12 requests, 1 key, 210.3 MB" and a
    /// line per track with the reason it was chosen.
    static func describe(_ plan: PackagePlanSummary, dryRun: Bool) -> String {
        var head = ["\(plan.tracks.count) track\(plan.tracks.count == 1 ? "" : "s")",
                    "\(plan.resources) resources in \(plan.requests) requests",
                    "\(plan.keys) key\(plan.keys == 1 ? "" : "s") (media stored decrypted)"]
        head.append(plan.knownBytes.map { ProgressDisplay.bytes($0) } ?? "size known once fetched")
        if plan.gaps > 0 { head.append("\(plan.gaps) EXT-X-GAP segment\(plan.gaps == 1 ? "" : "s") without a file") }
        var lines = [(dryRun ? "dry run: " : "plan: ") + head.joined(separator: ", ")]
        for track in plan.tracks {
            let what = [track.resolution, track.codecs, track.name.map { "\"\($0)\"" }, track.language].compactMap { $0 }.joined(separator: " ")
            lines.append("  \(track.id) (\(track.role.rawValue)\(what.isEmpty ? "" : ", " + what)): \(track.segments) segments, "
                + "\(plan.resourcesByTrack[track.id] ?? 0) resources, \(FixedDecimal.format(track.duration, digits: 1)) s — \(track.provenance)")
        }
        return lines.joined(separator: "\n")
    }
}
