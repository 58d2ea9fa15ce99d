/// One pass over the document (RFC 8216bis §4.1): UTF-8 validated without copying, control
/// characters refused (U+0000–U+001F except CR, LF and TAB; U+007F–U+009F), lines split at LF
/// or CRLF, the `#EXTM3U` signature checked. Calls `body` for every line after the first.
enum PlaylistText {
    /// What the pass found besides the lines.
    struct Summary {
        var hasByteOrderMark = false
    }

    static func scan(_ bytes: Bytes, limits: PlaylistLimits,
                     _ body: (Span, Int) throws(PlaylistError) -> Void) throws(PlaylistError) -> Summary {
        let count = bytes.base.count
        guard count <= limits.maximumBytes else {
            throw PlaylistError(.limitExceeded, "The playlist is \(count) bytes, over the \(limits.maximumBytes)-byte limit.")
        }
        var summary = Summary()
        var index = 0
        if count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF {
            summary.hasByteOrderMark = true
            index = 3
        }
        let signature: StaticString = "#EXTM3U"
        let afterSignature = index + signature.utf8CodeUnitCount
        guard afterSignature <= count, bytes.equals(Span(start: index, end: afterSignature), signature),
              afterSignature == count || bytes[afterSignature] == 0x0A || bytes[afterSignature] == 0x0D else {
            throw PlaylistError(.notAPlaylist, "The document does not start with #EXTM3U, so it is not a playlist.", line: 1)
        }
        var lineStart = index
        var number = 1
        while index < count {
            let byte = bytes[index]
            if byte < 0x80 {
                if byte == 0x0A {
                    try finish(Span(start: lineStart, end: index), number: number, bytes: bytes, limits: limits, body)
                    number += 1
                    lineStart = index + 1
                } else if (byte < 0x20 && byte != 0x09 && byte != 0x0D) || byte == 0x7F {
                    throw PlaylistError(.invalidText, "Control character 0x\(String(byte, radix: 16)) is not allowed in a playlist.",
                                        line: number)
                }
                index += 1
                continue
            }
            index = try multibyte(bytes, at: index, line: number)
        }
        if lineStart < count {
            try finish(Span(start: lineStart, end: count), number: number, bytes: bytes, limits: limits, body)
        }
        return summary
    }

    private static func finish(_ line: Span, number: Int, bytes: Bytes, limits: PlaylistLimits,
                               _ body: (Span, Int) throws(PlaylistError) -> Void) throws(PlaylistError) {
        var span = line
        if span.end > span.start, bytes[span.end - 1] == 0x0D { span.end -= 1 }
        guard span.count <= limits.maximumLineBytes else {
            throw PlaylistError(.limitExceeded, "Line is longer than \(limits.maximumLineBytes) bytes.", line: number)
        }
        if number > 1 { try body(span, number) }
    }

    /// Validates one multi-byte UTF-8 sequence (RFC 3629) and returns the index after it.
    private static func multibyte(_ bytes: Bytes, at index: Int, line: Int) throws(PlaylistError) -> Int {
        let count = bytes.base.count
        let lead = bytes[index]
        let length: Int
        var scalar: UInt32
        switch lead {
        case 0xC2...0xDF: length = 2; scalar = UInt32(lead & 0x1F)
        case 0xE0...0xEF: length = 3; scalar = UInt32(lead & 0x0F)
        case 0xF0...0xF4: length = 4; scalar = UInt32(lead & 0x07)
        default: throw PlaylistError(.invalidText, "The playlist is not valid UTF-8.", line: line)
        }
        guard index + length <= count else { throw PlaylistError(.invalidText, "The playlist is not valid UTF-8.", line: line) }
        for k in 1..<length {
            let continuation = bytes[index + k]
            guard continuation & 0xC0 == 0x80 else { throw PlaylistError(.invalidText, "The playlist is not valid UTF-8.", line: line) }
            scalar = scalar << 6 | UInt32(continuation & 0x3F)
        }
        let minimum: UInt32 = length == 2 ? 0x80 : length == 3 ? 0x800 : 0x10000
        guard scalar >= minimum, scalar <= 0x10FFFF, !(0xD800...0xDFFF).contains(scalar) else {
            throw PlaylistError(.invalidText, "The playlist is not valid UTF-8.", line: line)
        }
        guard !(0x80...0x9F).contains(scalar) else {
            throw PlaylistError(.invalidText, "Control character U+00\(String(scalar, radix: 16, uppercase: true)) is not allowed in a playlist.",
                                line: line)
        }
        return index + length
    }
}
