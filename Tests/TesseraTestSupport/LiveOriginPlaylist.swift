import Foundation

/// The media playlist a `LiveOrigin` publishes after a number of parts: what it lists (the
/// window, or every segment of an EVENT playlist), with PROGRAM-DATE-TIME on every segment, the
/// last two segments' parts and the parts being built, a PRELOAD-HINT, RENDITION-REPORTs, Date
/// Ranges, and — for a delta update — EXT-X-SKIP in place of the segments older than the Skip
/// Boundary (with `_HLS_skip=v2`, their Date Ranges too and RECENTLY-REMOVED-DATERANGES).
public struct LiveOriginPlaylist: Sendable {
    /// How the origin publishes.
    public struct Configuration: Sendable {
        /// Parts of one second per segment: EXT-X-TARGETDURATION.
        public var partsPerSegment = 4
        /// Segments listed (nil: an EVENT playlist, every segment kept).
        public var window: Int? = 6
        /// CAN-SKIP-UNTIL, seconds (nil: no delta updates).
        public var canSkipUntil: Int? = 12
        /// CAN-SKIP-DATERANGES=YES (with `canSkipUntil`).
        public var canSkipDateRanges = false
        /// Low-Latency HLS: parts, PART-INF, CAN-BLOCK-RELOAD, PRELOAD-HINT. False: a plain live
        /// playlist of whole segments (what streamlink and ffmpeg follow).
        public var lowLatency = true
        /// A Date Range (ID `d<msn>`, one segment long) on every segment whose media sequence
        /// number is a multiple of this (nil: none).
        public var dateRangeEvery: Int?
        /// Other renditions reported (EXT-X-RENDITION-REPORT, at the same edge).
        public var renditionReports: [String] = []
        /// The media segments' file extension.
        public var segmentExtension = "mp4"
        /// PROGRAM-DATE-TIME of segment 0, seconds since 1970.
        public var epoch: Double = 1_790_000_000

        /// The defaults: four parts a segment, a window of six, deltas.
        public init() {}
    }

    /// How it publishes.
    public let configuration: Configuration

    /// A renderer of `configuration`.
    public init(_ configuration: Configuration) { self.configuration = configuration }

    /// The playlist after `published` parts; `skip` a delta update (`dateRanges` with v2).
    public func text(published: Int, ended: Bool, skip: Bool, skipDateRanges: Bool = false) -> String {
        let configuration = self.configuration
        let perSegment = configuration.partsPerSegment
        let complete = published / perSegment
        let pending = ended || !configuration.lowLatency ? 0 : published % perSegment
        let first = configuration.window.map { max(0, complete - $0) } ?? 0
        var lines = ["#EXTM3U", "#EXT-X-VERSION:\(skipDateRanges ? 10 : 9)", "#EXT-X-TARGETDURATION:\(perSegment)"]
        if configuration.window == nil { lines.append("#EXT-X-PLAYLIST-TYPE:EVENT") }
        var control: [String] = []
        if configuration.lowLatency { control += ["CAN-BLOCK-RELOAD=YES", "PART-HOLD-BACK=3.0"] }
        if let canSkipUntil = configuration.canSkipUntil {
            control.append("CAN-SKIP-UNTIL=\(canSkipUntil).0")
            if configuration.canSkipDateRanges { control.append("CAN-SKIP-DATERANGES=YES") }
        }
        if !control.isEmpty { lines.append("#EXT-X-SERVER-CONTROL:" + control.joined(separator: ",")) }
        if configuration.lowLatency { lines.append("#EXT-X-PART-INF:PART-TARGET=1.0") }
        lines.append("#EXT-X-MEDIA-SEQUENCE:\(first)")
        var listedFrom = first
        if skip, let canSkipUntil = configuration.canSkipUntil {
            let keep = max(1, canSkipUntil / perSegment)
            let skipped = max(0, complete - first - keep)
            if skipped > 0 {
                var tag = "#EXT-X-SKIP:SKIPPED-SEGMENTS=\(skipped)"
                if skipDateRanges {
                    // Ranges that left the window within the Skip Boundary.
                    let removed = (max(0, first - keep)..<first).filter(hasDateRange).map { "d\($0)" }
                    tag += ",RECENTLY-REMOVED-DATERANGES=\"\(removed.joined(separator: "\t"))\""
                }
                lines.append(tag)
                listedFrom = first + skipped
            }
        }
        if !skipDateRanges {
            // Ranges of skipped segments stay in a delta without v2 (they are not segment tags).
            for msn in first..<listedFrom where hasDateRange(msn) { lines.append(dateRange(msn)) }
        }
        for msn in listedFrom..<complete {
            lines.append("#EXT-X-PROGRAM-DATE-TIME:\(Self.date(configuration.epoch + Double(msn * perSegment)))")
            if hasDateRange(msn) { lines.append(dateRange(msn)) }
            if configuration.lowLatency, msn >= complete - 2 {
                for index in 0..<perSegment { lines.append(part(msn, index)) }
            }
            lines += ["#EXTINF:\(perSegment).0,", "s\(msn).\(configuration.segmentExtension)"]
        }
        for index in 0..<pending { lines.append(part(complete, index)) }
        if ended {
            lines.append("#EXT-X-ENDLIST")
        } else if configuration.lowLatency {
            lines.append("#EXT-X-PRELOAD-HINT:TYPE=PART,URI=\"s\(complete).p\(pending).\(configuration.segmentExtension)\"")
            for uri in configuration.renditionReports {
                lines.append("#EXT-X-RENDITION-REPORT:URI=\"\(uri)\",LAST-MSN=\(pending > 0 ? complete : complete - 1),LAST-PART=\((pending > 0 ? pending : perSegment) - 1)")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private func hasDateRange(_ msn: Int) -> Bool {
        configuration.dateRangeEvery.map { msn % $0 == 0 } ?? false
    }

    private func dateRange(_ msn: Int) -> String {
        let start = configuration.epoch + Double(msn * configuration.partsPerSegment)
        return "#EXT-X-DATERANGE:ID=\"d\(msn)\",START-DATE=\"\(Self.date(start))\",DURATION=\(configuration.partsPerSegment).0"
    }

    private func part(_ msn: Int, _ index: Int) -> String {
        "#EXT-X-PART:DURATION=1.0,URI=\"s\(msn).p\(index).\(configuration.segmentExtension)\"\(index == 0 ? ",INDEPENDENT=YES" : "")"
    }

    /// `seconds` since 1970 as an ISO 8601 UTC date with milliseconds.
    static func date(_ seconds: Double) -> String {
        Date(timeIntervalSince1970: seconds).ISO8601Format(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
    }
}
