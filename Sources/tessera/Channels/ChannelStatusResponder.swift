#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TesseraLive
import TesseraPlayback

/// `tessera record --channels … --status ADDRESS:PORT`: `/status` is every channel's
/// `ChannelStatus` as JSON (`{"time": …, "channels": […]}`), `/` the page that shows it
/// (`ChannelStatusPage`); anything else 404. Served on loopback only, never cached.
struct ChannelStatusResponder: HTTPResponder {
    let recorder: ChannelRecorder
    let now: @Sendable () -> Double

    private struct Document: Encodable {
        let time: Double
        let channels: [ChannelStatus]
    }

    func reply(to request: ServerRequest) -> ServerReply {
        var headers: ResponseHeaders = ["Cache-Control": "no-store"]
        switch request.path {
        case "/status":
            headers.set("Content-Type", "application/json")
            let text = JSONText.of(Document(time: now(), channels: recorder.status))
            return .response(ServerResponse(status: 200, headers: headers, body: .bytes(Array(text.utf8))))
        case "/", "/index.html":
            headers.set("Content-Type", "text/html; charset=utf-8")
            return .response(ServerResponse(status: 200, headers: headers, body: .bytes(ChannelStatusPage.html)))
        default:
            return .response(.status(404, headers: headers))
        }
    }
}
