/// Validates a WebVTT segment as HLS uses it (W3C WebVTT §4; RFC 8216 §3.5): UTF-8, the
/// `WEBVTT` signature, the `X-TIMESTAMP-MAP` header that ties cue times to the MPEG-2 clock, and
/// each cue's timing line (well-formed timestamps, end after start, starts in order).
public struct WebVTTValidator {
    /// The most findings kept per ID.
    public static let maximumPerID = 20

    private var log = FindingLog(maximumPerID: WebVTTValidator.maximumPerID)

    /// A validator.
    public init() {}

    /// Findings beyond the cap, counted per ID.
    public var suppressed: [String: Int] { log.suppressed }

    /// Validates a whole segment.
    public mutating func validate(_ bytes: [UInt8]) -> [MediaFinding] {
        var body = bytes[...]
        if body.starts(with: [0xEF, 0xBB, 0xBF]) { body = body.dropFirst(3) }
        guard let text = String(validating: body, as: UTF8.self) else {
            log.report("vtt-encoding", .error, at: 0, "The segment is not valid UTF-8.")
            return log.findings
        }
        var offset = UInt64(bytes.count - body.count)
        var lines: [(text: Substring, offset: UInt64)] = []
        // Split on bytes: as Characters, "\r\n" is one grapheme and would not split on "\n".
        for line in text.utf8.split(separator: 0x0A, omittingEmptySubsequences: false) {
            let trimmed = line.last == 0x0D ? line.dropLast() : line
            lines.append((Substring(trimmed), offset))
            offset += UInt64(line.count + 1)
        }
        guard let first = lines.first, first.text.hasPrefix("WEBVTT"),
              first.text.count == 6 || [" ", "\t"].contains(first.text.dropFirst(6).first) else {
            log.report("vtt-header", .error, at: 0, "The segment does not start with the WEBVTT signature.")
            return log.findings
        }
        var index = 1
        var sawMap = false
        while index < lines.count, !lines[index].text.isEmpty {   // the header block
            let line = lines[index]
            if line.text.hasPrefix("X-TIMESTAMP-MAP=") {
                sawMap = true
                if !Self.isTimestampMap(line.text.dropFirst(16)) {
                    log.report("vtt-timestamp-map", .error, at: line.offset,
                               "X-TIMESTAMP-MAP must be MPEGTS:<90 kHz ticks>,LOCAL:<cue time>; found '\(line.text.prefix(80))'.")
                }
            }
            index += 1
        }
        if !sawMap {
            log.report("vtt-no-timestamp-map", .warning, at: 0,
                       "No X-TIMESTAMP-MAP header: cue times cannot be aligned with the audio and video (RFC 8216 §3.5).")
        }
        var previousStart: UInt64?
        for line in lines[index...] where line.text.contains("-->") {
            let parts = line.text.split(separator: " ", omittingEmptySubsequences: true)
            guard parts.count >= 3, parts[1] == "-->", let start = Self.milliseconds(parts[0]), let end = Self.milliseconds(parts[2]) else {
                log.report("vtt-cue-timing", .error, at: line.offset, "The cue timing line '\(line.text.prefix(80))' is malformed.")
                continue
            }
            if end <= start {
                log.report("vtt-cue-timing", .error, at: line.offset, "A cue ends (\(parts[2])) before it starts (\(parts[0])).")
            }
            if let previous = previousStart, start < previous {
                log.report("vtt-cue-order", .warning, at: line.offset, "A cue starts at \(parts[0]), before the previous cue.")
            }
            previousStart = start
        }
        return log.findings
    }

    /// `MPEGTS:<ticks>,LOCAL:<time>` in either order.
    private static func isTimestampMap(_ value: Substring) -> Bool {
        var mpegts = false
        var local = false
        for field in value.split(separator: ",") {
            if field.hasPrefix("MPEGTS:"), UInt64(field.dropFirst(7)) != nil {
                mpegts = true
            } else if field.hasPrefix("LOCAL:"), milliseconds(field.dropFirst(6)) != nil {
                local = true
            } else {
                return false
            }
        }
        return mpegts && local
    }

    /// A WebVTT timestamp (`mm:ss.ttt` or `hh+:mm:ss.ttt`) in milliseconds, or nil.
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
}
