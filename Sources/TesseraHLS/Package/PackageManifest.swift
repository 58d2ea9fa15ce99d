#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// `manifest.json` of an offline package: its schema, its tracks, every file with its size and
/// SHA-256 (all but `manifest.json` and `manifest-sha256.txt` themselves), and what it does not
/// hold — segments the source marked EXT-X-GAP, and (for recordings) holes and evicted runs.
/// URL-free by construction: paths are relative, and no host, query or key is ever stored.
public struct PackageManifest: Hashable, Sendable, Codable {
    /// The schema this version writes and reads.
    public static let currentSchemaVersion = 1
    /// The schema's name.
    public static let schemaName = "tessera-package"
    /// The file name at the package root.
    public static let fileName = "manifest.json"
    /// The multivariant playlist at the package root.
    public static let entryName = "master.m3u8"

    /// What made the package.
    public enum Kind: String, Hashable, Sendable, Codable {
        /// A VOD presentation, packaged whole.
        case vod
        /// A live recording (its holes and evictions listed).
        case recording
    }

    /// One file of the package.
    public struct File: Hashable, Sendable, Codable {
        /// What a file is.
        public enum Role: String, Hashable, Sendable, Codable {
            /// A playlist (`master.m3u8` or a track's media playlist).
            case playlist
            /// Media: segments, initialization sections, whole source files of byte ranges.
            case media
        }

        /// Its path relative to the package root.
        public let path: String
        /// Its size in bytes.
        public let size: UInt64
        /// Its SHA-256, lower-case hex.
        public let sha256: String
        /// What it is.
        public let role: Role
        /// The track it belongs to (nil for `master.m3u8`).
        public let track: String?

        /// Creates a file entry.
        public init(path: String, size: UInt64, sha256: String, role: Role, track: String?) {
            self.path = path
            self.size = size
            self.sha256 = sha256
            self.role = role
            self.track = track
        }
    }

    /// Media a track's playlist lists but the package has no file for.
    public struct Gap: Hashable, Sendable, Codable {
        /// The track.
        public let track: String
        /// The segment's media sequence number.
        public let mediaSequence: UInt64
        /// Its EXTINF seconds.
        public let duration: Double
        /// Why ("EXT-X-GAP in the source", "left the live window during an outage").
        public let reason: String
        /// Whether `duration` is an estimate (a recording's gap for media it never saw listed:
        /// from PROGRAM-DATE-TIME, else the target duration). Written only when true.
        public let estimated: Bool

        /// Creates a gap entry.
        public init(track: String, mediaSequence: UInt64, duration: Double, reason: String, estimated: Bool = false) {
            self.track = track
            self.mediaSequence = mediaSequence
            self.duration = duration
            self.reason = reason
            self.estimated = estimated
        }

        private enum CodingKeys: String, CodingKey { case track, mediaSequence, duration, reason, estimated }

        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            track = try container.decode(String.self, forKey: .track)
            mediaSequence = try container.decode(UInt64.self, forKey: .mediaSequence)
            duration = try container.decode(Double.self, forKey: .duration)
            reason = try container.decode(String.self, forKey: .reason)
            estimated = try container.decodeIfPresent(Bool.self, forKey: .estimated) ?? false
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(track, forKey: .track)
            try container.encode(mediaSequence, forKey: .mediaSequence)
            try container.encode(duration, forKey: .duration)
            try container.encode(reason, forKey: .reason)
            if estimated { try container.encode(true, forKey: .estimated) }
        }
    }

    /// A run of segments a recording dropped under its retention policy.
    public struct Eviction: Hashable, Sendable, Codable {
        /// The track.
        public let track: String
        /// The first media sequence number dropped.
        public let firstMediaSequence: UInt64
        /// The last media sequence number dropped.
        public let lastMediaSequence: UInt64

        /// Creates an eviction entry.
        public init(track: String, firstMediaSequence: UInt64, lastMediaSequence: UInt64) {
            self.track = track
            self.firstMediaSequence = firstMediaSequence
            self.lastMediaSequence = lastMediaSequence
        }
    }

    /// "tessera-package".
    public let schema: String
    /// The schema version (`currentSchemaVersion` when written).
    public let schemaVersion: Int
    /// What made it.
    public let kind: Kind
    /// The multivariant playlist (`master.m3u8`).
    public let entry: String
    /// Its tracks, the variant first.
    public let tracks: [PackageTrack]
    /// Every file but `manifest.json` and `manifest-sha256.txt`, by path.
    public let files: [File]
    /// Listed media without a file.
    public let gaps: [Gap]
    /// Runs a recording evicted (empty for VOD).
    public let evictions: [Eviction]

    /// A manifest of the current schema; `files` are sorted by path.
    public init(kind: Kind, tracks: [PackageTrack], files: [File], gaps: [Gap] = [], evictions: [Eviction] = []) {
        schema = Self.schemaName
        schemaVersion = Self.currentSchemaVersion
        self.kind = kind
        entry = Self.entryName
        self.tracks = tracks
        self.files = files.sorted { $0.path < $1.path }
        self.gaps = gaps
        self.evictions = evictions
    }

    /// The manifest in `bytes`.
    /// - Throws: `DecodingError` for text that is not a manifest.
    public static func decode(_ bytes: [UInt8]) throws -> PackageManifest {
        try JSONDecoder().decode(PackageManifest.self, from: Data(bytes))
    }
}
