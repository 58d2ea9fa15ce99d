import TesseraHLS
import TesseraPlaylist

/// The last files of a recording's track: its local VOD playlist (every entry in media-sequence
/// order with its local name — segments, the origin's gaps and the recorder's, as EXT-X-GAP —
/// its local map where one starts, EXT-X-DISCONTINUITY where the discontinuity sequence moves,
/// PROGRAM-DATE-TIME as the source had it, the Date Ranges kept whole, EXT-X-ENDLIST), its
/// manifest entry and its gaps, and the package's `master.m3u8`.
struct RecordedTrack: Sendable {
    /// The track's folder and ID.
    let id: String
    /// The entries recorded, with their local names.
    let entries: ArraySlice<RecordingTimeline.Entry>
    let locals: ArraySlice<RecordingPlanner.Local>
    /// The last playlist the reloader held (its header: version, target duration, independence).
    let source: MediaPlaylist

    /// The playlist's path in the package.
    var playlistPath: String { id + "/index.m3u8" }

    /// Seconds of media.
    var duration: Double { entries.reduce(0) { $0 + $1.segment.duration } }

    /// The span of PROGRAM-DATE-TIME the entries cover (seconds since 1970), when any has one.
    var dateSpan: (start: Double, end: Double)? {
        var clock: Double?
        var start: Double?
        var elapsed = 0.0
        for entry in entries {
            if let date = entry.segment.programDateTime?.secondsSince1970 {
                if start == nil { start = date - elapsed }
                clock = date
            }
            if let current = clock { clock = current + entry.segment.duration }
            elapsed += entry.segment.duration
        }
        guard let start, let end = clock else { return nil }
        return (start, end)
    }

    /// The local playlist's text with `dateRanges`.
    /// - Throws: `invalid-playlist` when it cannot be written standalone.
    func playlistText(dateRanges: [DateRange]) throws(HLSError) -> String {
        var segments: [MediaSegment] = []
        segments.reserveCapacity(entries.count)
        var previous: MediaSegment?
        var uris: [String: String] = [:]
        for (entry, local) in zip(entries, locals) {
            var segment = entry.segment
            segment.uri = local.uri
            segment.byteRange = nil
            segment.isGap = entry.kind != .segment
            segment.map = entry.kind == .segment ? local.map : previous?.map
            segment.isDiscontinuity = previous.map { $0.discontinuitySequence != segment.discontinuitySequence } ?? false
            uris[local.uri] = local.uri
            if let map = segment.map { uris[map.uri] = map.uri }
            segments.append(segment)
            previous = segment
        }
        let first = segments.first
        let longest = segments.map(\.duration).max() ?? 0
        let hasGap = segments.contains(where: \.isGap)
        var playlist = MediaPlaylist(version: max(source.version ?? 3, hasGap ? 8 : 0, segments.contains { $0.map != nil } ? 6 : 0),
                                     targetDuration: max(source.targetDuration ?? 1, UInt64(longest.rounded())),
                                     mediaSequence: first?.mediaSequence ?? 0, discontinuitySequence: first?.discontinuitySequence ?? 0,
                                     playlistType: .vod, hasEndList: true, hasIndependentSegments: source.hasIndependentSegments,
                                     segments: segments, dateRanges: dateRanges)
        playlist.start = nil
        return try PackageLocalizer.media(playlist, uris: uris, what: playlistPath)
    }

    /// The manifest's description of the track; `bandwidth` its peak segment bit rate.
    func info(provenance: String, variant: Variant?, bandwidth: UInt64) -> PackageTrack {
        PackageTrack(id: id, role: .video, playlist: playlistPath, codecs: variant?.codecs, bandwidth: variant?.bandwidth ?? bandwidth,
                     resolution: variant?.resolution.map { "\($0.width)x\($0.height)" }, provenance: provenance,
                     segments: entries.count(where: { $0.kind == .segment }), duration: duration)
    }

    /// The gaps the manifest lists: the origin's and the recorder's (estimated).
    var gaps: [PackageManifest.Gap] {
        entries.compactMap { entry in
            switch entry.kind {
            case .segment: nil
            case .originGap: PackageManifest.Gap(track: id, mediaSequence: entry.segment.mediaSequence, duration: entry.segment.duration,
                                                 reason: "EXT-X-GAP in the source")
            case .missed: PackageManifest.Gap(track: id, mediaSequence: entry.segment.mediaSequence, duration: entry.segment.duration,
                                              reason: "left the live window before it could be fetched", estimated: true)
            }
        }
    }

    /// `master.m3u8`: the source's variant (and the renditions of its groups in its own
    /// stream) when the recording started from a multivariant playlist, else one variant of
    /// `bandwidth`.
    static func master(_ source: RecordingSource, playlist: String, bandwidth: UInt64) throws(HLSError) -> String {
        if let multivariant = source.multivariant, let index = source.variant {
            return try PackageLocalizer.master(multivariant, variant: index, renditions: [], iFrameVariants: [], uris: [.variant(index): playlist])
        }
        return PlaylistWriter().write(.multivariant(MultivariantPlaylist(version: 3, variants: [Variant(uri: playlist, bandwidth: max(1, bandwidth))])))
    }
}
