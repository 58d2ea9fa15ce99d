/// The lexical rules of WebVTT that HLS segments use (W3C WebVTT §4): lines split on LF (a CR
/// before it dropped, a BOM skipped), the signature, timestamps (`mm:ss.ttt` or `hh+:mm:ss.ttt`)
/// and `X-TIMESTAMP-MAP` (RFC 8216bis §3.5). Shared by the validator and the cue reader.
enum WebVTTLines {
    /// The lines of `bytes` with their byte offsets, or nil when they are not UTF-8.
    static func split(_ bytes: [UInt8]) -> [(text: Substring, offset: UInt64)]? {
        var body = bytes[...]
        if body.starts(with: [0xEF, 0xBB, 0xBF]) { body = body.dropFirst(3) }
        guard let text = String(validating: body, as: UTF8.self) else { return nil }
        var offset = UInt64(bytes.count - body.count)
        var lines: [(text: Substring, offset: UInt64)] = []
        // Split on bytes: as Characters, "\r\n" is one grapheme and would not split on "\n".
        for line in text.utf8.split(separator: 0x0A, omittingEmptySubsequences: false) {
            let trimmed = line.last == 0x0D ? line.dropLast() : line
            lines.append((Substring(trimmed), offset))
            offset += UInt64(line.count + 1)
        }
        return lines
    }

    /// Whether `line` is the `WEBVTT` signature (alone or followed by a space or tab).
    static func isSignature(_ line: Substring) -> Bool {
        line.hasPrefix("WEBVTT") && (line.count == 6 || [" ", "\t"].contains(line.dropFirst(6).first))
    }

    /// `MPEGTS:<ticks>,LOCAL:<time>` in either order: the ticks and the cue time in milliseconds.
    static func timestampMap(_ value: Substring) -> (mpegts: UInt64, local: UInt64)? {
        var mpegts: UInt64?
        var local: UInt64?
        for field in value.split(separator: ",") {
            if field.hasPrefix("MPEGTS:"), let ticks = UInt64(field.dropFirst(7)) {
                mpegts = ticks
            } else if field.hasPrefix("LOCAL:"), let time = milliseconds(field.dropFirst(6)) {
                local = time
            } else {
                return nil
            }
        }
        guard let mpegts, let local else { return nil }
        return (mpegts, local)
    }

    /// A WebVTT timestamp in milliseconds, or nil.
    static func milliseconds(_ text: Substring) -> UInt64? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2 || parts.count == 3, let last = parts.last else { return nil }
        let seconds = last.split(separator: ".", omittingEmptySubsequences: false)
        guard seconds.count == 2, seconds[0].count == 2, seconds[1].count == 3,
              let whole = UInt64(seconds[0]), whole < 60, let fraction = UInt64(seconds[1]) else { return nil }
        let minutesText = parts[parts.count - 2]
        guard minutesText.count == 2, let minutes = UInt64(minutesText), minutes < 60 else { return nil }
        var hours: UInt64 = 0
        if parts.count == 3 {
            guard parts[0].count >= 2, let value = UInt64(parts[0]) else { return nil }
            hours = value
        }
        let (total, overflow) = hours.multipliedReportingOverflow(by: 3_600_000)
        guard !overflow else { return nil }
        return total + minutes * 60_000 + whole * 1000 + fraction
    }

    /// `hh:mm:ss.ttt` of `milliseconds` (`hh:mm:ss,ttt` with the SubRip `separator`).
    static func timestamp(_ milliseconds: UInt64, separator: String = ".") -> String {
        let hours = milliseconds / 3_600_000, minutes = milliseconds / 60_000 % 60, seconds = milliseconds / 1000 % 60, fraction = milliseconds % 1000
        func pad(_ value: UInt64, _ width: Int) -> String { String(repeating: "0", count: max(0, width - String(value).count)) + String(value) }
        return "\(pad(hours, 2)):\(pad(minutes, 2)):\(pad(seconds, 2))\(separator)\(pad(fraction, 3))"
    }
}
