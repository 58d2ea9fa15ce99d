/// Every tag of RFC 8216bis, recognised by comparing bytes (no String per line).
enum KnownTag: CaseIterable {
    case extm3u, version, independentSegments, start, define
    case targetDuration, mediaSequence, discontinuitySequence, endList, playlistType, iFramesOnly
    case partInf, serverControl
    case extinf, byteRange, discontinuity, key, map, programDateTime, gap, bitrate, part
    case dateRange, skip, preloadHint, renditionReport
    case media, streamInf, iFrameStreamInf, sessionData, sessionKey, contentSteering

    /// The tag name without `#`.
    var name: StaticString {
        switch self {
        case .extm3u: "EXTM3U"
        case .version: "EXT-X-VERSION"
        case .independentSegments: "EXT-X-INDEPENDENT-SEGMENTS"
        case .start: "EXT-X-START"
        case .define: "EXT-X-DEFINE"
        case .targetDuration: "EXT-X-TARGETDURATION"
        case .mediaSequence: "EXT-X-MEDIA-SEQUENCE"
        case .discontinuitySequence: "EXT-X-DISCONTINUITY-SEQUENCE"
        case .endList: "EXT-X-ENDLIST"
        case .playlistType: "EXT-X-PLAYLIST-TYPE"
        case .iFramesOnly: "EXT-X-I-FRAMES-ONLY"
        case .partInf: "EXT-X-PART-INF"
        case .serverControl: "EXT-X-SERVER-CONTROL"
        case .extinf: "EXTINF"
        case .byteRange: "EXT-X-BYTERANGE"
        case .discontinuity: "EXT-X-DISCONTINUITY"
        case .key: "EXT-X-KEY"
        case .map: "EXT-X-MAP"
        case .programDateTime: "EXT-X-PROGRAM-DATE-TIME"
        case .gap: "EXT-X-GAP"
        case .bitrate: "EXT-X-BITRATE"
        case .part: "EXT-X-PART"
        case .dateRange: "EXT-X-DATERANGE"
        case .skip: "EXT-X-SKIP"
        case .preloadHint: "EXT-X-PRELOAD-HINT"
        case .renditionReport: "EXT-X-RENDITION-REPORT"
        case .media: "EXT-X-MEDIA"
        case .streamInf: "EXT-X-STREAM-INF"
        case .iFrameStreamInf: "EXT-X-I-FRAME-STREAM-INF"
        case .sessionData: "EXT-X-SESSION-DATA"
        case .sessionKey: "EXT-X-SESSION-KEY"
        case .contentSteering: "EXT-X-CONTENT-STEERING"
        }
    }

    /// Which kind of playlist the tag implies (RFC 8216bis §4.4.3-4.4.6).
    enum Scope { case either, media, multivariant }

    var scope: Scope {
        switch self {
        case .extm3u, .version, .independentSegments, .start, .define: .either
        case .media, .streamInf, .iFrameStreamInf, .sessionData, .sessionKey, .contentSteering: .multivariant
        default: .media
        }
    }

    /// Tags grouped by name length (index = length), for matching with few comparisons.
    private static let byLength: [[KnownTag]] = {
        var table = [[KnownTag]](repeating: [], count: 33)
        for tag in allCases { table[tag.name.utf8CodeUnitCount].append(tag) }
        return table
    }()

    /// The tag whose name is `span` (the text between `#` and `:` or the end of the line).
    static func match(_ bytes: Bytes, _ span: Span) -> KnownTag? {
        guard span.count < byLength.count else { return nil }
        for tag in byLength[span.count] where bytes.equals(span, tag.name) { return tag }
        return nil
    }
}
