import TesseraSupport
/// Closing a segment at its URI line (RFC 8216bis §4.4.4).
extension PlaylistBuilder {
    mutating func completeSegment(uri span: Span) throws(PlaylistError) {
        // The pending tags are read in place and cleared after (a segment of plain values clears
        // without dropping a reference).
        defer { pending.clear() }
        // The URI goes into the segments' shared bytes straight from the line (a string is made
        // only for a substituted URI, a short one, or a message).
        let substituted = bytes.containsVariableReference(span) ? try variables.substitute(bytes, span, line: line) : nil
        guard let duration = pending.duration else {
            report(.segmentWithoutDuration, .error, "4.4.4.1",
                   "Segment \"\(URLRedaction.redact(uri: substituted ?? bytes.string(span)))\" has no EXTINF before it; it is ignored.")
            return
        }
        if segments.count >= limits.maximumElements { try checkCount(segments.count + 1, "segments") }
        var range: PlaylistByteRange?
        if let pendingRange = pending.range {
            var offset = pendingRange.offset
            if offset == nil, let previous = previousRange, sameURI(span, substituted, asSegmentAt: previous.index) { offset = previous.end }
            if let offset {
                let (end, overflow) = offset.addingReportingOverflow(pendingRange.length)
                if overflow {
                    report(.malformedTagValue, .error, "4.4.4.2", "EXT-X-BYTERANGE runs past 2^64.")
                } else {
                    previousRange = (segments.count, end)
                    range = PlaylistByteRange(length: pendingRange.length, offset: pendingRange.offset, resolvedOffset: offset)
                }
            } else {
                report(.byteRangeWithoutPrevious, .error, "4.4.4.2",
                       "EXT-X-BYTERANGE has no offset and the previous segment is not a range of \"\(URLRedaction.redact(uri: substituted ?? bytes.string(span)))\".")
                previousRange = nil
            }
        } else {
            previousRange = nil
        }
        if pending.isDiscontinuity { discontinuityCount += 1 }
        let skipped = skip?.skippedSegments ?? 0
        let base = (mediaSequence ?? 0).addingReportingOverflow(skipped)
        let sequence = base.partialValue.addingReportingOverflow(UInt64(segments.count))
        guard !base.overflow, !sequence.overflow else {
            throw PlaylistError(.malformedTag, "The media sequence number runs past 2^64.", line: line)
        }
        let segmentBitrate = range == nil ? bitrate : nil
        let extras: SharedValue<SegmentExtras>?
        if !pending.ownsReferences {
            extras = runExtras(bitrate: segmentBitrate)
        } else {
            var own = SegmentExtras(keys: keys, mapBox: map, bitrate: segmentBitrate, title: pending.title,
                                    parts: pending.parts, unknownTags: pending.unknownTags)
            if duration.places == nil { own.durationText = pending.durationText ?? "" }
            extras = own.isShareable ? runExtras(bitrate: segmentBitrate) : SharedValue(own)
        }
        let uri = if var substituted {
            substituted.withUTF8 { segments.keep(uri: $0) }
        } else {
            segments.keep(uri: UnsafeBufferPointer(rebasing: bytes.base[span.start..<span.end]))
        }
        var record = PackedSegment(duration: duration.value, durationPlaces: duration.places ?? SegmentDuration.unpacked,
                                   mediaSequence: sequence.partialValue,
                                   discontinuitySequence: (discontinuitySequence ?? 0) &+ discontinuityCount,
                                   line: UInt32(clamping: line))
        MediaSegments.place(uri, in: &record)
        record.extras = segments.keep(extras: extras)
        segments.keep(date: pending.programDateTime, in: &record)
        record.byteRange = range
        if pending.isDiscontinuity { record.flags |= PackedSegment.discontinuityFlag }
        if pending.isGap { record.flags |= PackedSegment.gapFlag }
        segments.append(parsed: record)
    }

    /// Whether the URI of the line `span` (or its substitution) is the URI of the segment at `index`.
    private func sameURI(_ span: Span, _ substituted: String?, asSegmentAt index: Int) -> Bool {
        segments.withURI(at: index) { previous in
            if var substituted { return substituted.withUTF8 { previous.elementsEqual($0) } }
            return previous.elementsEqual(UnsafeBufferPointer(rebasing: bytes.base[span.start..<span.end]))
        }
    }

    /// The extras of a segment with nothing of its own: none without keys, map or bitrate; the
    /// run's box while no EXT-X-KEY, EXT-X-MAP or EXT-X-BITRATE tag came between (so every tag
    /// keeps its own line); else a new box.
    @inline(__always)
    private mutating func runExtras(bitrate: UInt64?) -> SharedValue<SegmentExtras>? {
        guard !keys.isEmpty || map != nil || bitrate != nil else { return nil }
        return runBox(bitrate: bitrate)
    }

    /// The run's box, or a new one.
    mutating func runBox(bitrate: UInt64?) -> SharedValue<SegmentExtras> {
        if let lastExtras, lastExtras.bitrate == bitrate { return lastExtras.box }
        let box = SharedValue(SegmentExtras(keys: keys, mapBox: map, bitrate: bitrate))
        lastExtras = (box, bitrate)
        return box
    }
}
