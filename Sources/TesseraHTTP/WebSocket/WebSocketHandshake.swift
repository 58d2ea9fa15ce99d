#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TesseraSupport

/// The opening handshake of RFC 6455 §4: the HTTP/1.1 upgrade request a client sends and the
/// checks its 101 answer must pass.
package struct WebSocketHandshake: Sendable {
    /// The GUID the accept key is made with (§1.3).
    static let guid = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"
    /// Fields the handshake owns; a caller's fields of these names are refused.
    static let reservedFields: Set<String> = [
        "host", "upgrade", "connection", "sec-websocket-key", "sec-websocket-version",
        "sec-websocket-extensions", "sec-websocket-accept", "content-length", "transfer-encoding",
    ]

    /// The base64 of 16 random bytes.
    let key: String
    let requestBytes: [UInt8]
    let protocols: [String]

    /// Builds the request for `url` (`ws`/`wss`).
    /// - Throws: `invalid-request` (`bad-header`) for a field the handshake owns or a value with
    ///   a line break; `internal` when no random key can be made.
    init(url: URL, headers: HTTPHeaders, protocols: [String]) throws(HTTPError) {
        do {
            key = Data(try SecureRandom.bytes(16)).base64EncodedString()
        } catch {
            throw HTTPError(.internal, code: .cryptoUnavailable, "No random key for the WebSocket handshake: \(error.message)")
        }
        self.protocols = protocols
        var target = url.path(percentEncoded: true)
        if target.isEmpty { target = "/" }
        if let query = url.query(percentEncoded: true) { target += "?" + query }
        var host = url.host(percentEncoded: true) ?? ""
        if host.contains(":") { host = "[\(host)]" }
        let secure = url.scheme?.lowercased() == "wss"
        if let port = url.port, port != (secure ? 443 : 80) { host += ":\(port)" }
        var lines = ["GET \(target) HTTP/1.1", "Host: \(host)", "Upgrade: websocket", "Connection: Upgrade",
                     "Sec-WebSocket-Key: \(key)", "Sec-WebSocket-Version: 13"]
        if !protocols.isEmpty {
            for token in protocols where !HTTPHeaders.isToken(token) {
                throw HTTPError(.invalidRequest, code: .badHeader, "The subprotocol \"\(token)\" is not an HTTP token.")
            }
            lines.append("Sec-WebSocket-Protocol: " + protocols.joined(separator: ", "))
        }
        try headers.checkSendable()
        for field in headers {
            let name = field.name.lowercased()
            guard !Self.reservedFields.contains(name), name != "sec-websocket-protocol" else {
                throw HTTPError(.invalidRequest, code: .badHeader, "The WebSocket handshake owns the \(field.name) field.")
            }
            lines.append("\(field.name): \(field.value)")
        }
        requestBytes = Array((lines.joined(separator: "\r\n") + "\r\n\r\n").utf8)
    }

    /// The `Sec-WebSocket-Accept` a server must answer `key` with.
    package static func accept(for key: String) -> String {
        Data(SHA1.digest(Array((key + guid).utf8))).base64EncodedString()
    }

    /// Checks a response head: nil when the upgrade succeeded (with the chosen subprotocol in
    /// `subprotocol`), else how the task ends.
    func verdict(on head: WebSocketResponseHead) -> Result<String?, WebSocketClose> {
        guard head.status == 101 else {
            return .failure(WebSocketClose(.handshakeRefused, reason: "The server answered the upgrade with \(head.status) \(head.reasonPhrase).",
                                           status: head.status))
        }
        func invalid(_ text: String) -> Result<String?, WebSocketClose> {
            .failure(WebSocketClose(.handshakeInvalid, code: .protocolError, reason: text, status: 101))
        }
        guard head.headers.values("Upgrade").contains(where: { $0.lowercased() == "websocket" }) else {
            return invalid("The 101 answer has no Upgrade: websocket.")
        }
        let connection = head.headers.values("Connection").flatMap { $0.split(separator: ",") }
        guard connection.contains(where: { ASCIIText.trimmingBlanks($0).lowercased() == "upgrade" }) else {
            return invalid("The 101 answer has no Connection: Upgrade.")
        }
        guard let accept = head.headers["Sec-WebSocket-Accept"], accept == Self.accept(for: key) else {
            return invalid("The 101 answer's Sec-WebSocket-Accept does not match the key sent.")
        }
        if let extensions = head.headers["Sec-WebSocket-Extensions"], !extensions.isEmpty {
            return invalid("The server chose the extension \"\(extensions)\", which was not offered.")
        }
        guard let chosen = head.headers["Sec-WebSocket-Protocol"] else { return .success(nil) }
        guard protocols.contains(chosen) else {
            return invalid("The server chose the subprotocol \"\(chosen)\", which was not offered.")
        }
        return .success(chosen)
    }
}
