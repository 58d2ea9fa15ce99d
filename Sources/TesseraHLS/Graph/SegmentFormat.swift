/// The container a media playlist's segments are in, as its first segment's URI and map say
/// (the graph reads playlists, not media).
public enum SegmentFormat: Hashable, Sendable, CustomStringConvertible {
    /// MPEG-2 transport stream (`.ts`, `.tsv`, `.tsa`, `.m2ts`).
    case transportStream
    /// Fragmented MP4 (an EXT-X-MAP, or `.mp4`, `.m4s`, `.m4v`, `.m4a`, `.cmfv`, `.cmfa`, `.cmft`).
    case fragmentedMP4
    /// Packed audio (`.aac`, `.ac3`, `.ec3`, `.mp3`).
    case packedAudio
    /// WebVTT (`.vtt`, `.webvtt`).
    case webVTT
    /// A name the graph does not recognise.
    case unknown

    /// The format of a segment at `uri` (query and fragment ignored), with or without a map.
    public init(uri: String, hasMap: Bool) {
        var path = Substring(uri)
        if let end = path.firstIndex(where: { $0 == "?" || $0 == "#" }) { path = path[..<end] }
        let name = path.split(separator: "/").last ?? ""
        let suffix = name.lastIndex(of: ".").map { name[name.index(after: $0)...].lowercased() } ?? ""
        switch suffix {
        case "ts", "tsv", "tsa", "m2ts": self = .transportStream
        case "mp4", "m4s", "m4v", "m4a", "cmfv", "cmfa", "cmft", "cmfm": self = .fragmentedMP4
        case "aac", "ac3", "ec3", "mp3": self = .packedAudio
        case "vtt", "webvtt": self = .webVTT
        default: self = hasMap ? .fragmentedMP4 : .unknown
        }
    }

    public var description: String {
        switch self {
        case .transportStream: "MPEG-TS"
        case .fragmentedMP4: "fMP4"
        case .packedAudio: "packed audio"
        case .webVTT: "WebVTT"
        case .unknown: "unknown"
        }
    }
}
