import TesseraHLS
import TesseraPlaylist
import TesseraSupport

/// What a recording's package holds at a coherent point — the last entry whose files are all
/// written, the renditions cut at the primary's end — built from its checkpoint records, so the
/// final commit and an in-progress snapshot are the same package: each track's playlist, the
/// master, the manifest's tracks, gaps and evictions, and the media files they reference.
struct RecordingPackage {
    let tracks: [RecordedTrack]
    let contents: PackageContents
    /// The media files referenced, of `files`.
    let media: [ResourceFileSink.WrittenFile]
    /// Date Ranges omitted because they could not be kept whole.
    let dateRangesOmitted: Int

    var primary: RecordedTrack { tracks[0] }

    /// The package of `source` from `records` (every track's, in order), `written` resources
    /// written, `files` the sink's finished files.
    /// - Throws: `invalid-playlist` when a playlist cannot be written standalone.
    init(source: RecordingSource, records: [RecordingEntryRecord], written: Int, files: [ResourceFileSink.WrittenFile],
         unavailable: [ResourceIdentity: HLSError], trimming: Bool, shared: RecordingPlanning.Shared,
         evictions: RecordingEvictions) throws(HLSError) {
        let id = RecordingPlanner.primaryTrack
        let primary = RecordedTrack(id: id, role: .video, rendition: nil, stream: .main, records: records.filter { $0.track == id },
                                    written: written, before: nil, margin: 0, unavailable: unavailable, trimming: trimming,
                                    header: shared.headers[id] ?? MediaPlaylist())
        var tracks = [primary]
        var alignments: [String] = []
        for rendition in source.renditions {
            let own = records.filter { $0.track == rendition.id }
            let header = shared.headers[rendition.id] ?? MediaPlaylist()
            let alignment = own.last?.alignment.flatMap(RecordingTrackPlan.Alignment.init(rawValue:))
            let margin = alignment?.margin(targetDuration: header.targetDuration) ?? 0
            tracks.append(RecordedTrack(id: rendition.id, role: rendition.role, rendition: rendition.index, stream: StreamIdentity(rendition.id),
                                        records: own, written: written, before: primary.end, margin: margin, unavailable: unavailable,
                                        trimming: false, header: header))
            alignments.append(alignment.map { "; aligned with the variant by \($0.description)" } ?? "")
        }
        let referenced = Set(tracks.flatMap(\.files))
        let media = files.filter { referenced.contains($0.path.value) }
        let sizes = Dictionary(media.map { ($0.path.value, $0.byteCount) }, uniquingKeysWith: { first, _ in first })
        let peak = primary.peakBitRate(sizes: sizes)
        let span = primary.dateSpan
        let (ranges, omitted) = shared.dateRanges.kept(from: span?.start, to: span?.end)
        let variant = source.variant.flatMap { source.multivariant?.variants[$0] }
        var described = [(primary.info(provenance: source.provenance, variant: variant, bandwidth: peak), try primary.playlistText(dateRanges: ranges))]
        for ((track, rendition), aligned) in zip(zip(tracks.dropFirst(), source.renditions), alignments) {
            described.append((track.info(provenance: rendition.provenance + aligned, rendition: source.multivariant?.renditions[rendition.index]),
                              try track.playlistText(dateRanges: [])))
        }
        let owners = Dictionary(media.map { ($0.path.value, String($0.path.value.prefix { $0 != "/" })) }, uniquingKeysWith: { first, _ in first })
        contents = PackageContents(kind: .recording, tracks: described, masterText: try RecordedTrack.master(source, tracks: tracks, bandwidth: peak),
                                   owners: owners, gaps: tracks.flatMap(\.gaps), evictions: evictions.manifest)
        self.tracks = tracks
        self.media = media
        dateRangesOmitted = omitted
    }

    /// Segments with files, of the primary.
    var segments: Int { primary.entries.count(where: primary.hasFile) }
}
