#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TesseraSupport

/// The redacted, bounded copy of a failure body that errors carry when a client opted in to
/// payload capture. JSON keeps its shape with the values of credential-like keys replaced; text
/// keeps its words with JWT-like tokens and credential-like `name=value` pairs masked; anything
/// else is summarised by size. The result is cut to `limit` UTF-8 bytes.
public enum PayloadRedaction {
    /// Key names (lowercased, `-` and `_` removed) containing one of these are credential-like.
    static let sensitiveFragments = ["token", "secret", "password", "passwd", "authorization", "apikey", "cookie",
                                     "session", "credential", "privatekey", "signature", "otp"]
    static let mask = "<redacted>"

    /// The redacted copy of `body`.
    public static func redact(_ body: [UInt8], limit: Int = 4096) -> String {
        guard !body.isEmpty else { return "" }
        let text: String
        // Not JSON (or not re-encodable) is not an error: the body is then treated as text.
        if let json = try? JSONDecoder().decode(JSONValue.self, from: Data(body)),
           let data = try? encoder.encode(redactJSON(json)) {
            text = String(decoding: data, as: UTF8.self)
        } else if let plain = String(validating: body, as: UTF8.self) {
            text = redactText(plain)
        } else {
            return "<\(body.count) bytes of binary data>"
        }
        return truncate(text, limit: limit)
    }

    /// A whole body redacted by the same rules but not cut, for a record that must stay usable
    /// (a test cassette): JSON re-encoded with credential-like values masked, UTF-8 text with
    /// tokens and credential-like pairs masked; nil for anything else (binary bodies are kept
    /// as they are by the caller).
    package static func redactedWhole(_ body: [UInt8]) -> [UInt8]? {
        guard !body.isEmpty else { return body }
        // Not JSON (or not re-encodable) is not an error: the body is then treated as text.
        if let json = try? JSONDecoder().decode(JSONValue.self, from: Data(body)), let data = try? encoder.encode(redactJSON(json)) {
            return Array(data)
        }
        guard let text = String(validating: body, as: UTF8.self) else { return nil }
        return Array(redactText(text).utf8)
    }

    /// Whether a key or parameter name looks like it holds a credential.
    public static func isSensitive(_ name: String) -> Bool {
        let folded = name.lowercased().filter { $0 != "-" && $0 != "_" }
        return sensitiveFragments.contains { folded.contains($0) }
    }

    private static var encoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }

    private static func redactJSON(_ value: JSONValue) -> JSONValue {
        switch value {
        case .object(let object):
            var out: [String: JSONValue] = [:]
            for (key, item) in object { out[key] = isSensitive(key) ? .string(mask) : redactJSON(item) }
            return .object(out)
        case .array(let array): return .array(array.map(redactJSON))
        case .string(let string): return .string(redactText(string))
        default: return value
        }
    }

    /// Masks JWT-like words and the values of credential-like `name=value` / `name: value` pairs.
    private static func redactText(_ text: String) -> String {
        var out = ""
        var maskNext = false
        for piece in text.split(separator: " ", omittingEmptySubsequences: false) {
            if !out.isEmpty { out += " " }
            if maskNext, !piece.isEmpty {
                out += mask
                maskNext = false
                continue
            }
            out += redactWord(piece, maskNext: &maskNext)
        }
        return out
    }

    private static func redactWord(_ word: Substring, maskNext: inout Bool) -> String {
        // Surrounding punctuation (quotes, commas, brackets) is not part of a token; `-`, `_` and `.` are.
        let core = ASCIIText.trimming(word) { $0 < 0x80 && !($0 == 0x2D || $0 == 0x5F || $0 == 0x2E) && !Self.isAlphanumeric($0) }
        if URLRedaction.looksLikeJWT(core) {
            return mask
        }
        var parts: [String] = []
        for pair in word.split(separator: "&", omittingEmptySubsequences: false) {
            if let equals = pair.firstIndex(of: "="), isSensitive(String(pair[..<equals])) {
                parts.append(pair[...equals] + mask)
            } else {
                parts.append(String(pair))
            }
        }
        let joined = parts.joined(separator: "&")
        if joined.hasSuffix(":"), isSensitive(String(joined.dropLast())) { maskNext = true }
        return joined
    }

    private static func isAlphanumeric(_ byte: UInt8) -> Bool {
        (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
    }

    private static func truncate(_ text: String, limit: Int) -> String {
        guard text.utf8.count > limit else { return text }
        var cut = text.utf8.prefix(limit)
        while !cut.isEmpty, String(cut) == nil { cut = cut.dropLast() }
        return (String(cut) ?? "") + "…"
    }
}
