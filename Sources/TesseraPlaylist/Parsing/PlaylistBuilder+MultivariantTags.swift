/// Multivariant playlist tags (RFC 8216bis §4.4.6).
extension PlaylistBuilder {
    mutating func applyMultivariantTag(_ tag: KnownTag, _ value: Span) throws(PlaylistError) {
        switch tag {
        case .media: try applyMedia(value)
        case .streamInf: try applyStreamInf(value)
        case .iFrameStreamInf: try applyIFrameStreamInf(value)
        case .sessionData: try applySessionData(value)
        case .sessionKey:
            guard let key = try readKey(value, tag: "EXT-X-SESSION-KEY", section: "4.4.6.5") else { return }
            sessionKeys.append(key)
            try checkCount(sessionKeys.count, "session keys")
        case .contentSteering: try applyContentSteering(value)
        default: preconditionFailure("not a multivariant tag: \(tag)")
        }
    }

    private mutating func applyMedia(_ value: Span) throws(PlaylistError) {
        guard var attributes = try attributes(value, tag: "EXT-X-MEDIA") else { return }
        guard let typeSpan = enumerated(&attributes, "TYPE") else { return missing(attributes, "TYPE", section: "4.4.6.1") }
        let type: Rendition.MediaType
        if bytes.equals(typeSpan, "AUDIO") { type = .audio }
        else if bytes.equals(typeSpan, "VIDEO") { type = .video }
        else if bytes.equals(typeSpan, "SUBTITLES") { type = .subtitles }
        else if bytes.equals(typeSpan, "CLOSED-CAPTIONS") { type = .closedCaptions }
        else { return unknownValue(attributes, "TYPE", typeSpan, section: "4.4.6.1") }
        guard let group = try quoted(&attributes, "GROUP-ID") else { return missing(attributes, "GROUP-ID", section: "4.4.6.1") }
        guard let name = try quoted(&attributes, "NAME") else { return missing(attributes, "NAME", section: "4.4.6.1") }
        let autoselectNo = attributes.raw.contains { bytes.equals($0.name, "AUTOSELECT") && bytes.equals($0.value, "NO") }
        let defaultYes = attributes.raw.contains { bytes.equals($0.name, "DEFAULT") && bytes.equals($0.value, "YES") }
        if autoselectNo, defaultYes {
            report(.autoselectWithDefault, .error, "4.4.6.1", "EXT-X-MEDIA \"\(name)\": AUTOSELECT must be YES when DEFAULT=YES.")
        }
        renditions.append(Rendition(
            type: type, uri: try quoted(&attributes, "URI"), groupId: group, language: try quoted(&attributes, "LANGUAGE"),
            associatedLanguage: try quoted(&attributes, "ASSOC-LANGUAGE"), name: name,
            stableRenditionId: try quoted(&attributes, "STABLE-RENDITION-ID"),
            isDefault: flag(&attributes, "DEFAULT"), isAutoselect: flag(&attributes, "AUTOSELECT"),
            isForced: flag(&attributes, "FORCED"), instreamId: try quoted(&attributes, "INSTREAM-ID"),
            bitDepth: integer(&attributes, "BIT-DEPTH"), sampleRate: integer(&attributes, "SAMPLE-RATE"),
            characteristics: try quoted(&attributes, "CHARACTERISTICS"), channels: try quoted(&attributes, "CHANNELS"),
            unknownAttributes: unknown(attributes), line: SourceLine(line)))
        try checkCount(renditions.count, "renditions")
    }

    /// The attributes EXT-X-STREAM-INF and EXT-X-I-FRAME-STREAM-INF share.
    private struct VariantCore {
        var bandwidth: UInt64
        var averageBandwidth: UInt64?
        var score: Double?
        var codecs, supplementalCodecs, allowedCPC, requiredVideoLayout, stableVariantId, video, pathwayId: String?
        var resolution: Resolution?
        var hdcpLevel: Variant.HDCPLevel?
        var videoRange: Variant.VideoRange?
    }

    private mutating func variantCore(_ attributes: inout Attributes, section: String) throws(PlaylistError) -> VariantCore? {
        guard let bandwidth = integer(&attributes, "BANDWIDTH") else {
            missing(attributes, "BANDWIDTH", section: section)
            return nil
        }
        var core = VariantCore(bandwidth: bandwidth)
        core.averageBandwidth = integer(&attributes, "AVERAGE-BANDWIDTH")
        core.score = float(&attributes, "SCORE")?.0
        core.codecs = try quoted(&attributes, "CODECS")
        core.supplementalCodecs = try quoted(&attributes, "SUPPLEMENTAL-CODECS")
        core.resolution = resolution(&attributes, "RESOLUTION")
        core.allowedCPC = try quoted(&attributes, "ALLOWED-CPC")
        core.requiredVideoLayout = try quoted(&attributes, "REQ-VIDEO-LAYOUT")
        core.stableVariantId = try quoted(&attributes, "STABLE-VARIANT-ID")
        core.video = try quoted(&attributes, "VIDEO")
        core.pathwayId = try quoted(&attributes, "PATHWAY-ID")
        if let span = enumerated(&attributes, "HDCP-LEVEL") {
            if bytes.equals(span, "TYPE-0") { core.hdcpLevel = .type0 }
            else if bytes.equals(span, "TYPE-1") { core.hdcpLevel = .type1 }
            else if bytes.equals(span, "NONE") { core.hdcpLevel = Variant.HDCPLevel.none }
            else { unknownValue(attributes, "HDCP-LEVEL", span, section: "4.4.6.2"); return nil }
        }
        if let span = enumerated(&attributes, "VIDEO-RANGE") {
            if bytes.equals(span, "SDR") { core.videoRange = .sdr }
            else if bytes.equals(span, "HLG") { core.videoRange = .hlg }
            else if bytes.equals(span, "PQ") { core.videoRange = .pq }
            else { unknownValue(attributes, "VIDEO-RANGE", span, section: "4.4.6.2"); return nil }
        }
        return core
    }

    private mutating func applyStreamInf(_ value: Span) throws(PlaylistError) {
        if let previous = pendingVariant {
            diagnostics.append(Diagnostic(.variantWithoutURI, .error, line: previous.line, section: "4.4.6.2",
                                          "EXT-X-STREAM-INF is not followed by a URI line; it is ignored."))
            pendingVariant = nil
        }
        guard var attributes = try attributes(value, tag: "EXT-X-STREAM-INF"),
              let core = try variantCore(&attributes, section: "4.4.6.2") else { return }
        let frameRate = float(&attributes, "FRAME-RATE")?.0
        let audio = try quoted(&attributes, "AUDIO")
        let subtitles = try quoted(&attributes, "SUBTITLES")
        var captions: Variant.ClosedCaptions?
        if let raw = attributes.raw.first(where: { bytes.equals($0.name, "CLOSED-CAPTIONS") }) {
            if raw.isQuoted {
                captions = .group(try quoted(&attributes, "CLOSED-CAPTIONS") ?? "")
            } else if let span = enumerated(&attributes, "CLOSED-CAPTIONS"), bytes.equals(span, "NONE") {
                captions = Variant.ClosedCaptions.none
            } else {
                report(.malformedAttribute, .error, "4.4.6.2", "EXT-X-STREAM-INF CLOSED-CAPTIONS must be a quoted group or NONE.")
            }
        }
        let unknownAttributes = unknown(attributes)
        let line = SourceLine(self.line)
        pendingVariant = PendingVariant(make: { uri in
            Variant(uri: uri, bandwidth: core.bandwidth, averageBandwidth: core.averageBandwidth, score: core.score,
                    codecs: core.codecs, supplementalCodecs: core.supplementalCodecs, resolution: core.resolution,
                    frameRate: frameRate, hdcpLevel: core.hdcpLevel, allowedCPC: core.allowedCPC, videoRange: core.videoRange,
                    requiredVideoLayout: core.requiredVideoLayout, stableVariantId: core.stableVariantId, audio: audio,
                    video: core.video, subtitles: subtitles, closedCaptions: captions, pathwayId: core.pathwayId,
                    unknownAttributes: unknownAttributes, line: line)
        }, line: self.line)
    }

    mutating func completeVariant(uri span: Span) throws(PlaylistError) {
        guard let pendingVariant else { return }
        self.pendingVariant = nil
        variants.append(pendingVariant.make(try text(span)))
        try checkCount(variants.count, "variants")
    }

    private mutating func applyIFrameStreamInf(_ value: Span) throws(PlaylistError) {
        guard var attributes = try attributes(value, tag: "EXT-X-I-FRAME-STREAM-INF"),
              let core = try variantCore(&attributes, section: "4.4.6.3") else { return }
        for raw in attributes.raw where ["FRAME-RATE", "AUDIO", "SUBTITLES", "CLOSED-CAPTIONS"].contains(bytes.string(raw.name)) {
            report(.iFrameVariantAttribute, .error, "4.4.6.3",
                   "EXT-X-I-FRAME-STREAM-INF must not have \(bytes.string(raw.name)); it is kept as an unknown attribute.")
        }
        guard let uri = try quoted(&attributes, "URI") else { return missing(attributes, "URI", section: "4.4.6.3") }
        iFrameVariants.append(Variant(
            uri: uri, bandwidth: core.bandwidth, averageBandwidth: core.averageBandwidth, score: core.score, codecs: core.codecs,
            supplementalCodecs: core.supplementalCodecs, resolution: core.resolution, frameRate: nil, hdcpLevel: core.hdcpLevel,
            allowedCPC: core.allowedCPC, videoRange: core.videoRange, requiredVideoLayout: core.requiredVideoLayout,
            stableVariantId: core.stableVariantId, audio: nil, video: core.video, subtitles: nil, closedCaptions: nil,
            pathwayId: core.pathwayId, unknownAttributes: unknown(attributes), line: SourceLine(line)))
        try checkCount(iFrameVariants.count, "I-frame variants")
    }

    private mutating func applySessionData(_ value: Span) throws(PlaylistError) {
        guard var attributes = try attributes(value, tag: "EXT-X-SESSION-DATA") else { return }
        guard let dataId = try quoted(&attributes, "DATA-ID") else { return missing(attributes, "DATA-ID", section: "4.4.6.4") }
        var format = SessionData.Format.json
        if let span = enumerated(&attributes, "FORMAT") {
            if bytes.equals(span, "RAW") { format = .raw }
            else if !bytes.equals(span, "JSON") { return unknownValue(attributes, "FORMAT", span, section: "4.4.6.4") }
        }
        sessionData.append(SessionData(dataId: dataId, value: try quoted(&attributes, "VALUE"), uri: try quoted(&attributes, "URI"),
                                       format: format, language: try quoted(&attributes, "LANGUAGE"),
                                       unknownAttributes: unknown(attributes), line: SourceLine(line)))
        try checkCount(sessionData.count, "session data tags")
    }

    private mutating func applyContentSteering(_ value: Span) throws(PlaylistError) {
        guard contentSteering == nil else { return repeated("EXT-X-CONTENT-STEERING", "4.4.6.6") }
        guard var attributes = try attributes(value, tag: "EXT-X-CONTENT-STEERING") else { return }
        guard let server = try quoted(&attributes, "SERVER-URI") else { return missing(attributes, "SERVER-URI", section: "4.4.6.6") }
        contentSteering = ContentSteering(serverURI: server, pathwayId: try quoted(&attributes, "PATHWAY-ID"),
                                          unknownAttributes: unknown(attributes), line: SourceLine(line))
    }
}
