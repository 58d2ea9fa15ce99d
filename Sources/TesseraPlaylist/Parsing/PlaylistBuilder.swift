/// The state of one parse: reads lines in order, dispatches tags, accumulates the model and its
/// diagnostics. Lives only inside `PlaylistParser.parse`; its byte pointer never escapes. A struct,
/// so exclusivity is checked statically (a class paid for dynamic checks on every field access).
struct PlaylistBuilder {
    var bytes: Bytes
    let limits: PlaylistLimits
    let context: ParseContext
    var variables: VariableTable
    var diagnostics: [Diagnostic] = []
    var scratch: [AttributeScanner.RawAttribute] = []
    /// The one-based number of the line being read.
    var line = 0

    // Shared by both kinds.
    var version: Int?
    var hasIndependentSegments = false
    var start: StartPoint?
    var firstMediaTagLine: Int?
    var firstMultivariantTagLine: Int?

    // Media playlist state.
    var targetDuration: UInt64?
    var mediaSequence: UInt64?
    var discontinuitySequence: UInt64?
    var playlistType: MediaPlaylist.PlaylistType?
    var hasEndList = false
    var isIFramesOnly = false
    var partInformation: PartInformation?
    var serverControl: ServerControl?
    var skip: SkipInformation?
    var segments = MediaSegments()
    var dateRanges: [DateRange] = []
    var preloadHints: [PreloadHint] = []
    var renditionReports: [RenditionReport] = []
    var unknownTags: [UnknownTag] = []
    var keys: [SegmentKey] = [] { didSet { lastExtras = nil } }
    var map: SharedValue<MediaInitializationSection>? { didSet { lastExtras = nil } }
    var bitrate: UInt64? { didSet { lastExtras = nil } }
    /// The extras box of the current run of segments (the keys, map and bitrate in force, and the
    /// bitrate it was made with, since byte-range segments have none); a new tag starts a new run.
    var lastExtras: (box: SharedValue<SegmentExtras>, bitrate: UInt64?)?
    var discontinuityCount: UInt64 = 0
    /// The previous segment's byte range (its index in `segments` and the range's end), for
    /// ranges without an offset.
    var previousRange: (index: Int, end: UInt64)?
    var pending = PendingSegment()
    /// Whether `consumeCommonSegments` is tried (it stops trying after many misses in a row).
    var commonSegmentsEnabled = true
    /// Lines where it was tried and read nothing, since it last read a segment.
    var commonSegmentMisses = 0

    // Multivariant playlist state.
    var variants: [Variant] = []
    var iFrameVariants: [Variant] = []
    var renditions: [Rendition] = []
    var sessionData: [SessionData] = []
    var sessionKeys: [SegmentKey] = []
    var contentSteering: ContentSteering?
    var pendingVariant: PendingVariant?

    init(bytes: Bytes, limits: PlaylistLimits, context: ParseContext) {
        self.bytes = bytes
        self.limits = limits
        self.context = context
        variables = VariableTable(maximumExpandedBytes: limits.maximumExpandedBytes)
    }

    /// Reads one line (terminator excluded).
    mutating func consume(_ span: Span, number: Int) throws(PlaylistError) {
        line = number
        guard !span.isEmpty else { return }
        if bytes[span.start] == 0x23 {   // '#'
            if bytes.hasPrefix(span, "#EXTINF:") {   // most lines of a media playlist: no tag lookup
                if firstMediaTagLine == nil { firstMediaTagLine = line }
                return try applySegmentTag(.extinf, Span(start: span.start + 8, end: span.end))
            }
            guard bytes.hasPrefix(span, "#EXT") else { return }   // a comment
            try consumeTag(span)
        } else {
            try consumeURI(span)
        }
    }

    private mutating func consumeTag(_ span: Span) throws(PlaylistError) {
        let colon = bytes.firstIndex(of: 0x3A, in: span)
        let nameSpan = Span(start: span.start + 1, end: colon ?? span.end)
        let value = Span(start: colon.map { $0 + 1 } ?? span.end, end: span.end)
        guard let tag = KnownTag.match(bytes, nameSpan) else {
            try recordUnknownTag(span)
            return
        }
        switch tag.scope {
        case .media: if firstMediaTagLine == nil { firstMediaTagLine = line }
        case .multivariant: if firstMultivariantTagLine == nil { firstMultivariantTagLine = line }
        case .either: break
        }
        switch tag {
        case .extm3u: report(.repeatedTag, .error, "4.4.1.1", "#EXTM3U appears again; it belongs on the first line only.")
        case .version, .independentSegments, .start, .define: try applyCommonTag(tag, value)
        case .targetDuration, .mediaSequence, .discontinuitySequence, .endList, .playlistType, .iFramesOnly,
             .partInf, .serverControl:
            try applyMediaPlaylistTag(tag, value)
        case .extinf, .byteRange, .discontinuity, .key, .map, .programDateTime, .gap, .bitrate, .part:
            try applySegmentTag(tag, value)
        case .dateRange, .skip, .preloadHint, .renditionReport:
            try applyMetadataTag(tag, value)
        case .media, .streamInf, .iFrameStreamInf, .sessionData, .sessionKey, .contentSteering:
            try applyMultivariantTag(tag, value)
        }
    }

    private mutating func recordUnknownTag(_ span: Span) throws(PlaylistError) {
        let tag = UnknownTag(text: bytes.string(span), line: SourceLine(line))
        // Among segments, an unknown tag travels with the segment it precedes; before the first
        // segment's tags it belongs to the playlist.
        if pending.hasSegmentTags || !segments.isEmpty {
            pending.unknownTags.append(tag)
        } else {
            unknownTags.append(tag)
        }
        try checkCount(unknownTags.count + pending.unknownTags.count, "unknown tags")
    }

    private mutating func consumeURI(_ span: Span) throws(PlaylistError) {
        if pendingVariant != nil {
            try completeVariant(uri: span)
        } else if firstMultivariantTagLine != nil, firstMediaTagLine == nil {
            report(.uriWithoutStreamInf, .error, "4.4.6.2", "A URI line in a multivariant playlist has no EXT-X-STREAM-INF before it; it is ignored.")
        } else {
            try completeSegment(uri: span)
        }
    }

    /// Records a diagnostic at the current line.
    mutating func report(_ id: DiagnosticID, _ severity: Diagnostic.Severity, _ section: String, _ message: String) {
        diagnostics.append(Diagnostic(id, severity, line: line, section: section, message))
    }

    /// Throws when a repeated element passes its bound.
    mutating func checkCount(_ count: Int, _ what: String) throws(PlaylistError) {
        guard count <= limits.maximumElements else {
            throw PlaylistError(.limitExceeded, "More than \(limits.maximumElements) \(what).", line: line)
        }
    }
}
