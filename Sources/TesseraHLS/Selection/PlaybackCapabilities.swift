import TesseraPlaylist

/// What the player (or the pipeline that will use the media) can play. Every field left nil
/// accepts everything; a declared field makes only the variants that need more ineligible, each
/// with its reason.
public struct PlaybackCapabilities: Hashable, Sendable {
    /// Formats that can be decoded: an RFC 6381 format ("mp4a.40.2") or its sample entry alone
    /// ("avc1", "hvc1", "ec-3"), matched case-insensitively; a variant is eligible when every
    /// format of its CODECS is covered. Nil: any.
    public var codecs: [String]?
    /// VIDEO-RANGE values that can be shown (absent means SDR). Nil: any.
    public var videoRanges: Set<Variant.VideoRange>?
    /// The strongest HDCP-LEVEL the output can enforce (NONE < TYPE-0 < TYPE-1). Nil: any.
    public var hdcp: Variant.HDCPLevel?
    /// The highest FRAME-RATE. Nil: any.
    public var maximumFrameRate: Double?
    /// REQ-VIDEO-LAYOUT specifiers that can be presented ("CH-MONO", "CH-STEREO", "PROJ-RECT", …);
    /// a variant is eligible when one of its entries uses only these. Nil: any.
    public var videoLayouts: Set<String>?
    /// Content protection per KEYFORMAT: the ALLOWED-CPC labels the player enforces for it. A
    /// variant whose ALLOWED-CPC names a KEYFORMAT given here needs one of its labels. Nil: any.
    public var contentProtection: [String: Set<String>]?

    /// Everything accepted.
    public init(codecs: [String]? = nil, videoRanges: Set<Variant.VideoRange>? = nil, hdcp: Variant.HDCPLevel? = nil,
                maximumFrameRate: Double? = nil, videoLayouts: Set<String>? = nil, contentProtection: [String: Set<String>]? = nil) {
        self.codecs = codecs
        self.videoRanges = videoRanges
        self.hdcp = hdcp
        self.maximumFrameRate = maximumFrameRate
        self.videoLayouts = videoLayouts
        self.contentProtection = contentProtection
    }

    /// Why `variant` cannot be played, or nil when it can.
    public func refusal(of variant: Variant) -> String? {
        if let codecs, let written = variant.codecs {
            let supported = codecs.map { $0.lowercased() }
            for format in CodecList(written).formats {
                let lowered = format.lowercased()
                let entry = String(lowered.prefix { $0 != "." })
                guard supported.contains(where: { $0 == lowered || $0 == entry }) else {
                    return "CODECS format \(format) is not among the supported codecs"
                }
            }
        }
        if let videoRanges, !videoRanges.contains(variant.videoRange ?? .sdr) {
            return "VIDEO-RANGE \(variant.videoRange ?? .sdr) is not supported"
        }
        if let hdcp, Self.rank(variant.hdcpLevel ?? .none) > Self.rank(hdcp) {
            return "HDCP-LEVEL \(variant.hdcpLevel ?? .none) is above the supported \(hdcp)"
        }
        if let maximumFrameRate, let rate = variant.frameRate, rate > maximumFrameRate + 0.0005 {
            return "FRAME-RATE \(rate) is above \(maximumFrameRate)"
        }
        if let videoLayouts, let layout = variant.requiredVideoLayout {
            let entries = layout.split(separator: ",").map { Set($0.split(separator: "/").map(String.init)) }
            guard entries.contains(where: { $0.isSubset(of: videoLayouts) }) else {
                return "REQ-VIDEO-LAYOUT \"\(layout)\" needs a layout that is not supported"
            }
        }
        if let contentProtection, let allowed = variant.allowedCPC {
            for entry in allowed.split(separator: ",") {
                let parts = entry.split(separator: ":", maxSplits: 1)
                guard parts.count == 2, let enforced = contentProtection[String(parts[0])] else { continue }
                let labels = Set(parts[1].split(separator: "/").map(String.init))
                if labels.isDisjoint(with: enforced) {
                    return "ALLOWED-CPC for \(parts[0]) needs \(labels.sorted().joined(separator: " or ")), which is not enforced"
                }
            }
        }
        return nil
    }

    private static func rank(_ level: Variant.HDCPLevel) -> Int {
        switch level {
        case .none: 0
        case .type0: 1
        case .type1: 2
        }
    }
}
