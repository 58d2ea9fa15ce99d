import TesseraHLS

/// Splits one line of a channel list into words as a POSIX shell quotes them (`ChannelList`):
/// spaces and tabs separate; `'…'` is literal; `"…"` takes `\"` and `\\` as escapes; `\`
/// outside quotes escapes the next character; a `#` starting a word starts a comment.
enum ChannelLineWords {
    /// The words of `line` (number `number`, for messages).
    /// - Throws: `invalid-channel-list` for an unterminated quote, a trailing `\`, or a control
    ///   character.
    static func split(_ line: Substring, line number: Int) throws(HLSError) -> [String] {
        var words: [String] = []
        var word: [UInt8] = []
        var inWord = false
        var bytes = line.utf8.makeIterator()
        func fail(_ what: String) -> HLSError { HLSError(.invalidChannelList, "Line \(number) of the channel list: \(what).") }
        while let byte = bytes.next() {
            switch byte {
            case UInt8(ascii: " "), UInt8(ascii: "\t"):
                if inWord { words.append(String(decoding: word, as: UTF8.self)); word = []; inWord = false }
            case UInt8(ascii: "#") where !inWord:
                return words
            case UInt8(ascii: "'"):
                inWord = true
                while true {
                    guard let next = bytes.next() else { throw fail("a ' is not closed") }
                    if next == UInt8(ascii: "'") { break }
                    guard next >= 0x20, next != 0x7f else { throw fail("a control character") }
                    word.append(next)
                }
            case UInt8(ascii: "\""):
                inWord = true
                while true {
                    guard var next = bytes.next() else { throw fail("a \" is not closed") }
                    if next == UInt8(ascii: "\"") { break }
                    if next == UInt8(ascii: "\\") {
                        guard let escaped = bytes.next() else { throw fail("a \" is not closed") }
                        if escaped != UInt8(ascii: "\"") && escaped != UInt8(ascii: "\\") { word.append(next) }
                        next = escaped
                    }
                    guard next >= 0x20, next != 0x7f else { throw fail("a control character") }
                    word.append(next)
                }
            case UInt8(ascii: "\\"):
                guard let next = bytes.next() else { throw fail("a \\ ends the line") }
                guard next >= 0x20, next != 0x7f else { throw fail("a control character") }
                word.append(next)
                inWord = true
            default:
                guard byte >= 0x20, byte != 0x7f else { throw fail("a control character") }
                word.append(byte)
                inWord = true
            }
        }
        if inWord { words.append(String(decoding: word, as: UTF8.self)) }
        return words
    }
}
