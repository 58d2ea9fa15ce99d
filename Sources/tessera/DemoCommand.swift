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

/// `tessera demo`: the whole path on the bundled fixtures. A loopback origin (libmicrohttpd)
/// serves the AES-128 TS stream; Tessera fetches it through libcurl, decrypts, checks and
/// publishes it atomically; the result must equal the pinned clear reference by SHA-256; ffmpeg
/// (when installed) must decode the result, and play the encrypted stream straight from the
/// loopback server, with `-v error` and no message. Then the multivariant presentation becomes
/// an offline package, verified, served by `PackageServer` and played by ffmpeg and headless
/// Chromium over loopback (`DemoPackage`); a live stream from the test-support origin is
/// recorded, verified, served and played the same way (`DemoRecording`; SKIPPED, saying how to
/// build it, when that origin is not beside the binary); last, the presentation becomes one MP4
/// with its separate audio and its subtitles beside it, played by ffmpeg and headless Chromium
/// (`DemoMovie`).
struct DemoCommand: Sendable {
    var fixtures: URL?
    var keepOutput = false
    /// Whether a missing ffmpeg skips the player check (saying SKIPPED) instead of failing it.
    var allowsMissingPlayers = false
    /// The test-support live origin executable the recording step runs; nil: `tessera-live-origin`
    /// beside this binary.
    var liveOrigin: String?

    /// The streams the demo downloads, and the pinned clear reference they must equal.
    static let streams = ["c_ts_aes_iv/index.m3u8", "c_ts_aes_noiv/index.m3u8"]
    static let reference = "d_ts_single/media.ts"

    func run() async -> Int32 {
        do {
            try await demo()
            return 0
        } catch {
            Terminal.error(error.message)
            return 1
        }
    }

    private func demo() async throws(DemoFailure) {
        let folder: FixtureFolder
        do {
            folder = try FixtureFolder(explicit: fixtures)
            try folder.verify(Self.reference)
        } catch { throw DemoFailure(error.message) }
        let expected = try wrap { () throws(FixtureFolder.Problem) in try folder.pin(Self.reference) }
        let server = try wrap { () throws(PlaybackError) in
            try LoopbackServer(responder: DirectoryResponder(directory: folder.url))
        }
        defer { server.shutdown() }
        var configuration = CurlTransport.Configuration()
        configuration.proxy = .none
        let transport = try wrap { () throws(HTTPError) in try CurlTransport(configuration: configuration) }
        defer { transport.shutdown() }
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-demo-\(UUID().uuidString)")
        try wrap { () throws(any Error) in try FileManager.default.createDirectory(at: output, withIntermediateDirectories: true) }
        // Best-effort cleanup of our own temporary folder; a failure leaves only that folder behind
        // and must not replace the demo's result.
        defer { if !keepOutput { try? FileManager.default.removeItem(at: output) } }

        Terminal.line("origin: libmicrohttpd serving \(folder.url.path) at \(server.baseURL.absoluteString)")
        var results: [URL] = []
        for stream in Self.streams {
            let destination = output.appendingPathComponent(stream.replacing("/index.m3u8", with: ".ts"))
            let job = SingleFileDownload(playlistURL: server.baseURL.appendingPathComponent(stream),
                                         destination: destination, transport: transport)
            let display = ProgressDisplay(label: destination.lastPathComponent)
            let report = try await wrapAsync { () async throws(HLSError) in try await job.run { event in if case .progress(let progress) = event { display.update(progress) } } }
            guard report.sha256 == expected else {
                throw DemoFailure("\(stream): the result's SHA-256 \(report.sha256.hex) differs from the clear reference \(expected.hex)")
            }
            Terminal.line("download: \(stream) → \(destination.path): \(report.segmentCount) segments, "
                + "\(report.byteCount) bytes, AES-128 decrypted, MPEG-TS validated, published atomically")
            Terminal.line("verify:   SHA-256 \(report.sha256.hex) equals the pinned clear reference \(Self.reference)")
            results.append(destination)
        }
        try await playerCheck(results: results, streamURL: server.baseURL.appendingPathComponent(Self.streams[0]))
        try await DemoPackage(origin: server.baseURL, transport: transport, output: output, allowsMissingPlayers: allowsMissingPlayers).run()
        var skipped: [String] = []
        let origin = liveOrigin ?? Self.sibling("tessera-live-origin")
        if let liveOrigin, !FileManager.default.isExecutableFile(atPath: liveOrigin) {
            throw DemoFailure("--live-origin \(liveOrigin) is not an executable (swift build --product tessera-live-origin builds it)")
        }
        if FileManager.default.isExecutableFile(atPath: origin) {
            try await DemoRecording(liveOrigin: origin, fixtures: folder.url, transport: transport, output: output, allowsMissingPlayers: allowsMissingPlayers).run()
        } else {
            // A release binary alone has no test-support origin beside it: the live part cannot run.
            Terminal.line("SKIPPED: record: the test-support live origin \(origin) is not built (swift build -c release --static-swift-stdlib "
                + "--product tessera-live-origin puts it beside the release tessera; or --live-origin <path>)")
            skipped.append("record")
        }
        try await DemoMovie(origin: server.baseURL, transport: transport, output: output, allowsMissingPlayers: allowsMissingPlayers).run()
        let kept = keepOutput ? " (output kept in \(output.path))" : ""
        Terminal.line(skipped.isEmpty ? "demo: passed\(kept)" : "demo: passed but for \(skipped.joined(separator: ", ")), SKIPPED\(kept)")
    }

    private func playerCheck(results: [URL], streamURL: URL) async throws(DemoFailure) {
        guard let ffmpeg = ChildProcess.find("ffmpeg") else {
            guard allowsMissingPlayers else {
                throw DemoFailure("ffmpeg is not installed, so the decode check cannot run (Scripts/bootstrap.sh installs it; --allow-missing-players skips the check)")
            }
            Terminal.line("SKIPPED: player check: ffmpeg is not installed (--allow-missing-players)")
            return
        }
        let inputs = results.map(\.path) + [streamURL.absoluteString]
        for input in inputs {
            let outcome = await ChildProcess.run(ffmpeg, ["-hide_banner", "-nostdin", "-v", "error", "-i", input,
                                                          "-map", "0", "-f", "null", "-"], timeLimit: .seconds(120))
            let said = ASCIIText.trimmingWhitespace(outcome.errors)
            guard outcome.status == 0, said.isEmpty, !outcome.timedOut else {
                let detail = outcome.timedOut ? "timed out" : said.isEmpty ? "exit status \(outcome.status)" : said
                throw DemoFailure("ffmpeg could not decode \(input) cleanly: \(detail.split(separator: "\n").first ?? "")")
            }
            Terminal.line("player:   ffmpeg decoded \(input) with -v error and no message")
        }
    }

    /// `name` in the folder of the running binary.
    static func sibling(_ name: String) -> String {
        // /proc/self/exe names the binary on Linux; elsewhere the path it was started by does.
        let binary = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        return URL(fileURLWithPath: binary).deletingLastPathComponent().appendingPathComponent(name).path
    }

    private func wrap<T, E: Error>(_ body: () throws(E) -> T) throws(DemoFailure) -> T {
        do { return try body() } catch { throw DemoFailure(String(describing: error)) }
    }

    private func wrapAsync<T, E: Error>(_ body: () async throws(E) -> T) async throws(DemoFailure) -> T {
        do { return try await body() } catch { throw DemoFailure(String(describing: error)) }
    }
}

/// A demo step that failed, with a one-line message.
struct DemoFailure: Error {
    let message: String
    init(_ message: String) { self.message = message }
}
