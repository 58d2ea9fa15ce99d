/// Small text helpers over ASCII bytes, so the module needs only FoundationEssentials.
enum ASCIIText {
    /// `text` without leading and trailing spaces and tabs.
    static func trimmingBlanks<S: StringProtocol>(_ text: S) -> String {
        trimming(text) { $0 == 0x20 || $0 == 0x09 }
    }

    /// `text` without leading and trailing bytes that `drop` selects.
    static func trimming<S: StringProtocol>(_ text: S, where drop: (UInt8) -> Bool) -> String {
        let bytes = Array(text.utf8)
        var start = 0
        var end = bytes.count
        while start < end, drop(bytes[start]) { start += 1 }
        while end > start, drop(bytes[end - 1]) { end -= 1 }
        return String(decoding: bytes[start..<end], as: UTF8.self)
    }

    /// Decodes `%XX` escapes; nil when an escape is malformed or the result is not UTF-8.
    static func removingPercentEncoding<S: StringProtocol>(_ text: S) -> String? {
        let bytes = Array(text.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            if bytes[index] == 0x25 {
                guard index + 2 < bytes.count, let high = hexValue(bytes[index + 1]), let low = hexValue(bytes[index + 2]) else {
                    return nil
                }
                out.append(high << 4 | low)
                index += 3
            } else {
                out.append(bytes[index])
                index += 1
            }
        }
        return String(validating: out, as: UTF8.self)
    }

    /// `text` with every `target` replaced by `replacement`.
    static func replacing(_ target: Character, with replacement: String, in text: String) -> String {
        var out = ""
        for character in text {
            if character == target { out += replacement } else { out.append(character) }
        }
        return out
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case 0x30...0x39: byte - 0x30
        case 0x41...0x46: byte - 0x37
        case 0x61...0x66: byte - 0x57
        default: nil
        }
    }
}
