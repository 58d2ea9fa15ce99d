import Foundation
import TesseraHTTP
import TesseraTestSupport
import TesseraSupport

/// A resource served by a `ScriptedServer` handler with real `Range` and `If-Range` semantics,
/// whose content can change, and which can cut its next replies short or answer 503.
final class RangeResource: Sendable {
    private struct State {
        var body: [UInt8]
        var etag: String
        var cutNextAfter: [Int] = []
        var busyReplies = 0
    }

    private let state: Lock<State>

    init(_ body: [UInt8], etag: String = "\"v1\"") {
        state = Lock(State(body: body, etag: etag))
    }

    var body: [UInt8] { state.withLock { $0.body } }

    /// New content and validator.
    func change(to body: [UInt8], etag: String) {
        state.withLock { $0.body = body; $0.etag = etag }
    }

    /// The next replies send only this many body bytes each, then close the connection.
    func cutNext(after bytes: Int...) { state.withLock { $0.cutNextAfter += bytes } }

    /// The next `count` replies are 503 with `Retry-After: 2`.
    func busy(_ count: Int) { state.withLock { $0.busyReplies = count } }

    func reply(_ request: ScriptedServer.Request) -> ScriptedServer.Reply {
        state.withLock { state in
            if state.busyReplies > 0 {
                state.busyReplies -= 1
                return ScriptedServer.Reply(503, headers: ["Retry-After": "2"])
            }
            var status = 200
            var slice = state.body[...]
            var headers: HTTPHeaders = ["ETag": state.etag, "Accept-Ranges": "bytes"]
            let validatorMatches = request.headers["If-Range"].map { $0 == state.etag } ?? true
            if let range = request.headers["Range"], range.hasPrefix("bytes="), range.hasSuffix("-"), validatorMatches,
               let start = Int(range.dropFirst(6).dropLast()) {
                guard start < state.body.count else {
                    return ScriptedServer.Reply(416, headers: ["Content-Range": "bytes */\(state.body.count)"])
                }
                status = 206
                slice = state.body[start...]
                headers.add("Content-Range", "bytes \(start)-\(state.body.count - 1)/\(state.body.count)")
            }
            if !state.cutNextAfter.isEmpty {
                let keep = state.cutNextAfter.removeFirst()
                var head = "HTTP/1.1 \(status) X\r\n"
                for field in headers { head += "\(field.name): \(field.value)\r\n" }
                head += "Content-Length: \(slice.count)\r\n\r\n"
                var reply = ScriptedServer.Reply()
                reply.raw = Array(head.utf8) + Array(slice.prefix(keep))
                return reply
            }
            return ScriptedServer.Reply(status, headers: headers, body: Array(slice))
        }
    }
}
