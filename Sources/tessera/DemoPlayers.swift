#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TesseraPlayback
import TesseraSupport

/// The demo's real players on a package served over loopback: ffmpeg decodes every rendition
/// with `-v error` and no message; headless Chromium plays it natively to `ended` with the
/// package's frame count. A missing player fails the check unless the caller allows it (then it
/// says SKIPPED).
struct DemoPlayers {
    let output: URL
    let allowsMissingPlayers: Bool

    func missing(_ what: String) throws(DemoFailure) {
        guard allowsMissingPlayers else {
            throw DemoFailure("\(what) is not installed, so its check cannot run (Scripts/bootstrap.sh installs it; --allow-missing-players skips the check)")
        }
        Terminal.line("SKIPPED: \(what) check: \(what) is not installed (--allow-missing-players)")
    }

    func ffmpeg(_ entry: URL) async throws(DemoFailure) {
        guard let ffmpeg = ChildProcess.find("ffmpeg") else { return try missing("ffmpeg") }
        let outcome = await ChildProcess.run(ffmpeg, ["-hide_banner", "-nostdin", "-v", "error", "-strict", "experimental", "-i", entry.absoluteString,
                                                      "-map", "0", "-c:s", "copy", "-f", "null", "-"], timeLimit: .seconds(120))
        let said = ASCIIText.trimmingWhitespace(outcome.errors)
        guard outcome.status == 0, said.isEmpty, !outcome.timedOut else {
            throw DemoFailure("ffmpeg could not play \(entry.absoluteString) cleanly: \(said.split(separator: "\n").first ?? "exit \(outcome.status)")")
        }
        Terminal.line("player:   ffmpeg played every rendition of \(entry.absoluteString) with -v error and no message")
    }

    /// ffmpeg decodes every stream of the file at `path` with `-v error` and no message, and
    /// (given) exactly `frames` video frames.
    func decode(_ path: String, frames expected: Int?) async throws(DemoFailure) {
        guard let ffmpeg = ChildProcess.find("ffmpeg") else { return try missing("ffmpeg") }
        let outcome = await ChildProcess.run(ffmpeg, ["-hide_banner", "-nostdin", "-v", "error", "-i", path, "-map", "0", "-c:s", "copy", "-f", "null", "-",
                                                      "-progress", "pipe:1"], timeLimit: .seconds(120))
        let said = ASCIIText.trimmingWhitespace(outcome.errors)
        guard outcome.status == 0, said.isEmpty, !outcome.timedOut else {
            throw DemoFailure("ffmpeg could not decode \(path) cleanly: \(said.split(separator: "\n").first ?? "exit \(outcome.status)")")
        }
        let decoded = outcome.output.split(separator: "\n").last { $0.hasPrefix("frame=") }.flatMap { Int($0.dropFirst(6)) }
        if let expected, decoded != expected {
            throw DemoFailure("ffmpeg decoded \(decoded.map(String.init) ?? "no") video frames of \(path), which has \(expected)")
        }
        Terminal.line("player:   ffmpeg decoded \(path) with -v error and no message" + (expected.map { ", \($0) pictures" } ?? ""))
    }

    /// Headless Chromium opens a page (served by a second loopback server) whose `<video>` plays
    /// the package natively and reports `ended` with its decoded frame count.
    func browser(_ entry: URL, package: URL) async throws(DemoFailure) {
        guard let ffprobe = ChildProcess.find("ffprobe") else { return try missing("ffprobe") }
        let probe = await ChildProcess.run(ffprobe, ["-v", "error", "-count_frames", "-select_streams", "v:0", "-show_entries",
                                                     "stream=nb_read_frames", "-of", "csv=p=0",
                                                     package.appendingPathComponent("video/index.m3u8").path], timeLimit: .seconds(60))
        guard let expected = probe.output.split(separator: "\n").first.flatMap({ Int($0) }) else {
            throw DemoFailure("ffprobe could not count the package's video frames: \(probe.errors.prefix(200))")
        }
        try await browser(entry.absoluteString, frames: expected, profile: package.lastPathComponent)
    }

    /// Headless Chromium plays `entry` natively to `ended` with `frames` pictures decoded; with
    /// `subtitles` (a file name and its cues), it shows them as the `<video>`'s track and loads
    /// every cue. Relative names are answered by `files` from the page's own origin.
    func browser(_ entry: String, frames expected: Int, subtitles: (name: String, cues: Int)? = nil, files: (any HTTPResponder)? = nil,
                 profile: String) async throws(DemoFailure) {
        guard let chromium = ChildProcess.find("chromium") ?? ChildProcess.find("chromium-browser") else { return try missing("Chromium") }
        let stopper = ChildProcess.Stopper()
        let reporter = ReportResponder(entry: entry, subtitles: subtitles?.name, files: files, stopper: stopper)
        let pageServer: LoopbackServer
        do { pageServer = try LoopbackServer(responder: reporter) } catch { throw DemoFailure("the report page's server: \(error.message)") }
        defer { pageServer.shutdown() }
        let folder = output.appendingPathComponent("chromium-profile-\(profile)")
        let outcome = await ChildProcess.run(chromium, ["--headless=new", "--no-sandbox", "--disable-gpu", "--autoplay-policy=no-user-gesture-required",
                                                        "--user-data-dir=\(folder.path)", pageServer.baseURL.appendingPathComponent("player.html").absoluteString],
                                             timeLimit: .seconds(60), stopper: stopper)
        guard let report = reporter.report else {
            throw DemoFailure("headless Chromium did not report within 60 s (exit \(outcome.status)): \(outcome.errors.split(separator: "\n").last ?? "")")
        }
        guard report.ended, report.frames == expected else {
            throw DemoFailure("headless Chromium: \(report.ended ? "ended with \(report.frames) frames decoded where the source has \(expected)" : "error \(report.error ?? "?")")")
        }
        if let subtitles, report.cues != subtitles.cues {
            throw DemoFailure("headless Chromium loaded \(report.cues) cues of \(subtitles.name), which has \(subtitles.cues)")
        }
        let shown = subtitles.map { ", and showed its subtitle track \($0.name) with all \($0.cues) cues" } ?? ""
        Terminal.line("player:   headless Chromium played \(entry) natively to ended: \(report.frames) frames decoded, as the source has\(shown)")
    }
}
