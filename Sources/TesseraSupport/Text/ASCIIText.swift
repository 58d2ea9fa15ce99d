/// Small text helpers over ASCII bytes, so modules need only FoundationEssentials.
package enum ASCIIText {
    /// `text` without leading and trailing spaces and tabs.
    package static func trimmingBlanks<S: StringProtocol>(_ text: S) -> String {
        trimming(text) { $0 == 0x20 || $0 == 0x09 }
    }

    /// `text` without leading and trailing spaces, tabs and line breaks.
    package static func trimmingWhitespace<S: StringProtocol>(_ text: S) -> String {
        trimming(text) { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
    }

    /// `text` without leading and trailing bytes that `drop` selects.
    package static func trimming<S: StringProtocol>(_ text: S, where drop: (UInt8) -> Bool) -> String {
        let bytes = Array(text.utf8)
        var start = 0
        var end = bytes.count
        while start < end, drop(bytes[start]) { start += 1 }
        while end > start, drop(bytes[end - 1]) { end -= 1 }
        return String(decoding: bytes[start..<end], as: UTF8.self)
    }
}
