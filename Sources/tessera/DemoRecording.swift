#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TesseraHLS
import TesseraHTTP
import TesseraLive
import TesseraPlayback
import TesseraSupport

/// The demo's live half: the test-support origin `tessera-live-origin` (a child process,
/// publishing a part a second of the multivariant fixture's low video and its audio rendition,
/// four segments each, then ENDLIST; a window of one segment, and down for two seconds after the
/// first) is recorded from the window start — through the outage, the segments that left the
/// window meanwhile declared as gaps; the audio aligned with the video; the segments published
/// after tune-in written from their LL-HLS parts — into a recording package, which is verified
/// offline, served by `PackageServer` and played to its end, gaps included, by ffmpeg and
/// headless Chromium over loopback.
struct DemoRecording {
    /// The origin executable.
    let liveOrigin: String
    let fixtures: URL
    let transport: CurlTransport
    let output: URL
    let allowsMissingPlayers: Bool

    func run() async throws(DemoFailure) {
        let urlFile = output.appendingPathComponent("live-origin.url")
        let stopper = ChildProcess.Stopper()
        // A presentation: the multivariant fixture's low video and its audio rendition, 1 s TS
        // segments, one out, a part (1 s) a second, ENDLIST at 3 s: segments 0–3, the video's four.
        // Its window is one segment and it answers 503 from 1 s to 3 s: segments 1 and 2 leave the
        // window unseen, and are gaps.
        let presentation = fixtures.appendingPathComponent("e_multivariant")
        let arguments = ["--parts-per-segment", "1", "--published", "1", "--duration", "3", "--max-seconds", "60", "--window", "1", "--outage", "1:2",
                         "--media", presentation.appendingPathComponent("lo").path, "--audio-media", presentation.appendingPathComponent("audio").path,
                         "--extension", "ts", "--url-file", urlFile.path]
        let origin = Task { await ChildProcess.run(liveOrigin, arguments, timeLimit: .seconds(60), stopper: stopper) }
        defer { stopper.stop() }
        let url = try await originURL(urlFile, origin: origin)
        let destination = output.appendingPathComponent("recording")
        var options = LiveRecording.Options()
        options.start = .windowStart
        options.parts = RecordingParts()
        let report: RecordingReport
        do { report = try await LiveRecording(url: url, destination: destination, client: HLSClient(transport: transport), options: options).run() } catch {
            throw DemoFailure("record: \(error.message)")
        }
        let tracks = report.manifest.tracks.map(\.id)
        let aligned = report.manifest.tracks.last?.provenance.contains("aligned with the variant by program-date-time") == true
        let parts = report.parts ?? RecordingPartsReport()
        let gaps = report.manifest.gaps
        let declared = gaps.map { "\($0.track) \($0.mediaSequence)" }
        guard report.end == .endList, report.segments == 2, declared == ["video 1", "video 2", "audio-1 1", "audio-1 2"], gaps.allSatisfy(\.estimated),
              report.duration == 4, tracks == ["video", "audio-1"], aligned, parts.promoted > 0, parts.fellBack == 0 else {
            throw DemoFailure("record: \(report.segments) segments, gaps \(declared), \(report.duration) s, tracks \(tracks), ended \(report.end), \(parts.promoted) promoted from parts and \(parts.fellBack) fetched whole after all; the origin published 4 segments of video and audio and ENDLIST, 1 and 2 during its outage")
        }
        Terminal.line("record:   \(url.absoluteString) (tessera-live-origin, a part a second, video and an audio rendition, down 2 s) → \(destination.path): "
            + "\(report.segments) segments, \(FixedDecimal.format(report.duration, digits: 1)) s, audio aligned by PROGRAM-DATE-TIME, "
            + "\(parts.promoted) segments written from their parts, the outage's segments 1 and 2 of each track declared as gaps, committed at ENDLIST")
        let verification = PackageStore(folder: destination).verify()
        guard verification.isVerified, verification.manifest?.kind == .recording else {
            throw DemoFailure("verify-package of the recording: \(verification.findings.first?.description ?? "not a recording")")
        }
        Terminal.line("verify:   the recording: \(verification.fileCount) files, \(verification.byteCount) bytes hashed, kind recording")
        let server: PackageServer
        do { server = try PackageServer(folder: destination) } catch { throw DemoFailure("serve the recording: \(error.message)") }
        defer { server.shutdown() }
        let players = DemoPlayers(output: output, allowsMissingPlayers: allowsMissingPlayers)
        try await players.ffmpeg(server.entryURL)
        try await players.browser(server.entryURL, package: destination)
    }

    /// The URL the origin writes once it listens (within 10 s), or why there is none.
    private func originURL(_ file: URL, origin: Task<ChildProcess.Outcome, Never>) async throws(DemoFailure) -> URL {
        let clock = ContinuousClock()
        let deadline = clock.now + .seconds(10)
        while clock.now < deadline {
            // No file yet (or not readable yet): the origin is still starting.
            if let text = try? String(contentsOf: file, encoding: .utf8), let url = URL(string: ASCIIText.trimmingWhitespace(text)) { return url }
            do { try await clock.sleep(for: .milliseconds(20)) } catch { throw DemoFailure("cancelled") }
        }
        let outcome = await origin.value
        throw DemoFailure("tessera-live-origin did not start: exit \(outcome.status), \(outcome.errors.prefix(300))")
    }
}
