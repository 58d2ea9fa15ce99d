#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TesseraHLS
import TesseraHTTP
import TesseraMedia
import TesseraPlayback
import TesseraSupport

/// The demo's last step: the fixtures' multivariant presentation (a variant, its separate
/// English audio, two subtitle tracks) downloaded as one MP4 muxed by Tessera with its subtitle
/// files beside it, then played from disk by ffmpeg (both tracks and a subtitle file, `-v error`,
/// every picture) and over loopback by headless Chromium (to `ended`, every picture decoded,
/// the subtitle track showing with all its cues).
struct DemoMovie {
    let origin: URL
    let transport: CurlTransport
    let output: URL
    let allowsMissingPlayers: Bool

    func run() async throws(DemoFailure) {
        let movie = output.appendingPathComponent("movie.mp4")
        var options = PackageDownload.Options()
        options.selection.subtitles = RenditionPolicy("all") ?? RenditionPolicy()
        let job = MovieDownload(url: origin.appendingPathComponent(DemoPackage.presentation), destination: movie, client: HLSClient(transport: transport),
                                options: options)
        let report: MovieReport
        do { report = try await job.run() } catch { throw DemoFailure("movie: \(error.message)") }
        guard report.tracks.map(\.kind) == [.video, .audio], report.tracks.map(\.language) == ["und", "eng"], report.subtitles.count == 2,
              let subtitles = report.subtitles.last else {
            throw DemoFailure("movie: tracks \(report.tracks.map { "\($0.kind.rawValue) \($0.language)" }), \(report.subtitles.count) subtitle files; the presentation has a video, English audio and two subtitle tracks")
        }
        let pictures = report.tracks[0].samples
        Terminal.line("movie:    \(DemoPackage.presentation) → \(movie.path): one MP4 muxed by tessera (video \(pictures) pictures, audio eng \(report.tracks[1].samples) frames, "
            + "\(report.byteCount) bytes, moov first, validated), subtitles \(report.subtitles.map(\.lastPathComponent).joined(separator: ", ")), published atomically")
        let cues = try Self.cues(subtitles)
        let players = DemoPlayers(output: output, allowsMissingPlayers: allowsMissingPlayers)
        try await players.decode(movie.path, frames: pictures)
        try await players.decode(subtitles.path, frames: nil)
        let files: DirectoryResponder
        do { files = try DirectoryResponder(directory: output) } catch { throw DemoFailure("movie: serving \(output.path): \(error.message)") }
        try await players.browser(movie.lastPathComponent, frames: pictures, subtitles: (subtitles.lastPathComponent, cues), files: files, profile: "movie")
    }

    /// The cues of the WebVTT file at `url`.
    private static func cues(_ url: URL) throws(DemoFailure) -> Int {
        let bytes: [UInt8]
        do throws(SupportError) { bytes = try FileDescriptorIO.readRegularFile(url.path, limit: 1 << 20) } catch {
            throw DemoFailure("movie: \(url.path): \(error.message)")
        }
        do throws(MediaError) { return try WebVTTSegment(bytes).cues.count } catch { throw DemoFailure("movie: \(url.lastPathComponent): \(error.message)") }
    }
}
