/// Media playlists (RFC 8216bis §4.4.3-4.4.5).
extension PlaylistWriter {
    /// Writes `playlist` with each URI replaced by `uri(uri, role)` (as `rewritingURIs` would).
    func writeMedia(_ playlist: MediaPlaylist, uri: (String, PlaylistURIRole) -> String, into lines: inout LineBuffer) {
        writeCommon(version: playlist.version, independent: playlist.hasIndependentSegments, start: playlist.start,
                    defines: playlist.defines, into: &lines)
        // EXT-X-TARGETDURATION is what a media playlist must have, and without any media tag or
        // segment the text would read back as a multivariant playlist. A missing or invalid
        // target is therefore written with an empty value, which reads back as missing again.
        lines.append("#EXT-X-TARGETDURATION:" + (playlist.targetDuration.map { "\($0)" } ?? ""))
        if playlist.mediaSequence != 0 { lines.append("#EXT-X-MEDIA-SEQUENCE:\(playlist.mediaSequence)") }
        if playlist.discontinuitySequence != 0 { lines.append("#EXT-X-DISCONTINUITY-SEQUENCE:\(playlist.discontinuitySequence)") }
        if let type = playlist.playlistType { lines.append("#EXT-X-PLAYLIST-TYPE:\(type)") }
        if playlist.isIFramesOnly { lines.append("#EXT-X-I-FRAMES-ONLY") }
        if let part = playlist.partInformation {
            var attributes = AttributeListText()
            attributes.decimal("PART-TARGET", part.partTarget)
            attributes.unknown(part.unknownAttributes)
            lines.appendAttributes("#EXT-X-PART-INF:", attributes.text)
        }
        if let control = playlist.serverControl { lines.appendAttributes("#EXT-X-SERVER-CONTROL:", serverControl(control)) }
        for tag in playlist.unknownTags { lines.append(tag.text) }
        for range in playlist.dateRanges { lines.appendAttributes("#EXT-X-DATERANGE:", dateRange(range.rewritingAssetURIs(uri))) }
        if let skip = playlist.skip {
            var attributes = AttributeListText()
            attributes.integer("SKIPPED-SEGMENTS", skip.skippedSegments)
            attributes.quoted("RECENTLY-REMOVED-DATERANGES", skip.recentlyRemovedDateRanges?.joined(separator: "\t"))
            attributes.unknown(skip.unknownAttributes)
            lines.appendAttributes("#EXT-X-SKIP:", attributes.text)
        }
        var state = SegmentWriterState()
        for segment in playlist.segments { writeSegment(segment, uri: uri, state: &state, into: &lines) }
        for part in playlist.pendingParts { lines.appendAttributes("#EXT-X-PART:", partAttributes(part, uri: uri)) }
        for hint in playlist.preloadHints {
            var attributes = AttributeListText()
            attributes.enumerated("TYPE", hint.type.description)
            attributes.quoted("URI", uri(hint.uri, .preloadHint))
            attributes.integer("BYTERANGE-START", hint.byteRangeStart)
            attributes.integer("BYTERANGE-LENGTH", hint.byteRangeLength)
            attributes.unknown(hint.unknownAttributes)
            lines.appendAttributes("#EXT-X-PRELOAD-HINT:", attributes.text)
        }
        for report in playlist.renditionReports {
            var attributes = AttributeListText()
            attributes.quoted("URI", report.uri.map { uri($0, .renditionReport) })
            attributes.integer("LAST-MSN", report.lastMediaSequence)
            attributes.integer("LAST-PART", report.lastPart)
            attributes.unknown(report.unknownAttributes)
            lines.appendAttributes("#EXT-X-RENDITION-REPORT:", attributes.text)
        }
        if playlist.hasEndList { lines.append("#EXT-X-ENDLIST") }
    }

    /// What the written text has in force so far (URIs as written), and the source values they
    /// were written for: a map or key run is rewritten once, not once per segment.
    struct SegmentWriterState {
        var keys: [SegmentKey] = []
        var map: MediaInitializationSection?
        var bitrate: UInt64?
        var sourceMap: MediaInitializationSection?
        var lastKeys: (source: [SegmentKey], written: [SegmentKey]) = ([], [])

        /// `keys` with their URIs rewritten by `uri`.
        mutating func written(_ keys: [SegmentKey], uri: (String, PlaylistURIRole) -> String) -> [SegmentKey] {
            if keys == lastKeys.source { return lastKeys.written }
            var written = keys
            for index in written.indices {
                if let text = written[index].uri { written[index].uri = uri(text, .key) }
            }
            lastKeys = (keys, written)
            return written
        }
    }

    private func writeSegment(_ segment: MediaSegment, uri: (String, PlaylistURIRole) -> String, state: inout SegmentWriterState,
                              into lines: inout LineBuffer) {
        if let source = segment.map, source != state.sourceMap {
            state.sourceMap = source
            var map = source
            map.uri = uri(source.uri, .map)
            map.keys = state.written(source.keys, uri: uri)
            if map != state.map {
                transition(to: map.keys, state: &state, into: &lines)
                var attributes = AttributeListText()
                attributes.quoted("URI", map.uri)
                attributes.quoted("BYTERANGE", map.byteRange.map(Self.byteRange))
                attributes.unknown(map.unknownAttributes)
                lines.appendAttributes("#EXT-X-MAP:", attributes.text)
                state.map = map
            }
        }
        transition(to: state.written(segment.keys, uri: uri), state: &state, into: &lines)
        if let bitrate = segment.bitrate, bitrate != state.bitrate {
            lines.append("#EXT-X-BITRATE:\(bitrate)")
            state.bitrate = bitrate
        }
        if segment.isDiscontinuity { lines.append("#EXT-X-DISCONTINUITY") }
        if let time = segment.programDateTime { lines.append("#EXT-X-PROGRAM-DATE-TIME:" + time.text) }
        if segment.isGap { lines.append("#EXT-X-GAP") }
        for part in segment.parts { lines.appendAttributes("#EXT-X-PART:", partAttributes(part, uri: uri)) }
        lines.append("#EXTINF:" + segment.durationText + "," + (segment.title ?? ""))
        if let range = segment.byteRange { lines.append("#EXT-X-BYTERANGE:" + Self.byteRange(range)) }
        for tag in segment.unknownTags { lines.append(tag.text) }
        lines.appendURI(uri(segment.uri, .segment))
    }

    /// Writes the KEY tags that turn the keys in force into `keys`.
    private func transition(to keys: [SegmentKey], state: inout SegmentWriterState, into lines: inout LineBuffer) {
        guard keys != state.keys else { return }
        let formatsKept = state.keys.map(\.keyFormat).allSatisfy { format in keys.contains { $0.keyFormat == format } }
        let prefixKept = zip(state.keys, keys).allSatisfy { $0.keyFormat == $1.keyFormat }
        if keys.isEmpty || !formatsKept || !prefixKept {
            lines.append("#EXT-X-KEY:METHOD=NONE")
            state.keys = []
        }
        for key in keys where !state.keys.contains(key) { lines.appendAttributes("#EXT-X-KEY:", keyAttributes(key)) }
        state.keys = keys
    }

    private func partAttributes(_ part: PartialSegment, uri: (String, PlaylistURIRole) -> String) -> String {
        var attributes = AttributeListText()
        attributes.enumerated("DURATION", part.durationText)
        attributes.quoted("URI", uri(part.uri, .part))
        attributes.yes("INDEPENDENT", part.isIndependent)
        attributes.quoted("BYTERANGE", part.byteRange.map(Self.byteRange))
        attributes.yes("GAP", part.isGap)
        attributes.unknown(part.unknownAttributes)
        return attributes.text
    }

    private func serverControl(_ control: ServerControl) -> String {
        var attributes = AttributeListText()
        attributes.decimal("CAN-SKIP-UNTIL", control.canSkipUntil)
        attributes.yes("CAN-SKIP-DATERANGES", control.canSkipDateRanges)
        attributes.decimal("HOLD-BACK", control.holdBack)
        attributes.decimal("PART-HOLD-BACK", control.partHoldBack)
        attributes.yes("CAN-BLOCK-RELOAD", control.canBlockReload)
        attributes.unknown(control.unknownAttributes)
        return attributes.text
    }

    private func dateRange(_ range: DateRange) -> String {
        var attributes = AttributeListText()
        attributes.quoted("ID", range.id)
        attributes.quoted("CLASS", range.dateRangeClass)
        attributes.quoted("START-DATE", range.startDate?.text)
        attributes.quoted("CUE", range.cue?.joined(separator: ","))
        attributes.quoted("END-DATE", range.endDate?.text)
        attributes.decimal("DURATION", range.duration)
        attributes.decimal("PLANNED-DURATION", range.plannedDuration)
        for client in range.clientAttributes {
            switch client.value {
            case .string(let text): attributes.quoted(client.name, text)
            case .hexadecimal(let bytes): attributes.hexadecimal(client.name, bytes)
            case .number(_, let text): attributes.enumerated(client.name, text)
            }
        }
        attributes.hexadecimal("SCTE35-CMD", range.scte35Command)
        attributes.hexadecimal("SCTE35-OUT", range.scte35Out)
        attributes.hexadecimal("SCTE35-IN", range.scte35In)
        attributes.yes("END-ON-NEXT", range.endsOnNext)
        attributes.unknown(range.unknownAttributes)
        return attributes.text
    }
}
