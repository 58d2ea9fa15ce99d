/// The segment nearly every media playlist is made of, read in one step (RFC 8216bis §4.4.4): an
/// optional EXT-X-PROGRAM-DATE-TIME line, an EXTINF line without a title, an optional
/// EXT-X-BYTERANGE line and a URI line, each line plain ASCII. The general path reads a line at a time through the tag table and the
/// pending segment; this one splits the segment's lines, checks that the segment is the common
/// kind and only then stores it — the same record, diagnostics (none) and state as the general
/// path leaves. Anything else stops it before that segment, and the general path reads on.
extension PlaylistBuilder {
    /// Reads the common segments in a row from `index`, the start of line `number` of `count`
    /// bytes at `raw`; returns the index after the last line it read and how many lines that was
    /// (none when the line at `index` does not begin a common segment).
    mutating func consumeCommonSegments(_ raw: UnsafeRawPointer, from index: Int, count: Int, number: Int) -> (end: Int, lines: Int) {
        guard commonSegmentsEnabled, pendingVariant == nil, !pending.hasSegmentTags, !pending.ownsReferences else { return (index, 0) }
        let skipped = skip?.skippedSegments ?? 0
        let (base, baseOverflow) = (mediaSequence ?? 0).addingReportingOverflow(skipped)
        guard !baseOverflow else { return (index, 0) }
        var at = index
        var lines = 0
        var reader = CommonSegmentReader(bytes: bytes, count: count, maximumLineBytes: limits.maximumLineBytes)
        let maximumElements = limits.maximumElements
        let discontinuities = (discontinuitySequence ?? 0) &+ discontinuityCount
        var run: (ranged: Bool, index: UInt32)?
        while segments.count < maximumElements,
              case let (sequence, overflow) = base.addingReportingOverflow(UInt64(segments.count)), !overflow,
              let segment = reader.segment(from: at, number: number + lines) {
            let uri = UnsafeBufferPointer(start: bytes.base.baseAddress! + segment.uri.start, count: segment.uri.count)
            var range: PlaylistByteRange?
            if let length = segment.rangeLength {
                // A range without an offset continues the previous segment's range of the same
                // URI; with none to continue, or past 2^64, the general path reports it.
                guard let offset = segment.rangeOffset ?? previousRange.flatMap({ previous in
                          segments.withURI(at: previous.index) { $0.elementsEqual(uri) } ? previous.end : nil }),
                      case let (end, overflow) = offset.addingReportingOverflow(length), !overflow else { break }
                range = PlaylistByteRange(length: length, offset: segment.rangeOffset, resolvedOffset: offset)
                previousRange = (segments.count, end)
            } else {
                previousRange = nil
            }
            if firstMediaTagLine == nil { firstMediaTagLine = segment.firstLine }
            var record = PackedSegment(duration: segment.duration, durationPlaces: segment.places, mediaSequence: sequence,
                                       discontinuitySequence: discontinuities, line: UInt32(clamping: segment.uriLine))
            MediaSegments.place(segments.keep(uri: uri), in: &record)
            // A byte-range segment has no bitrate (§4.4.4.8). No tag comes between the segments of
            // a run, so the run's box is the last segment's while the kind of segment stays.
            let ranged = range != nil
            if let run, run.ranged == ranged {
                record.extras = run.index
            } else {
                let segmentBitrate = ranged ? nil : bitrate
                record.extras = !keys.isEmpty || map != nil || segmentBitrate != nil ? segments.keep(extras: runBox(bitrate: segmentBitrate)) : 0
                run = (ranged, record.extras)
            }
            record.byteRange = range
            record.dateBits = segment.dateBits
            record.dateForm = segment.dateForm
            if lines == 0 { reserveLike(segmentBytes: segment.uri.end + 1 - at, remainingBytes: count - at) }
            segments.append(parsed: record)
            lines = segment.uriLine - number + 1
            at = segment.uri.end + 1
        }
        if lines > 0 { line = number + lines - 1 }
        if lines == 0 {
            // A playlist whose segments carry other tags (byte ranges, keys) would split and drop
            // a line or two at every segment: after enough of those, the general path reads alone.
            commonSegmentMisses += 1
            if commonSegmentMisses >= 64 { commonSegmentsEnabled = false }
        } else {
            commonSegmentMisses = 0
        }
        return (at, lines)
    }

    /// Makes room for as many segments as the bytes left hold, were they all as long as this
    /// one (a playlist's segments are written alike): the segments are stored without regrowing
    /// and without a pass to count them first.
    private mutating func reserveLike(segmentBytes: Int, remainingBytes: Int) {
        let estimate = min(remainingBytes / max(segmentBytes, 1) + 1, limits.maximumElements - segments.count)
        let capacity = segments.packed.capacity
        guard capacity - segments.count < estimate else { return }
        // A document read in pieces asks piece by piece: the room grows at least twofold, so
        // the segments are moved a bounded number of times.
        segments.reserveCapacity(max(segments.count + estimate, capacity * 2))
    }
}
