import Foundation

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
        if let json = try? JSONSerialization.jsonObject(with: Data(body), options: [.fragmentsAllowed]),
           let data = try? JSONSerialization.data(withJSONObject: redactJSON(json), options: [.sortedKeys, .fragmentsAllowed]) {
            text = String(decoding: data, as: UTF8.self)
        } else if let plain = String(validating: body, as: UTF8.self) {
            text = redactText(plain)
        } else {
            return "<\(body.count) bytes of binary data>"
        }
        return truncate(text, limit: limit)
    }

    /// Whether a key or parameter name looks like it holds a credential.
    public static func isSensitive(_ name: String) -> Bool {
        let folded = name.lowercased().filter { $0 != "-" && $0 != "_" }
        return sensitiveFragments.contains { folded.contains($0) }
    }

    private static func redactJSON(_ value: Any) -> Any {
        if let object = value as? [String: Any] {
            var out: [String: Any] = [:]
            for (key, item) in object { out[key] = isSensitive(key) ? mask : redactJSON(item) }
            return out
        }
        if let array = value as? [Any] { return array.map(redactJSON) }
        if let string = value as? String { return redactText(string) }
        return value
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
        if URLRedaction.looksLikeJWT(word.trimmingCharacters(in: .punctuationCharacters.subtracting(CharacterSet(charactersIn: "-_")))) {
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

    private static func truncate(_ text: String, limit: Int) -> String {
        guard text.utf8.count > limit else { return text }
        var cut = text.utf8.prefix(limit)
        while !cut.isEmpty, String(cut) == nil { cut = cut.dropLast() }
        return (String(cut) ?? "") + "…"
    }
}
