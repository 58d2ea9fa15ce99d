#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TesseraHLS
import TesseraHTTP
import TesseraPlayback
import TesseraSupport

/// The demo's package half: the fixtures' multivariant presentation (a variant, its separate
/// audio, two subtitle tracks) packaged from the loopback origin, verified offline, served by
/// `PackageServer`, and played over loopback by ffmpeg (every rendition) and headless Chromium
/// (natively, to `ended`, with the package's frame count).
struct DemoPackage {
    let origin: URL
    let transport: CurlTransport
    let output: URL
    let allowsMissingPlayers: Bool

    static let presentation = "e_multivariant/master.m3u8"

    func run() async throws(DemoFailure) {
        let destination = output.appendingPathComponent("package")
        var options = PackageDownload.Options()
        options.selection.subtitles = RenditionPolicy("all") ?? RenditionPolicy()
        let job = PackageDownload(url: origin.appendingPathComponent(Self.presentation), destination: destination,
                                  client: HLSClient(transport: transport), options: options)
        let report: PackageReport
        do { report = try await job.run() } catch { throw DemoFailure("package: \(error.message)") }
        let media = report.manifest.files.filter { $0.role == .media }
        Terminal.line("package:  \(Self.presentation) → \(destination.path): \(report.manifest.tracks.map(\.id).joined(separator: ", ")), "
            + "\(media.count) media files, \(media.reduce(0) { $0 + $1.size }) bytes, local playlists, published atomically")
        let verification = PackageStore(folder: destination).verify()
        guard verification.isVerified else {
            throw DemoFailure("verify-package found \(verification.findings.count) problems: \(verification.findings.first?.description ?? "")")
        }
        Terminal.line("verify:   \(verification.fileCount) files, \(verification.byteCount) bytes hashed: sizes and SHA-256 as manifest.json "
            + "and manifest-sha256.txt say, every playlist URI inside the package")
        let server: PackageServer
        do { server = try PackageServer(folder: destination) } catch { throw DemoFailure("serve: \(error.message)") }
        defer { server.shutdown() }
        Terminal.line("serve:    \(server.entryURL.absoluteString) (verified, playlists frozen, loopback only)")
        let players = DemoPlayers(output: output, allowsMissingPlayers: allowsMissingPlayers)
        try await players.ffmpeg(server.entryURL)
        try await players.browser(server.entryURL, package: destination)
    }
}
