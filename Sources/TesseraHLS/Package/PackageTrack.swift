/// One track of an offline package, as `manifest.json` lists it: what it is, where its local
/// playlist is, and which policy chose it. URL-free: nothing here names a host, a query or a key.
public struct PackageTrack: Hashable, Sendable, Codable {
    /// What a track is in the presentation.
    public enum Role: String, Hashable, Sendable, Codable {
        /// The variant's own stream (video, or whatever the variant carries).
        case video
        /// An EXT-X-MEDIA TYPE=AUDIO rendition with its own playlist.
        case audio
        /// An EXT-X-MEDIA TYPE=SUBTITLES rendition.
        case subtitles
        /// An EXT-X-MEDIA TYPE=VIDEO rendition with its own playlist: another view beside the
        /// variant's stream.
        case alternativeVideo = "alternative-video"
        /// An EXT-X-I-FRAME-STREAM-INF stream.
        case iFrames = "iframes"
    }

    /// Its ID in the package, also its folder: `video`, `audio-1`, `subtitles-1`, `iframes-1`.
    public let id: String
    /// What it is.
    public let role: Role
    /// Its media playlist, relative to the package root (`video/index.m3u8`).
    public let playlist: String
    /// GROUP-ID of a rendition.
    public let groupId: String?
    /// NAME of a rendition.
    public let name: String?
    /// LANGUAGE of a rendition.
    public let language: String?
    /// CHARACTERISTICS of a rendition.
    public let characteristics: String?
    /// CODECS of a variant or I-frame stream.
    public let codecs: String?
    /// BANDWIDTH of a variant or I-frame stream, bit/s.
    public let bandwidth: UInt64?
    /// RESOLUTION of a variant or I-frame stream ("1280x720").
    public let resolution: String?
    /// Which policy chose it, and why (the selection's reason).
    public let provenance: String
    /// Media segments in its playlist (EXT-X-GAP ones included).
    public let segments: Int
    /// Σ EXTINF, seconds.
    public let duration: Double

    /// Creates a track description.
    public init(id: String, role: Role, playlist: String, groupId: String? = nil, name: String? = nil, language: String? = nil,
                characteristics: String? = nil, codecs: String? = nil, bandwidth: UInt64? = nil, resolution: String? = nil,
                provenance: String, segments: Int, duration: Double) {
        self.id = id
        self.role = role
        self.playlist = playlist
        self.groupId = groupId
        self.name = name
        self.language = language
        self.characteristics = characteristics
        self.codecs = codecs
        self.bandwidth = bandwidth
        self.resolution = resolution
        self.provenance = provenance
        self.segments = segments
        self.duration = duration
    }

    /// The IDs of tracks of `roles` in order: `video` for the variant's stream, else the role
    /// and its count so far (`audio-1`, `audio-2`, `subtitles-1`).
    package static func ids(_ roles: [Role]) -> [String] {
        var counts: [Role: Int] = [:]
        return roles.map { role in
            guard role != .video else { return "video" }
            counts[role, default: 0] += 1
            return "\(role.rawValue)-\(counts[role] ?? 1)"
        }
    }
}
