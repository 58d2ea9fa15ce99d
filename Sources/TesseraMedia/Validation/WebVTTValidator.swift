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
        guard let lines = WebVTTLines.split(bytes) else {
            log.report("vtt-encoding", .error, at: 0, "The segment is not valid UTF-8.")
            return log.findings
        }
        guard let first = lines.first, WebVTTLines.isSignature(first.text) else {
            log.report("vtt-header", .error, at: 0, "The segment does not start with the WEBVTT signature.")
            return log.findings
        }
        var index = 1
        var sawMap = false
        while index < lines.count, !lines[index].text.isEmpty {   // the header block
            let line = lines[index]
            if line.text.hasPrefix("X-TIMESTAMP-MAP=") {
                sawMap = true
                if WebVTTLines.timestampMap(line.text.dropFirst(16)) == nil {
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
            guard parts.count >= 3, parts[1] == "-->", let start = WebVTTLines.milliseconds(parts[0]), let end = WebVTTLines.milliseconds(parts[2]) else {
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
}
