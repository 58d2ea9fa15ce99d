#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TesseraHTTP
import TesseraPlayback
import TesseraSupport

/// Serves the demo's report page and takes its one report (`/report?ended=…&frames=…` or
/// `/report?error=…`), then stops the browser.
final class ReportResponder: HTTPResponder {
    struct Report: Sendable {
        let ended: Bool
        let frames: Int
        let error: String?
    }

    private let page: [UInt8]
    private let stopper: ChildProcess.Stopper
    private let received = Lock<Report?>(nil)

    init(entry: URL, stopper: ChildProcess.Stopper) {
        self.stopper = stopper
        page = Array("""
        <!doctype html><video id=v muted autoplay src="\(entry.absoluteString)"></video><script>
        const v = document.getElementById('v');
        const q = () => v.getVideoPlaybackQuality().totalVideoFrames;
        v.addEventListener('error', () => fetch('/report?error=' + (v.error && v.error.code)));
        v.addEventListener('ended', () => fetch('/report?ended=1&frames=' + q()));
        </script>
        """.utf8)
    }

    var report: Report? { received.withLock { $0 } }

    func reply(to request: ServerRequest) -> ServerReply {
        if request.path == "/report" {
            let report = Report(ended: request.queryValue("ended") == "1", frames: request.queryValue("frames").flatMap { Int($0) } ?? 0,
                                error: request.queryValue("error"))
            received.withLock { $0 = $0 ?? report }
            stopper.stop()
            return .response(ServerResponse(status: 204))
        }
        return .response(ServerResponse(status: 200, headers: ["Content-Type": "text/html; charset=utf-8"], body: .bytes(page)))
    }
}
