#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TesseraHLS
import TesseraHTTP
import TesseraPlaylist
import TesseraSupport

/// The files of one recorded track: a sequence-stable local name for every entry of the
/// timeline (`<msn>.<ext>`, never reused, a gap's name listed without a file) and for every
/// distinct initialization section (`init-<n>.<ext>`, by URI without its query and byte
/// range: a map whose signed query rotates is still the one map), and the fetches each new
/// segment needs — its map the first time it appears, then the segment, AES-128 resources with
/// their key and IV (the media sequence number's when the key has none), written decrypted;
/// URIs as written, resolved when fetched against the playlist in use (`LiveURLResolver`).
/// Each entry remembers how many resources the recording (all its tracks: they share one
/// transfer and are written in the order planned) has planned up to it, so the recording can be
/// cut at the last entry whose resources were all written, and where it starts on the common
/// timeline, so the tracks are cut alike.
struct RecordingPlanner: Sendable {
    /// What the local playlist needs of one timeline entry.
    struct Local: Sendable {
        /// Its URI relative to the track's folder.
        let uri: String
        /// Its initialization section, local.
        let map: MediaInitializationSection?
        /// Resources planned for the recording (every track) up to and including this entry.
        let resourcesEnd: Int
        /// Where it starts on the recording's common timeline (`RecordingPositions`).
        let position: Double
    }

    /// The folder of the variant's own stream in a recording.
    static let primaryTrack = "video"

    /// The track's folder (`video`).
    let track: String
    let role: PackageTrack.Role
    let stream: StreamIdentity
    /// The newest entry's local (the one `plan` made last).
    private(set) var newest: Local?
    private var maps: [String: String] = [:]
    private var checker: PlanChecker?

    init(track: String, role: PackageTrack.Role, stream: StreamIdentity) {
        self.track = track
        self.role = role
        self.stream = stream
    }

    /// A planner that goes on after `records` (restored from a checkpoint).
    init(track: String, role: PackageTrack.Role, stream: StreamIdentity, restoring records: [RecordingEntryRecord]) {
        self.init(track: track, role: role, stream: stream)
        newest = records.last?.local
        for record in records {
            if let key = record.mapKey, let map = record.map { maps[key] = map }
        }
    }

    /// The digest key of the map of `segment`, as checkpoints keep it.
    static func mapKey(_ segment: MediaSegment) -> String? {
        segment.map.map { map in
            RecordingEntryRecord.key(map.uri) + "@" + (map.byteRange.map { "\($0.length)@\($0.resolvedOffset)" } ?? "whole")
        }
    }

    /// One fetch and the package path of its resource.
    struct Planned: Sendable {
        var fetch: PlannedFetch
        let path: SafeRelativePath
    }

    /// The fetches of `entry` (none for a gap), listed in `playlistURL`, starting at `position`;
    /// `resources` counts the recording's resources planned, these included; `sourceSequence` is
    /// the source's number of the segment (its AES-128 IV when the key gives none), which a
    /// restart of the source makes differ from the recording's. With `gapWhenUnavailable`, a
    /// segment its server cannot give becomes a gap (its map, never).
    /// - Throws: `unsupported` (SAMPLE-AES, DRM-only keys), `invalid-playlist` (unusable byte
    ///   ranges, URIs or keys), as a package's plan checks them.
    mutating func plan(_ entry: RecordingTimeline.Entry, listedIn playlistURL: URL, at position: Double, resources: inout Int,
                       sourceSequence: UInt64? = nil, gapWhenUnavailable: Bool = false) throws(HLSError) -> [Planned] {
        let segment = entry.segment
        // A URI without a usable extension (`/segment?id=5`) gets the one its media most likely
        // has: players pick segments by extension (ffmpeg refuses one it does not allow).
        let ext = Self.fileExtension(of: segment.uri, default: segment.map != nil ? "m4s" : role == .subtitles ? "vtt" : "ts")
        let name = "\(segment.mediaSequence).\(ext)"
        guard entry.kind == .segment else {
            newest = Local(uri: name, map: nil, resourcesEnd: resources, position: position)
            return []
        }
        var checker = self.checker ?? PlanChecker(baseURL: playlistURL, source: URLRedaction.redact(playlistURL), layout: .recording, first: segment)
        defer { self.checker = checker }
        try checker.check(segment, at: Int(clamping: segment.mediaSequence))
        var fetches: [Planned] = []
        var localMap: MediaInitializationSection?
        if let map = segment.map {
            let key = Self.mapKey(segment)!
            if let known = maps[key] {
                localMap = MediaInitializationSection(uri: known)
            } else {
                try checker.check(map: map)
                let local = "init-\(maps.count).\(Self.fileExtension(of: map.uri, default: "mp4"))"
                maps[key] = local
                localMap = MediaInitializationSection(uri: local)
                fetches.append(add(.initialization(map, stream: stream, mediaSequence: segment.mediaSequence, range: map.byteRange.map(ByteRange.init)), at: local, &resources))
            }
        }
        let resource = PlannedResource.segment(segment, stream: stream, range: segment.byteRange.map(ByteRange.init), ivSequence: sourceSequence, startsDiscontinuity: segment.isDiscontinuity)
        fetches.append(add(resource, at: name, &resources, gapWhenUnavailable: gapWhenUnavailable))
        newest = Local(uri: name, map: localMap, resourcesEnd: resources, position: position)
        return fetches
    }

    private func add(_ resource: PlannedResource, at name: String, _ resources: inout Int, gapWhenUnavailable: Bool = false) -> Planned {
        resources += 1
        var fetch = PlannedFetch(resource)
        fetch.gapWhenUnavailable = gapWhenUnavailable
        // A name made here of digits, a dot and an extension of letters and digits: always safe.
        return Planned(fetch: fetch, path: SafeRelativePath(track + "/" + name)!)
    }

    /// The extension of the path of `uri` when it is a short run of letters and digits, lowercased.
    static func fileExtension(of uri: String, default fallback: String) -> String {
        let path = uri.prefix { $0 != "?" && $0 != "#" }
        guard let dot = path.lastIndex(of: "."), !path[dot...].contains("/") else { return fallback }
        let ext = path[path.index(after: dot)...].lowercased()
        guard (1...5).contains(ext.count), ext.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) else { return fallback }
        return ext
    }
}
