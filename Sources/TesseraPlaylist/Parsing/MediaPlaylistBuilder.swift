/// Accumulates media playlist tags in order and applies the segment rules.
struct MediaPlaylistBuilder {
    let limits: PlaylistLimits
    private(set) var sawMultivariantTag = false
    private var version: Int?
    private var targetDuration: Int?
    private var mediaSequence: UInt64 = 0
    private var discontinuitySequence: UInt64 = 0
    private var playlistType: MediaPlaylist.PlaylistType?
    private var hasEndList = false
    private var isIFramesOnly = false
    private var segments: [MediaSegment] = []
    private var keys: [String: SegmentKey] = [:]
    private var keyOrder: [String] = []
    private var map: MediaInitializationSection?
    private var lastRangeEnd: [String: UInt64] = [:]
    // Pending tags for the next segment.
    private var pendingDuration: (value: Double, text: String, title: String?)?
    private var pendingRange: (length: UInt64, offset: UInt64?, line: Int)?
    private var pendingDiscontinuity = false
    private var pendingGap = false

    init(limits: PlaylistLimits) { self.limits = limits }

    mutating func apply(tag: Substring, line: Int) throws(PlaylistError) {
        let colon = tag.firstIndex(of: ":")
        let name = colon.map { tag[..<$0] } ?? tag
        let value = colon.map { tag[tag.index(after: $0)...] } ?? ""
        switch name {
        case "#EXT-X-VERSION": version = try Self.integer(value, name, line)
        case "#EXT-X-TARGETDURATION": targetDuration = try Self.integer(value, name, line)
        case "#EXT-X-MEDIA-SEQUENCE": mediaSequence = try Self.unsigned(value, name, line)
        case "#EXT-X-DISCONTINUITY-SEQUENCE": discontinuitySequence = try Self.unsigned(value, name, line)
        case "#EXT-X-ENDLIST": hasEndList = true
        case "#EXT-X-I-FRAMES-ONLY": isIFramesOnly = true
        case "#EXT-X-DISCONTINUITY": pendingDiscontinuity = true
        case "#EXT-X-GAP": pendingGap = true
        case "#EXT-X-PLAYLIST-TYPE":
            switch value {
            case "VOD": playlistType = .vod
            case "EVENT": playlistType = .event
            default: throw PlaylistError(.malformedTag, "EXT-X-PLAYLIST-TYPE must be VOD or EVENT, not \"\(value)\".", line: line)
            }
        case "#EXTINF": pendingDuration = try Self.extinf(value, line)
        case "#EXT-X-BYTERANGE":
            let (length, offset) = try Self.byteRange(value, "EXT-X-BYTERANGE", line)
            pendingRange = (length, offset, line)
        case "#EXT-X-KEY": try applyKey(value, line)
        case "#EXT-X-MAP": try applyMap(value, line)
        case "#EXT-X-STREAM-INF", "#EXT-X-MEDIA", "#EXT-X-I-FRAME-STREAM-INF", "#EXT-X-SESSION-DATA",
             "#EXT-X-SESSION-KEY", "#EXT-X-CONTENT-STEERING":
            sawMultivariantTag = true
        default:
            break
        }
    }

    mutating func addSegment(uri: Substring, line: Int) throws(PlaylistError) {
        guard let duration = pendingDuration else {
            throw PlaylistError(.missingDuration, "Segment \"\(uri)\" has no EXTINF before it.", line: line)
        }
        guard segments.count < limits.maximumElements else {
            throw PlaylistError(.limitExceeded, "More than \(limits.maximumElements) segments.", line: line)
        }
        let uriText = String(uri)
        var range: PlaylistByteRange?
        if let pending = pendingRange {
            let offset: UInt64
            if let explicit = pending.offset {
                offset = explicit
            } else {
                guard let previous = lastRangeEnd[uriText] else {
                    throw PlaylistError(.malformedTag,
                                        "EXT-X-BYTERANGE has no offset and no earlier range of \"\(uri)\" to continue from.",
                                        line: pending.line)
                }
                offset = previous
            }
            let (end, overflow) = offset.addingReportingOverflow(pending.length)
            guard !overflow else { throw PlaylistError(.malformedTag, "EXT-X-BYTERANGE overflows.", line: pending.line) }
            lastRangeEnd[uriText] = end
            range = PlaylistByteRange(length: pending.length, offset: pending.offset, resolvedOffset: offset)
        }
        let (sequence, overflow) = mediaSequence.addingReportingOverflow(UInt64(segments.count))
        guard !overflow else { throw PlaylistError(.malformedTag, "The media sequence number overflows.", line: line) }
        segments.append(MediaSegment(
            uri: uriText, duration: duration.value, durationText: duration.text, title: duration.title,
            mediaSequence: sequence, byteRange: range, isDiscontinuity: pendingDiscontinuity, isGap: pendingGap,
            keys: keyOrder.compactMap { keys[$0] }, map: map, line: line))
        pendingDuration = nil
        pendingRange = nil
        pendingDiscontinuity = false
        pendingGap = false
    }

    func finish() throws(PlaylistError) -> MediaPlaylist {
        guard let targetDuration else {
            throw PlaylistError(.missingTag, "The media playlist has no EXT-X-TARGETDURATION.")
        }
        return MediaPlaylist(version: version, targetDuration: targetDuration, mediaSequence: mediaSequence,
                             discontinuitySequence: discontinuitySequence, playlistType: playlistType,
                             hasEndList: hasEndList, isIFramesOnly: isIFramesOnly, segments: segments)
    }

    private mutating func applyKey(_ value: Substring, _ line: Int) throws(PlaylistError) {
        let attributes = try AttributeList(value, line: line, tag: "EXT-X-KEY")
        guard let methodText = attributes["METHOD"]?.value else {
            throw PlaylistError(.missingTag, "EXT-X-KEY has no METHOD.", line: line)
        }
        let method = EncryptionMethod(String(methodText))
        let format = attributes["KEYFORMAT"].map { String($0.value) } ?? "identity"
        guard method != .none else {
            // METHOD=NONE carries no KEYFORMAT (§4.4.4.4): what follows is not encrypted at all.
            keys.removeAll()
            keyOrder.removeAll()
            return
        }
        guard let uri = attributes["URI"], uri.isQuoted, !uri.value.isEmpty else {
            throw PlaylistError(.missingTag, "EXT-X-KEY with METHOD=\(method) needs a quoted URI.", line: line)
        }
        var iv: [UInt8]?
        if let ivText = attributes["IV"]?.value {
            guard ivText.hasPrefix("0x") || ivText.hasPrefix("0X"), ivText.count == 34,
                  let bytes = Self.hex(ivText.dropFirst(2)) else {
                throw PlaylistError(.malformedTag, "EXT-X-KEY IV must be 0x followed by 32 hexadecimal digits.", line: line)
            }
            iv = bytes
        }
        if keys[format] == nil { keyOrder.append(format) }
        keys[format] = SegmentKey(method: method, uri: String(uri.value), iv: iv, keyFormat: format, line: line)
    }

    private mutating func applyMap(_ value: Substring, _ line: Int) throws(PlaylistError) {
        let attributes = try AttributeList(value, line: line, tag: "EXT-X-MAP")
        guard let uri = attributes["URI"], uri.isQuoted, !uri.value.isEmpty else {
            throw PlaylistError(.missingTag, "EXT-X-MAP needs a quoted URI.", line: line)
        }
        var range: PlaylistByteRange?
        if let rangeText = attributes["BYTERANGE"] {
            let (length, offset) = try Self.byteRange(rangeText.value, "EXT-X-MAP BYTERANGE", line)
            range = PlaylistByteRange(length: length, offset: offset, resolvedOffset: offset ?? 0)
        }
        map = MediaInitializationSection(uri: String(uri.value), byteRange: range,
                                         keys: keyOrder.compactMap { keys[$0] }, line: line)
    }
}
