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
        /// Every segment whose media sequence number is one short of a multiple of this is
        /// EXT-X-GAP (nil: none).
        public var gapEvery: Int?
        /// AES-128: a new key (`key-<n>.bin`) every this many segments, an explicit IV with the
        /// odd keys and the media sequence number's with the even ones (nil: clear media).
        public var keyEvery: Int?
        /// fMP4: a new EXT-X-MAP (`init-<n>.mp4`) every this many segments (nil: no map).
        public var mapEvery: Int?
        /// EXT-X-PROGRAM-DATE-TIME on every segment. Default true.
        public var programDateTime = true
        /// An EXT-X-DISCONTINUITY on every segment starting at a positive multiple of this many
        /// seconds (renditions of other segment durations break at the same times; nil: none).
        public var discontinuityEvery: Int?

        /// An Apple interstitial Date Range (ID `ad<msn>`, one segment long) on every segment whose
        /// media sequence number is a multiple of this (nil: none), with `interstitialAsset`.
        public var interstitialEvery: Int?
        /// The interstitial's asset attribute as written (`X-ASSET-URI="…"` or `X-ASSET-LIST="…"`).
        public var interstitialAsset = ""

        /// Each part's DURATION as written (a lie when it is not 1.0: the parts then do not add up
        /// to their segment's EXTINF).
        public var partDuration = "1.0"

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
        if configuration.discontinuityEvery != nil {
            lines.append("#EXT-X-DISCONTINUITY-SEQUENCE:\(discontinuitySequence(first) - (startsDiscontinuity(first) ? 1 : 0))")
        }
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
            if let every = configuration.mapEvery, msn == listedFrom || msn % every == 0 {
                lines.append("#EXT-X-MAP:URI=\"init-\(msn / every).mp4\"")
            }
            if let every = configuration.keyEvery, msn == listedFrom || msn % every == 0 {
                let key = msn / every
                lines.append("#EXT-X-KEY:METHOD=AES-128,URI=\"key-\(key).bin\"" + (key % 2 == 1 ? ",IV=0x" + Self.hex(Self.explicitIV(key)) : ""))
            }
            if startsDiscontinuity(msn) { lines.append("#EXT-X-DISCONTINUITY") }
            if configuration.programDateTime {
                lines.append("#EXT-X-PROGRAM-DATE-TIME:\(Self.date(configuration.epoch + Double(msn * perSegment)))")
            }
            if configuration.gapEvery.map({ msn % $0 == $0 - 1 }) ?? false { lines.append("#EXT-X-GAP") }
            if hasDateRange(msn) { lines.append(dateRange(msn)) }
            if let every = configuration.interstitialEvery, msn % every == 0 {
                let start = configuration.epoch + Double(msn * perSegment)
                lines.append("#EXT-X-DATERANGE:ID=\"ad\(msn)\",CLASS=\"com.apple.hls.interstitial\",START-DATE=\"\(Self.date(start))\","
                             + "DURATION=\(perSegment).0,X-RESUME-OFFSET=0,\(configuration.interstitialAsset)")
            }
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

    /// Whether segment `msn` begins a discontinuity domain.
    public func startsDiscontinuity(_ msn: Int) -> Bool {
        guard let every = configuration.discontinuityEvery else { return false }
        let start = msn * configuration.partsPerSegment
        return start > 0 && start % every == 0
    }

    /// The discontinuity sequence number of segment `msn`.
    public func discontinuitySequence(_ msn: Int) -> Int {
        configuration.discontinuityEvery.map { msn * configuration.partsPerSegment / $0 } ?? 0
    }

    private func hasDateRange(_ msn: Int) -> Bool {
        configuration.dateRangeEvery.map { msn % $0 == 0 } ?? false
    }

    private func dateRange(_ msn: Int) -> String {
        let start = configuration.epoch + Double(msn * configuration.partsPerSegment)
        return "#EXT-X-DATERANGE:ID=\"d\(msn)\",START-DATE=\"\(Self.date(start))\",DURATION=\(configuration.partsPerSegment).0"
    }

    private func part(_ msn: Int, _ index: Int) -> String {
        "#EXT-X-PART:DURATION=\(configuration.partDuration),URI=\"s\(msn).p\(index).\(configuration.segmentExtension)\"\(index == 0 ? ",INDEPENDENT=YES" : "")"
    }

    /// Whether segment `msn` is EXT-X-GAP.
    public func isGap(_ msn: Int) -> Bool { configuration.gapEvery.map { msn % $0 == $0 - 1 } ?? false }

    /// Key `index`'s bytes.
    public static func key(_ index: Int) -> [UInt8] { (0..<16).map { UInt8(truncatingIfNeeded: index &* 31 &+ $0 &* 7 &+ 1) } }

    /// The explicit IV of key `index` (odd keys).
    public static func explicitIV(_ index: Int) -> [UInt8] { (0..<16).map { UInt8(truncatingIfNeeded: index &+ $0 &* 13) } }

    /// The key and IV segment `msn` is encrypted with, when the origin encrypts.
    public func encryption(of msn: Int) -> (key: [UInt8], iv: [UInt8])? {
        guard let every = configuration.keyEvery else { return nil }
        let index = msn / every
        var sequence = [UInt8](repeating: 0, count: 16)
        for byte in 0..<8 { sequence[15 - byte] = UInt8(truncatingIfNeeded: UInt64(msn) >> (8 * UInt64(byte))) }
        return (Self.key(index), index % 2 == 1 ? Self.explicitIV(index) : sequence)
    }

    private static func hex(_ bytes: [UInt8]) -> String {
        bytes.map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined()
    }

    /// `seconds` since 1970 as an ISO 8601 UTC date with milliseconds.
    static func date(_ seconds: Double) -> String {
        Date(timeIntervalSince1970: seconds).ISO8601Format(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
    }
}
