/// Checks a document's bytes (RFC 8216bis §4.1: UTF-8, no BOM-less control characters other than
/// CR/LF/TAB) and splits it into lines (LF or CRLF) without copying.
struct PlaylistText {
    /// One line: its one-based number and the byte range (terminator excluded).
    struct Line {
        let number: Int
        let range: Range<Int>
    }

    let bytes: [UInt8]
    let lines: [Line]

    init(_ input: [UInt8], limits: PlaylistLimits) throws(PlaylistError) {
        guard input.count <= limits.maximumBytes else {
            throw PlaylistError(.limitExceeded, "The playlist is \(input.count) bytes, over the \(limits.maximumBytes)-byte limit.")
        }
        var start = 0
        if input.starts(with: [0xEF, 0xBB, 0xBF]) { start = 3 }   // a UTF-8 BOM is ignored
        let signature = Array("#EXTM3U".utf8)
        let afterSignature = start + signature.count
        guard input.count >= afterSignature, Array(input[start..<afterSignature]) == signature,
              input.count == afterSignature || input[afterSignature] == 0x0A || input[afterSignature] == 0x0D else {
            throw PlaylistError(.notAPlaylist, "The document does not start with #EXTM3U, so it is not a playlist.", line: 1)
        }
        guard String(validating: input[start...], as: UTF8.self) != nil else {
            throw PlaylistError(.invalidText, "The playlist is not valid UTF-8.")
        }
        var lines: [Line] = []
        var lineStart = start
        var number = 1
        var index = start
        while index <= input.count {
            let atEnd = index == input.count
            if atEnd || input[index] == 0x0A {
                var end = index
                if end > lineStart, input[end - 1] == 0x0D { end -= 1 }
                guard end - lineStart <= limits.maximumLineBytes else {
                    throw PlaylistError(.limitExceeded, "Line is longer than \(limits.maximumLineBytes) bytes.", line: number)
                }
                if !(atEnd && end == lineStart) { lines.append(Line(number: number, range: lineStart..<end)) }
                number += 1
                lineStart = index + 1
            } else {
                let byte = input[index]
                if byte < 0x20, byte != 0x09, byte != 0x0D {
                    throw PlaylistError(.invalidText, "Control character 0x\(String(byte, radix: 16)) is not allowed in a playlist.",
                                        line: number)
                }
                if byte == 0x7F {
                    throw PlaylistError(.invalidText, "Control character 0x7f is not allowed in a playlist.", line: number)
                }
            }
            index += 1
        }
        self.bytes = input
        self.lines = lines
    }

    func text(_ line: Line) -> Substring {
        Substring(String(decoding: bytes[line.range], as: UTF8.self))
    }
}
