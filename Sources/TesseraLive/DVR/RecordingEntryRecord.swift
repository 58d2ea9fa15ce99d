#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TesseraPlaylist
import TesseraSupport

/// One timeline entry of a recording as its checkpoint keeps it, URL-free: its track, the media
/// sequence number, what it is, where it starts on the recording's common timeline, its duration, discontinuity sequence and PROGRAM-DATE-TIME, its local
/// name and map, the resources planned up to it, and digests (never the text) of its source URI
/// and map without their queries — enough to continue after kill -9 and to prove the live
/// playlist still lists the same segments.
struct RecordingEntryRecord: Codable, Equatable, Sendable {
    /// The track's ID (`video`, `audio-1`).
    var track: String
    var sequence: UInt64
    /// `segment`, `origin-gap` or `missed`.
    var kind: String
    var duration: Double
    var discontinuity: UInt64
    /// PROGRAM-DATE-TIME as written.
    var date: String?
    /// Local name in the track's folder.
    var name: String
    /// Local initialization section, when the segment has one.
    var map: String?
    /// Digest of the source map's URI without its query, and its byte range.
    var mapKey: String?
    /// Digest of the source URI without its query (empty for a missed entry).
    var source: String
    /// Resources planned for the recording up to and including this entry.
    var resourcesEnd: Int
    /// Where it starts on the common timeline, seconds.
    var position: Double
    /// How a rendition's track is aligned with the primary (nil for the primary).
    var alignment: String?
    /// The source's media sequence number when a restart of the source renumbered it (nil: the
    /// same as `sequence`).
    var sourceSequence: UInt64?
    /// The source's discontinuity sequence number when a restart renumbered it.
    var sourceDiscontinuity: UInt64?

    /// The record of `entry` of track `track`, planned as `local` (`mapKey` its map's digest key);
    /// `continuity` the track's numbering.
    init(_ entry: RecordingTimeline.Entry, track: String, local: RecordingPlanner.Local, mapKey: String?, alignment: String? = nil,
         continuity: SourceContinuity = SourceContinuity()) {
        self.track = track
        self.alignment = alignment
        sequence = entry.segment.mediaSequence
        if let source = continuity.sourceSequence(of: sequence), source != sequence {
            sourceSequence = source
            sourceDiscontinuity = continuity.sourceDiscontinuity(of: entry.segment.discontinuitySequence)
        }
        kind = switch entry.kind {
        case .segment: "segment"
        case .originGap: "origin-gap"
        case .missed: "missed"
        case .restart: "restart"
        }
        duration = entry.segment.duration
        discontinuity = entry.segment.discontinuitySequence
        date = entry.segment.programDateTime?.text
        name = local.uri
        map = local.map?.uri
        self.mapKey = mapKey
        source = entry.key
        resourcesEnd = local.resourcesEnd
        position = local.position
    }

    /// The timeline entry it stands for (the segment rebuilt from what was kept).
    var entry: RecordingTimeline.Entry? {
        let kind: RecordingTimeline.Entry.Kind
        switch self.kind {
        case "segment": kind = .segment
        case "origin-gap": kind = .originGap
        case "missed": kind = .missed
        case "restart": kind = .restart
        default: return nil
        }
        let segment = MediaSegment(uri: name, duration: duration, mediaSequence: sequence, discontinuitySequence: discontinuity,
                                   isGap: kind != .segment, programDateTime: date.map(ProgramDateTime.init(text:)))
        return RecordingTimeline.Entry(segment: segment, kind: kind, key: source)
    }

    /// Its local entry.
    var local: RecordingPlanner.Local {
        RecordingPlanner.Local(uri: name, map: map.map { MediaInitializationSection(uri: $0) }, resourcesEnd: resourcesEnd, position: position)
    }

    /// The digest key of a source URI: the path it resolves to against `base` (the playlist it
    /// is listed in), without query, fragment, scheme and host — a segment is the same one on
    /// every Content Steering pathway, written relative or absolute; without a base, the URI's
    /// own path.
    static func key(_ uri: String, base: URL? = nil) -> String {
        var path = DeltaMerge.stripped(uri)
        if let base, let resolved = URL(string: String(path), relativeTo: base)?.absoluteURL {
            path = Substring(resolved.path)
        } else if let colon = path.firstIndex(of: ":"), path[colon...].hasPrefix("://") {
            path = path[path.index(colon, offsetBy: 3)...].drop { $0 != "/" }
        }
        return SHA256Hasher.hash(Array(path.utf8)).hex
    }
}
