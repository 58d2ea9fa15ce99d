import TesseraHLS
import TesseraPlaylist

/// The last files of a recording's track: its local VOD playlist (every entry in media-sequence
/// order with its local name — segments, the origin's gaps and the recorder's, as EXT-X-GAP —
/// its local map where one starts, EXT-X-DISCONTINUITY where the discontinuity sequence moves,
/// PROGRAM-DATE-TIME as the source had it, the Date Ranges kept whole, EXT-X-ENDLIST), its
/// manifest entry and its gaps, and the package's `master.m3u8`.
///
/// A gap keeps its EXT-X-GAP and its duration, so the timeline stays true (every track's
/// positions, PROGRAM-DATE-TIME) for players that honour the tag (Chromium, hls.js, AVPlayer
/// skip it unfetched). Its URI names the track's gap file, `gap.<ext>`: zero bytes with the
/// extension of the track's media, so players that do not honour the tag (ffmpeg 5.1, GStreamer
/// 1.22) fetch it, find no media and play on — a name without a file stops them (ffmpeg refuses
/// an extension it does not allow; GStreamer stops at a 404).
struct RecordedTrack: Sendable {
    /// The track's folder and ID.
    let id: String
    let role: PackageTrack.Role
    /// The multivariant playlist's rendition it records (nil: the variant's stream).
    let rendition: Int?
    /// The entries recorded, with their local names.
    let entries: [RecordingTimeline.Entry]
    let locals: [RecordingPlanner.Local]
    /// The track's latest playlist header (version, target duration, independence).
    let source: MediaPlaylist
    /// The segments its server could not give, by media sequence: gaps, with why.
    let unavailable: [UInt64: HLSError]

    /// The track `id` of stream `stream` from its checkpoint `records` (in order): those whose
    /// resources are among the first `written` and — `before` the primary's end, for a
    /// rendition — that start before it (`margin` later, as its alignment allows);
    /// `unavailable` the segments of every stream the transfer could not get; `trimming` drops
    /// the unavailable segments it would end with (a source gone: nothing after them).
    init(id: String, role: PackageTrack.Role, rendition: Int?, stream: StreamIdentity, records: [RecordingEntryRecord], written: Int,
         before end: Double?, margin: Double, unavailable: [ResourceIdentity: HLSError], trimming: Bool, header: MediaPlaylist) {
        var own: [UInt64: HLSError] = [:]
        for (identity, error) in unavailable where identity.stream == stream && identity.kind == .segment {
            own[identity.mediaSequence] = error
        }
        var pairs = records.prefix { record in record.resourcesEnd <= written && end.map { record.position < $0 + margin } ?? true }
            .compactMap { record in record.entry.map { ($0, record.local) } }
        while trimming, let last = pairs.last?.0, last.kind == .segment, own[last.segment.mediaSequence] != nil { pairs.removeLast() }
        self.id = id
        self.role = role
        self.rendition = rendition
        entries = pairs.map(\.0)
        locals = pairs.map(\.1)
        source = header
        self.unavailable = own
    }

    /// Whether `entry` is a segment with its file (not a gap of any kind).
    func hasFile(_ entry: RecordingTimeline.Entry) -> Bool {
        entry.kind == .segment && unavailable[entry.segment.mediaSequence] == nil
    }

    /// Gaps the recorder declared: segments that left the window, could not be fetched, or were
    /// lost to a restart of the source.
    var recorderGaps: Int {
        entries.count { $0.kind == .missed || $0.kind == .restart || ($0.kind == .segment && unavailable[$0.segment.mediaSequence] != nil) }
    }

    /// Where its last entry ends on the common timeline.
    var end: Double? {
        guard let entry = entries.last, let local = locals.last else { return nil }
        return local.position + entry.segment.duration
    }

    /// The name of the zero-length file each entry would name as a gap: `gap.<ext>`, the extension
    /// of the nearest segment with a file before it (else after it; else `m4s` under a map, `vtt`
    /// for subtitles, `ts`).
    /// - Complexity: O(entries).
    private var gapFileNames: [String] {
        var names = [String](repeating: "", count: entries.count)
        var ext: String?
        var pending: [Int] = []
        for index in entries.indices {
            if hasFile(entries[index]) {
                ext = RecordingPlanner.fileExtension(of: locals[index].uri, default: "ts")
                for earlier in pending { names[earlier] = "gap." + ext! }
                pending = []
            } else if let ext {
                names[index] = "gap." + ext
            } else {
                pending.append(index)
            }
        }
        for index in pending { names[index] = "gap." + (role == .subtitles ? "vtt" : entries[index].segment.map != nil ? "m4s" : "ts") }
        return names
    }

    /// The zero-length gap files its playlist names, by path in the package.
    var gapFiles: [String] {
        var paths: [String] = []
        for (entry, name) in zip(entries, gapFileNames) where !hasFile(entry) && !paths.contains(id + "/" + name) {
            paths.append(id + "/" + name)
        }
        return paths
    }

    /// Its files, by path in the package: each segment's and each map's.
    var files: [String] {
        zip(entries, locals).flatMap { entry, local -> [String] in
            guard hasFile(entry) else { return [] }
            return [id + "/" + local.uri] + (local.map.map { [id + "/" + $0.uri] } ?? [])
        }
    }

    /// The highest bit rate of its segments, from their files' `sizes` by path.
    func peakBitRate(sizes: [String: UInt64]) -> UInt64 {
        var peak: UInt64 = 0
        for (entry, local) in zip(entries, locals) where hasFile(entry) && entry.segment.duration > 0 {
            let bits = Double(sizes[id + "/" + local.uri] ?? 0) * 8 / entry.segment.duration
            peak = max(peak, UInt64(bits.rounded(.up)))
        }
        return peak
    }

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

    /// The local playlist's text with `dateRanges`, their interstitial assets' URIs replaced by
    /// `assets` (the local paths).
    /// - Throws: `invalid-playlist` when it cannot be written standalone.
    func playlistText(dateRanges: [DateRange], assets: [String: String] = [:]) throws(HLSError) -> String {
        var segments: [MediaSegment] = []
        segments.reserveCapacity(entries.count)
        var previous: MediaSegment?
        var uris = assets
        let gapNames = gapFileNames
        for (index, (entry, local)) in zip(entries, locals).enumerated() {
            var segment = entry.segment
            segment.uri = hasFile(entry) ? local.uri : gapNames[index]
            segment.byteRange = nil
            segment.isGap = !hasFile(entry)
            segment.map = hasFile(entry) ? local.map : previous?.map
            segment.isDiscontinuity = previous.map { $0.discontinuitySequence != segment.discontinuitySequence } ?? false
            uris[segment.uri] = segment.uri
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
                                     segments: MediaSegments(segments), dateRanges: dateRanges)
        playlist.start = nil
        return try PackageLocalizer.media(playlist, uris: uris, what: playlistPath)
    }

    /// The manifest's description of the variant's stream; `bandwidth` its peak segment bit rate.
    func info(provenance: String, variant: Variant?, bandwidth: UInt64) -> PackageTrack {
        PackageTrack(id: id, role: role, playlist: playlistPath, codecs: variant?.codecs, bandwidth: variant?.bandwidth ?? bandwidth,
                     resolution: variant?.resolution.map { "\($0.width)x\($0.height)" }, provenance: provenance,
                     segments: entries.count(where: hasFile), duration: duration)
    }

    /// The manifest's description of a rendition's track.
    func info(provenance: String, rendition: Rendition?) -> PackageTrack {
        PackageTrack(id: id, role: role, playlist: playlistPath, groupId: rendition?.groupId, name: rendition?.name, language: rendition?.language,
                     characteristics: rendition?.characteristics, provenance: provenance,
                     segments: entries.count(where: hasFile), duration: duration)
    }

    /// The gaps the manifest lists: the origin's and the recorder's (estimated).
    var gaps: [PackageManifest.Gap] {
        entries.compactMap { entry in
            switch entry.kind {
            case .segment: unavailable[entry.segment.mediaSequence].map { error in
                PackageManifest.Gap(track: id, mediaSequence: entry.segment.mediaSequence, duration: entry.segment.duration,
                                    reason: error.code == .malformedMedia ? "not valid media when fetched (cut short or malformed)"
                                        : "could not be fetched (\(Self.why(error)))")
            }
            case .originGap: PackageManifest.Gap(track: id, mediaSequence: entry.segment.mediaSequence, duration: entry.segment.duration,
                                                 reason: "EXT-X-GAP in the source")
            case .missed: PackageManifest.Gap(track: id, mediaSequence: entry.segment.mediaSequence, duration: entry.segment.duration,
                                              reason: "left the live window before it could be fetched", estimated: true)
            case .restart: PackageManifest.Gap(track: id, mediaSequence: entry.segment.mediaSequence, duration: entry.segment.duration,
                                               reason: "lost while the source restarted", estimated: true)
            }
        }
    }

    /// A URL-free reason a segment could not be fetched: its HTTP status, else the error's code.
    static func why(_ error: HLSError) -> String {
        let words = error.message.split(separator: " ")
        if error.code == .httpStatus, let index = words.lastIndex(of: "HTTP"), index + 1 < words.count {
            let status = words[index + 1].prefix { $0.isNumber }
            if !status.isEmpty { return "HTTP \(status)" }
        }
        return error.code.rawValue
    }

    /// `master.m3u8`: the source's variant and the recorded renditions (and the renditions of its
    /// groups in its own stream) when the recording started from a multivariant playlist, else
    /// one variant of `bandwidth`.
    static func master(_ source: RecordingSource, tracks: [RecordedTrack], bandwidth: UInt64) throws(HLSError) -> String {
        if let multivariant = source.multivariant, let index = source.variant {
            var uris: [PackagePlaylistKey: String] = [.variant(index): tracks[0].playlistPath]
            for track in tracks.dropFirst() { if let rendition = track.rendition { uris[.rendition(rendition)] = track.playlistPath } }
            return try PackageLocalizer.master(multivariant, variant: index, renditions: tracks.compactMap(\.rendition), iFrameVariants: [], uris: uris)
        }
        return PlaylistWriter().write(.multivariant(MultivariantPlaylist(version: 3, variants: [Variant(uri: tracks[0].playlistPath, bandwidth: max(1, bandwidth))])))
    }
}
