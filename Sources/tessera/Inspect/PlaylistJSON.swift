import TesseraPlaylist

/// The `tessera inspect --json` contract (docs/CLI.md): every field named, absent attributes
/// null, absent booleans false.
enum PlaylistJSON {
    static func make(_ parsed: ParsedPlaylist) -> JSONValue {
        switch parsed.playlist {
        case .media(let playlist): return media(playlist, diagnostics: parsed.diagnostics)
        case .multivariant(let playlist): return multivariant(playlist, diagnostics: parsed.diagnostics)
        }
    }

    private static func media(_ p: MediaPlaylist, diagnostics: [Diagnostic]) -> JSONValue {
        .object([
            ("kind", .string("media")), ("version", .integer(p.version.map(UInt64.init))),
            ("targetDuration", .integer(p.targetDuration)), ("mediaSequence", .integer(p.mediaSequence)),
            ("discontinuitySequence", .integer(p.discontinuitySequence)),
            ("playlistType", .string(p.playlistType?.description)), ("endList", .bool(p.hasEndList)),
            ("iFramesOnly", .bool(p.isIFramesOnly)), ("segments", .array(p.segments.map(segment))),
            ("variants", .array([])), ("iFrameVariants", .array([])), ("renditions", .array([])),
            ("sessionData", .array([])), ("sessionKeys", .array([])), ("dateRanges", .array(p.dateRanges.map(dateRange))),
            ("serverControl", .optional(p.serverControl, serverControl)),
            ("partInf", .optional(p.partInformation) { .object([("partTarget", .number($0.partTarget))]) }),
            ("preloadHints", .array(p.preloadHints.map(preloadHint))),
            ("renditionReports", .array(p.renditionReports.map(renditionReport))),
            ("skip", .optional(p.skip, skip)), ("contentSteering", .null), ("defines", .array(p.defines.map(define))),
            ("start", .optional(p.start, start)), ("independentSegments", .bool(p.hasIndependentSegments)),
            ("diagnostics", .array(diagnostics.map(diagnostic))),
        ])
    }

    private static func multivariant(_ p: MultivariantPlaylist, diagnostics: [Diagnostic]) -> JSONValue {
        .object([
            ("kind", .string("multivariant")), ("version", .integer(p.version.map(UInt64.init))),
            ("targetDuration", .null), ("mediaSequence", .integer(0)), ("discontinuitySequence", .integer(0)),
            ("playlistType", .null), ("endList", .bool(false)), ("iFramesOnly", .bool(false)), ("segments", .array([])),
            ("variants", .array(p.variants.map(variant))), ("iFrameVariants", .array(p.iFrameVariants.map(variant))),
            ("renditions", .array(p.renditions.map(rendition))), ("sessionData", .array(p.sessionData.map(sessionData))),
            ("sessionKeys", .array(p.sessionKeys.map(key))), ("dateRanges", .array([])), ("serverControl", .null),
            ("partInf", .null), ("preloadHints", .array([])), ("renditionReports", .array([])), ("skip", .null),
            ("contentSteering", .optional(p.contentSteering) {
                .object([("serverUri", .string($0.serverURI)), ("pathwayId", .string($0.pathwayId))])
            }),
            ("defines", .array(p.defines.map(define))), ("start", .optional(p.start, start)),
            ("independentSegments", .bool(p.hasIndependentSegments)), ("diagnostics", .array(diagnostics.map(diagnostic))),
        ])
    }

    private static func byteRange(_ range: PlaylistByteRange?) -> JSONValue {
        .optional(range) { .object([("length", .integer($0.length)), ("offset", .integer($0.offset))]) }
    }

    private static func segment(_ s: MediaSegment) -> JSONValue {
        let key = s.identityKey ?? s.keys.first
        return .object([
            ("uri", .string(s.uri)), ("duration", .number(s.duration)), ("title", .string(s.title)),
            ("byteRange", byteRange(s.byteRange)), ("discontinuity", .bool(s.isDiscontinuity)),
            ("programDateTime", .string(s.programDateTime?.text)), ("key", .optional(key, Self.key)),
            ("map", .optional(s.map) { .object([("uri", .string($0.uri)), ("byteRange", byteRange($0.byteRange))]) }),
            ("gap", .bool(s.isGap)), ("bitrate", .integer(s.bitrate)), ("parts", .array(s.parts.map(part))),
        ])
    }

    private static func part(_ p: PartialSegment) -> JSONValue {
        .object([("uri", .string(p.uri)), ("duration", .number(p.duration)), ("independent", .bool(p.isIndependent)),
                 ("byteRange", byteRange(p.byteRange)), ("gap", .bool(p.isGap))])
    }

    private static func key(_ k: SegmentKey) -> JSONValue {
        .object([("method", .string(k.method.description)), ("uri", .string(k.uri)),
                 ("iv", .optional(k.iv) { .string(HexText.format($0)) }), ("keyFormat", .string(k.keyFormat))])
    }

    private static func variant(_ v: Variant) -> JSONValue {
        let captions: JSONValue
        switch v.closedCaptions {
        case .group(let group): captions = .string(group)
        case .none?: captions = .string("NONE")
        case nil: captions = .null
        }
        return .object([
            ("uri", .string(v.uri)), ("bandwidth", .integer(v.bandwidth)), ("averageBandwidth", .integer(v.averageBandwidth)),
            ("codecs", .string(v.codecs)),
            ("resolution", .optional(v.resolution) { .object([("width", .integer($0.width)), ("height", .integer($0.height))]) }),
            ("frameRate", .number(v.frameRate)), ("audio", .string(v.audio)), ("video", .string(v.video)),
            ("subtitles", .string(v.subtitles)), ("closedCaptions", captions), ("stableVariantId", .string(v.stableVariantId)),
            ("pathwayId", .string(v.pathwayId)), ("score", .number(v.score)),
            ("videoRange", .string(v.videoRange?.description)), ("hdcpLevel", .string(v.hdcpLevel?.description)),
        ])
    }

    private static func rendition(_ r: Rendition) -> JSONValue {
        .object([
            ("type", .string(r.type.description)), ("groupId", .string(r.groupId)), ("name", .string(r.name)),
            ("language", .string(r.language)), ("uri", .string(r.uri)), ("default", .bool(r.isDefault)),
            ("autoselect", .bool(r.isAutoselect)), ("forced", .bool(r.isForced)),
            ("characteristics", .string(r.characteristics)), ("channels", .string(r.channels)),
            ("stableRenditionId", .string(r.stableRenditionId)),
        ])
    }

    private static func sessionData(_ d: SessionData) -> JSONValue {
        .object([("dataId", .string(d.dataId)), ("value", .string(d.value)), ("uri", .string(d.uri)),
                 ("format", .string(d.format == .raw ? "RAW" : "JSON")), ("language", .string(d.language))])
    }

    private static func dateRange(_ d: DateRange) -> JSONValue {
        .object([
            ("id", .string(d.id)), ("class", .string(d.dateRangeClass)), ("startDate", .string(d.startDate?.text)),
            ("endDate", .string(d.endDate?.text)), ("duration", .number(d.duration)),
            ("plannedDuration", .number(d.plannedDuration)), ("cue", .optional(d.cue) { .array($0.map { .string($0) }) }),
            ("endOnNext", .bool(d.endsOnNext)),
            ("scte35Cmd", .optional(d.scte35Command) { .string(HexText.format($0)) }),
            ("scte35Out", .optional(d.scte35Out) { .string(HexText.format($0)) }),
            ("scte35In", .optional(d.scte35In) { .string(HexText.format($0)) }),
            ("clientAttributes", .object(d.clientAttributes.map { attribute in
                switch attribute.value {
                case .string(let text): (attribute.name, .string(text))
                case .hexadecimal(let bytes): (attribute.name, .string(HexText.format(bytes)))
                case .number(let value, _): (attribute.name, .number(value))
                }
            })),
        ])
    }

    private static func serverControl(_ c: ServerControl) -> JSONValue {
        .object([("canSkipUntil", .number(c.canSkipUntil)), ("canSkipDateRanges", .bool(c.canSkipDateRanges)),
                 ("holdBack", .number(c.holdBack)), ("partHoldBack", .number(c.partHoldBack)),
                 ("canBlockReload", .bool(c.canBlockReload))])
    }

    private static func preloadHint(_ h: PreloadHint) -> JSONValue {
        .object([("type", .string(h.type.description)), ("uri", .string(h.uri)),
                 ("byteRangeStart", .integer(h.byteRangeStart)), ("byteRangeLength", .integer(h.byteRangeLength))])
    }

    private static func renditionReport(_ r: RenditionReport) -> JSONValue {
        .object([("uri", .string(r.uri)), ("lastMsn", .integer(r.lastMediaSequence)), ("lastPart", .integer(r.lastPart))])
    }

    private static func skip(_ s: SkipInformation) -> JSONValue {
        .object([("skippedSegments", .integer(s.skippedSegments)),
                 ("recentlyRemovedDateRanges", .optional(s.recentlyRemovedDateRanges) { .array($0.map { .string($0) }) })])
    }

    private static func define(_ d: VariableDefinition) -> JSONValue {
        let type: String
        switch d.source {
        case .value: type = "NAME"
        case .imported: type = "IMPORT"
        case .queryParameter: type = "QUERYPARAM"
        }
        return .object([("name", .string(d.name)), ("type", .string(type)), ("value", .string(d.resolvedValue))])
    }

    private static func start(_ s: StartPoint) -> JSONValue {
        .object([("timeOffset", .number(s.timeOffset)), ("precise", .bool(s.isPrecise))])
    }

    private static func diagnostic(_ d: Diagnostic) -> JSONValue {
        .object([("severity", .string(d.severity.description)), ("code", .string(d.id.rawValue)),
                 ("line", .integer(d.line.map(UInt64.init))), ("message", .string(d.message))])
    }
}

