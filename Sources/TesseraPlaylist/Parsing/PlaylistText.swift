/// One pass over the document (RFC 8216bis §4.1): UTF-8 validated without copying, control
/// characters refused (U+0000–U+001F except CR, LF and TAB; U+007F–U+009F), lines split at LF
/// or CRLF, the `#EXTM3U` signature checked. Calls `body` for every line after the first.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

enum PlaylistText {
    /// What the pass found besides the lines.
    struct Summary {
        var hasByteOrderMark = false
    }

    static func scan(_ bytes: Bytes, limits: PlaylistLimits, lines: (UnsafeRawPointer, Int, Int, Int) -> (end: Int, lines: Int),
                     _ body: (Span, Int) throws(PlaylistError) -> Void) throws(PlaylistError) -> Summary {
        var scanner = Scanner(limits: limits)
        _ = try scanner.scan(bytes, isFinal: true, lines: lines, body)
        return scanner.summary
    }

    /// The pass over a document that may come in pieces: each `scan` reads the complete lines of
    /// the bytes it is given (the rest of the document so far, from the start of the line the
    /// previous piece ended in) and says how many bytes it used; the last piece ends the last line.
    struct Scanner {
        let limits: PlaylistLimits
        private(set) var summary = Summary()
        /// Whether the signature was checked (the first piece long enough to hold it).
        private var started = false
        /// The number of the next line.
        private var number = 1
        /// Bytes of the document used by earlier scans.
        private var usedBytes = 0
        /// Bytes at the start of the next piece (the line the last one ended in) already known to
        /// hold no line feed: the search goes on after them, so a long line is searched once.
        private var searchedBytes = 0

        init(limits: PlaylistLimits) { self.limits = limits }

        /// Reads every complete line of `bytes` (every line when `isFinal`) and returns how many
        /// bytes that was: the caller passes the rest again, followed by more, next time. At a
        /// line that starts with `#`, `lines` (given the bytes, the line's start, their count and
        /// its number) may read it and the lines after it at once — whole, plain lines, each
        /// ended by a LF — and says where it stopped and how many it read; `body` gets every other line.
        mutating func scan(_ bytes: Bytes, isFinal: Bool, lines: (UnsafeRawPointer, Int, Int, Int) -> (end: Int, lines: Int),
                           _ body: (Span, Int) throws(PlaylistError) -> Void) throws(PlaylistError) -> Int {
            let count = bytes.base.count
            guard usedBytes + count <= limits.maximumBytes else {
                let total = isFinal ? "\(usedBytes + count) bytes" : "over \(usedBytes + count) bytes"
                throw PlaylistError(.limitExceeded, "The playlist is \(total), over the \(limits.maximumBytes)-byte limit.")
            }
            var index = 0
            if !started {
                let hasMark = count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF
                let signature: StaticString = "#EXTM3U"
                let afterSignature = (hasMark ? 3 : 0) + signature.utf8CodeUnitCount
                guard afterSignature < count || isFinal else { return 0 }   // too short to tell yet
                guard afterSignature <= count, bytes.equals(Span(start: hasMark ? 3 : 0, end: afterSignature), signature),
                      afterSignature == count || bytes[afterSignature] == 0x0A || bytes[afterSignature] == 0x0D else {
                    throw PlaylistError(.notAPlaylist, "The document does not start with #EXTM3U, so it is not a playlist.", line: 1)
                }
                started = true
                summary.hasByteOrderMark = hasMark
                index = hasMark ? 3 : 0
            }
            guard let base = bytes.base.baseAddress else { return 0 }
            let raw = UnsafeRawPointer(base)
            // The line number lives in a local through the loop (a property would be written back
            // around every call of `body`); an error ends the document, so it need not be kept.
            var number = self.number
            defer { self.number = number }
            while index < count {
                let end: Int
                let searched = index == 0 ? searchedBytes : 0
                if searched == 0, number > 1, bytes[index] == 0x23 {
                    let read = lines(raw, index, count, number)
                    if read.lines > 0 {
                        number += read.lines
                        index = read.end
                        continue
                    }
                }
                if searched == 0, let plainEnd = PlaylistText.plainLineEnd(raw, from: index, count: count) {
                    end = plainEnd
                } else {
                    if let found = memchr(base + index + searched, 0x0A, count - index - searched) {
                        end = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
                    } else if isFinal {
                        end = count
                    } else {
                        // The line goes on in the next piece (checked once it ends, as in one piece).
                        searchedBytes = count - index
                        break
                    }
                    try PlaylistText.validate(bytes, Span(start: index, end: end), line: number)
                }
                searchedBytes = 0
                try PlaylistText.finish(Span(start: index, end: end), number: number, bytes: bytes, limits: limits, body)
                number += 1
                index = end + 1
            }
            let used = min(index, count)
            usedBytes += used
            return used
        }
    }

    /// Checks one line's bytes: 8 at a time while they are plain ASCII without control
    /// characters (the last 8 overlapping the ones before, so a line's tail needs no byte loop),
    /// byte by byte from the first word that is not (RFC 8216bis §4.1).
    fileprivate static func validate(_ bytes: Bytes, _ line: Span, line number: Int) throws(PlaylistError) {
        var index = line.start
        let base = UnsafeRawPointer(bytes.base.baseAddress!)
        while index + 8 <= line.end, isPlainASCII(base.loadUnaligned(fromByteOffset: index, as: UInt64.self)) {
            index += 8
        }
        if index == line.end { return }
        if line.count >= 8, index + 8 > line.end, isPlainASCII(base.loadUnaligned(fromByteOffset: line.end - 8, as: UInt64.self)) {
            return
        }
        while index < line.end {
            let byte = bytes[index]
            if byte < 0x80 {
                if (byte < 0x20 && byte != 0x09 && byte != 0x0D) || byte == 0x7F {
                    throw PlaylistError(.invalidText, "Control character 0x\(String(byte, radix: 16)) is not allowed in a playlist.",
                                        line: number)
                }
                index += 1
            } else {
                index = try multibyte(bytes, at: index, line: number)
                guard index <= line.end else { throw PlaylistError(.invalidText, "The playlist is not valid UTF-8.", line: number) }
            }
        }
    }

    /// Where the line from `start` ends (its LF), found 8 bytes at a time while every byte before
    /// it is plain ASCII — the common line, split and checked in one pass; nil when a word holds
    /// another byte or fewer than 8 are left (the caller then finds the end and checks byte by byte).
    @inline(__always)
    static func plainLineEnd(_ base: UnsafeRawPointer, from start: Int, count: Int) -> Int? {
        var index = start
        while index + 8 <= count {
            let word = base.loadUnaligned(fromByteOffset: index, as: UInt64.self)
            let notLineFeed = word ^ 0x0A0A_0A0A_0A0A_0A0A
            // The lowest set bit marks the first LF exactly (bits above it may not).
            let lineFeeds = (notLineFeed &- 0x0101_0101_0101_0101) & ~notLineFeed & 0x8080_8080_8080_8080
            if lineFeeds == 0 {
                guard isPlainASCII(word) else { return nil }
                index += 8
                continue
            }
            let before = lineFeeds.trailingZeroBitCount >> 3
            let kept: UInt64 = (1 << UInt64(before * 8)) &- 1   // the bytes before the LF (before ≤ 7)
            guard isPlainASCII(word & kept | 0x2020_2020_2020_2020 & ~kept) else { return nil }
            return index + before
        }
        return nil
    }

    /// True when all 8 bytes are ASCII from space to `~` (no control character, no DEL).
    @inline(__always)
    static func isPlainASCII(_ word: UInt64) -> Bool {
        let high: UInt64 = 0x8080_8080_8080_8080
        let belowSpace = (word &- 0x2020_2020_2020_2020) & ~word & high
        let delete = word ^ 0x7F7F_7F7F_7F7F_7F7F
        let hasDelete = (delete &- 0x0101_0101_0101_0101) & ~delete & high
        return word & high == 0 && belowSpace == 0 && hasDelete == 0
    }

    fileprivate static func finish(_ line: Span, number: Int, bytes: Bytes, limits: PlaylistLimits,
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
