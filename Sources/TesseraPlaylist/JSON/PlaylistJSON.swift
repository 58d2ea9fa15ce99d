/// A parsed playlist as JSON: the `tessera inspect --json` contract (docs/CLI.md), every field
/// named, absent attributes null, absent booleans false. Written straight into bytes.
public enum PlaylistJSON {
    /// The UTF-8 JSON text of `parsed`, with a final line feed when `newline` is true.
    /// - Complexity: O(n) in the model's size.
    public static func render(_ parsed: ParsedPlaylist, newline: Bool = false) -> [UInt8] {
        var out: [UInt8] = []
        write(parsed, newline: newline) { out.append(contentsOf: $0) }
        return out
    }

    /// Streams the JSON text of `parsed` to `sink` in chunks of at most about 1 MiB (memory stays
    /// bounded whatever the playlist's size). Each chunk is valid only during the call.
    /// - Complexity: O(n) in the model's size.
    public static func write(_ parsed: ParsedPlaylist, newline: Bool = false, to sink: (UnsafeRawBufferPointer) -> Void) {
        withoutActuallyEscaping(sink) { sink in
            var w = JSONWriter(sink: sink)
            body(parsed, newline: newline, &w)
            w.finish()
        }
    }

    private static func body(_ parsed: ParsedPlaylist, newline: Bool, _ w: inout JSONWriter) {
        object(parsed, &w)
        if newline { w.lineFeed() }
    }

    /// Writes `parsed` as one JSON value (the `inspect --json` object) into `w`, for documents
    /// that nest playlists (`tessera graph --json`).
    package static func object(_ parsed: ParsedPlaylist, _ w: inout JSONWriter) {
        w.beginObject()
        switch parsed.playlist {
        case .media(let p): media(p, &w)
        case .multivariant(let p): multivariant(p, &w)
        }
        w.key("diagnostics"); array(parsed.diagnostics, &w, diagnostic)
        w.endObject()
    }

    private static func media(_ p: MediaPlaylist, _ w: inout JSONWriter) {
        w.key("kind"); w.string("media")
        w.key("version"); w.integer(p.version.map { UInt64($0) })
        w.key("targetDuration"); w.integer(p.targetDuration)
        w.key("mediaSequence"); w.integer(p.mediaSequence)
        w.key("discontinuitySequence"); w.integer(p.discontinuitySequence)
        w.key("playlistType"); w.string(p.playlistType?.description)
        w.key("endList"); w.bool(p.hasEndList)
        w.key("iFramesOnly"); w.bool(p.isIFramesOnly)
        w.key("segments"); segments(p.segments, &w)
        for name in ["variants", "iFrameVariants", "renditions", "sessionData", "sessionKeys"] as [StaticString] {
            w.key(name); w.beginArray(); w.endArray()
        }
        w.key("dateRanges"); array(p.dateRanges, &w, dateRange)
        w.key("serverControl"); optional(p.serverControl, &w, serverControl)
        w.key("partInf"); optional(p.partInformation, &w) { info, w in
            w.beginObject(); w.key("partTarget"); w.number(info.partTarget); w.endObject()
        }
        w.key("preloadHints"); array(p.preloadHints, &w, preloadHint)
        w.key("renditionReports"); array(p.renditionReports, &w, renditionReport)
        w.key("skip"); optional(p.skip, &w, skip)
        w.key("contentSteering"); w.null()
        w.key("defines"); array(p.defines, &w, define)
        w.key("start"); optional(p.start, &w, start)
        w.key("independentSegments"); w.bool(p.hasIndependentSegments)
    }

    private static func multivariant(_ p: MultivariantPlaylist, _ w: inout JSONWriter) {
        w.key("kind"); w.string("multivariant")
        w.key("version"); w.integer(p.version.map { UInt64($0) })
        w.key("targetDuration"); w.null()
        w.key("mediaSequence"); w.integer(0)
        w.key("discontinuitySequence"); w.integer(0)
        w.key("playlistType"); w.null()
        w.key("endList"); w.bool(false)
        w.key("iFramesOnly"); w.bool(false)
        w.key("segments"); w.beginArray(); w.endArray()
        w.key("variants"); array(p.variants, &w, variant)
        w.key("iFrameVariants"); array(p.iFrameVariants, &w, variant)
        w.key("renditions"); array(p.renditions, &w, rendition)
        w.key("sessionData"); array(p.sessionData, &w, sessionData)
        w.key("sessionKeys"); array(p.sessionKeys, &w, key)
        for name in ["dateRanges"] as [StaticString] { w.key(name); w.beginArray(); w.endArray() }
        w.key("serverControl"); w.null()
        w.key("partInf"); w.null()
        w.key("preloadHints"); w.beginArray(); w.endArray()
        w.key("renditionReports"); w.beginArray(); w.endArray()
        w.key("skip"); w.null()
        w.key("contentSteering"); optional(p.contentSteering, &w) { s, w in
            w.beginObject(); w.key("serverUri"); w.string(s.serverURI); w.key("pathwayId"); w.string(s.pathwayId); w.endObject()
        }
        w.key("defines"); array(p.defines, &w, define)
        w.key("start"); optional(p.start, &w, start)
        w.key("independentSegments"); w.bool(p.hasIndependentSegments)
    }

    package static func array<T>(_ items: [T], _ w: inout JSONWriter, _ write: (T, inout JSONWriter) -> Void) {
        w.beginArray()
        for item in items {
            w.item()
            write(item, &w)
        }
        w.endArray()
    }

    package static func optional<T>(_ value: T?, _ w: inout JSONWriter, _ write: (T, inout JSONWriter) -> Void) {
        if let value { write(value, &w) } else { w.null() }
    }

    private static func byteRange(_ range: PlaylistByteRange?, _ w: inout JSONWriter) {
        optional(range, &w) { r, w in
            w.beginObject(); w.key("length"); w.integer(r.length); w.key("offset"); w.integer(r.offset); w.endObject()
        }
    }

    private static func hex(_ bytes: [UInt8]?, _ w: inout JSONWriter) { w.string(bytes.map(HexText.format)) }

    /// Every segment, its URI written from the collection's bytes (no string a segment).
    private static func segments(_ segments: MediaSegments, _ w: inout JSONWriter) {
        w.beginArray()
        for index in segments.indices {
            w.item()
            w.beginObject()
            w.key("uri"); segments.withURI(at: index) { w.string(utf8: $0) }
            segment(segments.segmentWithoutURI(segments.packed[index]), &w)
        }
        w.endArray()
    }

    /// The fields of a segment after its URI.
    private static func segment(_ s: MediaSegment, _ w: inout JSONWriter) {
        w.key("duration"); w.number(s.duration)
        w.key("title"); w.string(s.title)
        w.key("byteRange"); byteRange(s.byteRange, &w)
        w.key("discontinuity"); w.bool(s.isDiscontinuity)
        w.key("programDateTime"); optional(s.programDateTime, &w) { date, w in date.withText { w.string(utf8: $0) } }
        w.key("key"); optional(s.identityKey ?? s.keys.first, &w, key)
        w.key("map"); optional(s.map, &w) { map, w in
            w.beginObject(); w.key("uri"); w.string(map.uri); w.key("byteRange"); byteRange(map.byteRange, &w); w.endObject()
        }
        w.key("gap"); w.bool(s.isGap)
        w.key("bitrate"); w.integer(s.bitrate)
        w.key("parts"); array(s.parts, &w, part)
        w.endObject()
    }

    private static func part(_ p: PartialSegment, _ w: inout JSONWriter) {
        w.beginObject()
        w.key("uri"); w.string(p.uri)
        w.key("duration"); w.number(p.duration)
        w.key("independent"); w.bool(p.isIndependent)
        w.key("byteRange"); byteRange(p.byteRange, &w)
        w.key("gap"); w.bool(p.isGap)
        w.endObject()
    }

    private static func key(_ k: SegmentKey, _ w: inout JSONWriter) {
        w.beginObject()
        w.key("method"); w.string(k.method.description)
        w.key("uri"); w.string(k.uri)
        w.key("iv"); hex(k.iv, &w)
        w.key("keyFormat"); w.string(k.keyFormat)
        w.endObject()
    }

    private static func variant(_ v: Variant, _ w: inout JSONWriter) {
        w.beginObject()
        w.key("uri"); w.string(v.uri)
        w.key("bandwidth"); w.integer(v.bandwidth)
        w.key("averageBandwidth"); w.integer(v.averageBandwidth)
        w.key("codecs"); w.string(v.codecs)
        w.key("resolution"); optional(v.resolution, &w) { r, w in
            w.beginObject(); w.key("width"); w.integer(r.width); w.key("height"); w.integer(r.height); w.endObject()
        }
        w.key("frameRate"); w.number(v.frameRate)
        w.key("audio"); w.string(v.audio)
        w.key("video"); w.string(v.video)
        w.key("subtitles"); w.string(v.subtitles)
        w.key("closedCaptions")
        switch v.closedCaptions {
        case .group(let group): w.string(group)
        case .none?: w.string("NONE")
        case nil: w.null()
        }
        w.key("stableVariantId"); w.string(v.stableVariantId)
        w.key("pathwayId"); w.string(v.pathwayId)
        w.key("score"); w.number(v.score)
        w.key("videoRange"); w.string(v.videoRange?.description)
        w.key("hdcpLevel"); w.string(v.hdcpLevel?.description)
        w.endObject()
    }

    private static func rendition(_ r: Rendition, _ w: inout JSONWriter) {
        w.beginObject()
        w.key("type"); w.string(r.type.description)
        w.key("groupId"); w.string(r.groupId)
        w.key("name"); w.string(r.name)
        w.key("language"); w.string(r.language)
        w.key("uri"); w.string(r.uri)
        w.key("default"); w.bool(r.isDefault)
        w.key("autoselect"); w.bool(r.isAutoselect)
        w.key("forced"); w.bool(r.isForced)
        w.key("characteristics"); w.string(r.characteristics)
        w.key("channels"); w.string(r.channels)
        w.key("stableRenditionId"); w.string(r.stableRenditionId)
        w.endObject()
    }

    private static func sessionData(_ d: SessionData, _ w: inout JSONWriter) {
        w.beginObject()
        w.key("dataId"); w.string(d.dataId)
        w.key("value"); w.string(d.value)
        w.key("uri"); w.string(d.uri)
        w.key("format"); w.string(d.format == .raw ? "RAW" : "JSON")
        w.key("language"); w.string(d.language)
        w.endObject()
    }

    private static func dateRange(_ d: DateRange, _ w: inout JSONWriter) {
        w.beginObject()
        w.key("id"); w.string(d.id)
        w.key("class"); w.string(d.dateRangeClass)
        w.key("startDate"); w.string(d.startDate?.text)
        w.key("endDate"); w.string(d.endDate?.text)
        w.key("duration"); w.number(d.duration)
        w.key("plannedDuration"); w.number(d.plannedDuration)
        w.key("cue"); optional(d.cue, &w) { cue, w in array(cue, &w) { entry, w in w.string(entry) } }
        w.key("endOnNext"); w.bool(d.endsOnNext)
        w.key("scte35Cmd"); hex(d.scte35Command, &w)
        w.key("scte35Out"); hex(d.scte35Out, &w)
        w.key("scte35In"); hex(d.scte35In, &w)
        w.key("clientAttributes")
        w.beginObject()
        for attribute in d.clientAttributes {
            w.dynamicKey(attribute.name)
            switch attribute.value {
            case .string(let text): w.string(text)
            case .hexadecimal(let bytes): hex(bytes, &w)
            case .number(let value, _): w.number(value)
            }
        }
        w.endObject()
        w.endObject()
    }

    private static func serverControl(_ c: ServerControl, _ w: inout JSONWriter) {
        w.beginObject()
        w.key("canSkipUntil"); w.number(c.canSkipUntil)
        w.key("canSkipDateRanges"); w.bool(c.canSkipDateRanges)
        w.key("holdBack"); w.number(c.holdBack)
        w.key("partHoldBack"); w.number(c.partHoldBack)
        w.key("canBlockReload"); w.bool(c.canBlockReload)
        w.endObject()
    }

    private static func preloadHint(_ h: PreloadHint, _ w: inout JSONWriter) {
        w.beginObject()
        w.key("type"); w.string(h.type.description)
        w.key("uri"); w.string(h.uri)
        w.key("byteRangeStart"); w.integer(h.byteRangeStart)
        w.key("byteRangeLength"); w.integer(h.byteRangeLength)
        w.endObject()
    }

    private static func renditionReport(_ r: RenditionReport, _ w: inout JSONWriter) {
        w.beginObject()
        w.key("uri"); w.string(r.uri)
        w.key("lastMsn"); w.integer(r.lastMediaSequence)
        w.key("lastPart"); w.integer(r.lastPart)
        w.endObject()
    }

    private static func skip(_ s: SkipInformation, _ w: inout JSONWriter) {
        w.beginObject()
        w.key("skippedSegments"); w.integer(s.skippedSegments)
        w.key("recentlyRemovedDateRanges"); optional(s.recentlyRemovedDateRanges, &w) { ids, w in
            array(ids, &w) { id, w in w.string(id) }
        }
        w.endObject()
    }

    private static func define(_ d: VariableDefinition, _ w: inout JSONWriter) {
        w.beginObject()
        w.key("name"); w.string(d.name)
        w.key("type")
        switch d.source {
        case .value: w.string("NAME")
        case .imported: w.string("IMPORT")
        case .queryParameter: w.string("QUERYPARAM")
        }
        w.key("value"); w.string(d.resolvedValue)
        w.endObject()
    }

    private static func start(_ s: StartPoint, _ w: inout JSONWriter) {
        w.beginObject()
        w.key("timeOffset"); w.number(s.timeOffset)
        w.key("precise"); w.bool(s.isPrecise)
        w.endObject()
    }

    private static func diagnostic(_ d: Diagnostic, _ w: inout JSONWriter) {
        w.beginObject()
        w.key("severity"); w.string(d.severity.description)
        w.key("code"); w.string(d.id.rawValue)
        w.key("line"); w.integer(d.line.map { UInt64($0) })
        w.key("message"); w.string(d.message)
        switch d.source {
        case .playlist(let url)?: w.key("source"); w.string(url)
        case .index(let index)?: w.key("source"); w.integer(UInt64(index))
        case nil: break
        }
        w.endObject()
    }
}
