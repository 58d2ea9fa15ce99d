#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TesseraSupport

/// The status line and fields of the server's answer to the upgrade, cut from the bytes that
/// precede the first frame.
struct WebSocketResponseHead: Sendable, Equatable {
    var status: Int
    var reasonPhrase: String
    var headers: HTTPHeaders

    /// Parses a head from the start of `bytes`: the head and how many bytes it took, or nil
    /// while its blank line has not arrived.
    /// - Throws: `WebSocketClose` (`handshakeInvalid`) for a head over `limit` bytes or one that
    ///   is not an HTTP/1.1 status line with fields.
    static func parse(_ bytes: [UInt8], limit: Int) throws(WebSocketClose) -> (head: Self, consumed: Int)? {
        guard let end = endOfHead(bytes) else {
            if bytes.count > limit { throw invalid("The upgrade's response head is over \(limit) bytes.") }
            return nil
        }
        guard end <= limit else { throw invalid("The upgrade's response head is over \(limit) bytes.") }
        let text = String(decoding: bytes[0..<(end - 4)], as: UTF8.self)
        var lines = text.split(separator: "\r\n", omittingEmptySubsequences: false).map(String.init)
        let statusLine = lines.removeFirst()
        let parts = statusLine.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count >= 2, parts[0].hasPrefix("HTTP/1."), parts[1].count == 3, let status = Int(parts[1]) else {
            throw invalid("The upgrade was answered with \"\(statusLine.prefix(60))\", not an HTTP/1.1 status line.")
        }
        var headers = HTTPHeaders()
        for line in lines where !line.isEmpty {
            guard let colon = line.firstIndex(of: ":") else { throw invalid("The upgrade's response has a field line without a colon.") }
            headers.add(ASCIIText.trimmingBlanks(line[..<colon]),
                        ASCIIText.trimmingBlanks(line[line.index(after: colon)...]))
        }
        return (Self(status: status, reasonPhrase: parts.count > 2 ? String(parts[2]) : "", headers: headers), end)
    }

    /// The index just past `\r\n\r\n`, if present.
    private static func endOfHead(_ bytes: [UInt8]) -> Int? {
        guard bytes.count >= 4 else { return nil }
        for i in 3..<bytes.count where bytes[i] == 0x0A && bytes[i - 1] == 0x0D && bytes[i - 2] == 0x0A && bytes[i - 3] == 0x0D {
            return i + 1
        }
        return nil
    }

    private static func invalid(_ reason: String) -> WebSocketClose {
        WebSocketClose(.handshakeInvalid, code: .protocolError, reason: reason)
    }
}
