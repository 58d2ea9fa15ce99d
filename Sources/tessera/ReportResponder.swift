#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TesseraHTTP
import TesseraPlayback
import TesseraSupport

/// Serves the demo's report page and takes its one report (`/report?ended=…&frames=…&cues=…` or
/// `/report?error=…`), then stops the browser. With a subtitles file, the page's `<video>` shows
/// it as a `<track>` and the report counts its cues; with `files`, every other path is answered
/// by it (the page's media from the page's own origin, as a `<track>` needs without CORS).
final class ReportResponder: HTTPResponder {
    struct Report: Sendable {
        let ended: Bool
        let frames: Int
        /// Cues of the subtitle track (0 without one).
        let cues: Int
        let error: String?
    }

    private let page: [UInt8]
    private let stopper: ChildProcess.Stopper
    private let received = Lock<Report?>(nil)
    private let files: (any HTTPResponder)?

    /// A page playing `entry` (with `subtitles`); URLs relative to the page are answered by `files`.
    init(entry: String, subtitles: String? = nil, files: (any HTTPResponder)? = nil, stopper: ChildProcess.Stopper) {
        self.stopper = stopper
        self.files = files
        let track = subtitles.map { "<track kind=subtitles default src=\"\($0)\">" } ?? ""
        page = Array("""
        <!doctype html><video id=v muted autoplay src="\(entry)">\(track)</video><script>
        const v = document.getElementById('v');
        const q = () => v.getVideoPlaybackQuality().totalVideoFrames;
        const c = () => v.textTracks.length && v.textTracks[0].cues ? v.textTracks[0].cues.length : 0;
        v.addEventListener('error', () => fetch('/report?error=' + (v.error && v.error.code)));
        v.addEventListener('ended', () => fetch('/report?ended=1&frames=' + q() + '&cues=' + c()));
        </script>
        """.utf8)
    }

    var report: Report? { received.withLock { $0 } }

    func reply(to request: ServerRequest) -> ServerReply {
        if request.path == "/report" {
            let report = Report(ended: request.queryValue("ended") == "1", frames: request.queryValue("frames").flatMap { Int($0) } ?? 0,
                                cues: request.queryValue("cues").flatMap { Int($0) } ?? 0, error: request.queryValue("error"))
            received.withLock { $0 = $0 ?? report }
            stopper.stop()
            return .response(ServerResponse(status: 204))
        }
        if let files, request.path != "/player.html" { return files.reply(to: request) }
        return .response(ServerResponse(status: 200, headers: ["Content-Type": "text/html; charset=utf-8"], body: .bytes(page)))
    }
}
