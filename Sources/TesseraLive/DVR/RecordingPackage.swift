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
    /// The media files referenced, of `files` (the gap files are the contents' `emptyFiles`).
    let media: [PackageFolder.WrittenFile]
    /// Date Ranges omitted because they could not be kept whole (interstitials among them).
    let dateRangesOmitted: Int
    /// The interstitials kept and omitted, their assets' files among `media`.
    let interstitials: RecordingInterstitialsReport
    /// The interstitial asset folders the package references.
    let assetFolders: Set<String>

    var primary: RecordedTrack { tracks[0] }

    /// The package of `source` from `records` (every track's, in order), `written` resources
    /// written, `files` the folder's finished files, `assets` the interstitial sources packaged
    /// (by their attribute's text).
    /// - Throws: `invalid-playlist` when a playlist cannot be written standalone.
    init(source: RecordingSource, records: [RecordingEntryRecord], written: Int, files: [PackageFolder.WrittenFile],
         unavailable: [ResourceIdentity: HLSError], trimming: Bool, headers: [String: MediaPlaylist], dateRanges: RecordingDateRanges,
         evictions: RecordingEvictions, assets: [String: InterstitialPackager.Packaged] = [:]) throws(HLSError) {
        let id = RecordingPlanner.primaryTrack
        let primary = RecordedTrack(id: id, role: .video, rendition: nil, stream: .main, records: records.filter { $0.track == id },
                                    written: written, before: nil, margin: 0, unavailable: unavailable, trimming: trimming,
                                    header: headers[id] ?? MediaPlaylist())
        var tracks = [primary]
        var alignments: [String] = []
        for rendition in source.renditions {
            let own = records.filter { $0.track == rendition.id }
            let header = headers[rendition.id] ?? MediaPlaylist()
            let alignment = own.last?.alignment.flatMap(RecordingTrackPlan.Alignment.init(rawValue:))
            let margin = alignment?.margin(targetDuration: header.targetDuration) ?? 0
            tracks.append(RecordedTrack(id: rendition.id, role: rendition.role, rendition: rendition.index, stream: StreamIdentity(rendition.id),
                                        records: own, written: written, before: primary.end, margin: margin, unavailable: unavailable,
                                        trimming: false, header: header))
            alignments.append(alignment.map { "; aligned with the variant by \($0.description)" } ?? "")
        }
        let referenced = Set(tracks.flatMap(\.files))
        var media = files.filter { referenced.contains($0.path.value) }
        // A name made of the track's ID and "gap." with an extension of letters and digits: safe.
        let gaps = tracks.flatMap(\.gapFiles).map { SafeRelativePath($0)! }
        let sizes = Dictionary(media.map { ($0.path.value, $0.byteCount) }, uniquingKeysWith: { first, _ in first })
        let peak = primary.peakBitRate(sizes: sizes)
        let span = primary.dateSpan
        var (ranges, omitted) = dateRanges.kept(from: span?.start, to: span?.end)
        // An interstitial is kept only with its assets local: its attribute then names them.
        var local: [String: String] = [:]
        var report = RecordingInterstitialsReport()
        var folders: Set<String> = []
        ranges.removeAll { range in
            guard let text = Self.assetText(range) else { return false }
            guard let packaged = assets[text] else {
                report.omitted += 1
                return true
            }
            report.kept += 1
            let folder = packaged.entry.split(separator: "/").prefix(2).joined(separator: "/")
            if folders.insert(folder).inserted {
                media += packaged.files
                report.assets += packaged.assets
                report.bytes += packaged.files.reduce(0) { $0 + $1.byteCount }
            }
            local[text] = "../" + packaged.entry
            return false
        }
        omitted += report.omitted
        let variant = source.variant.flatMap { source.multivariant?.variants[$0] }
        var described = [(primary.info(provenance: source.provenance, variant: variant, bandwidth: peak), try primary.playlistText(dateRanges: ranges, assets: local))]
        for ((track, rendition), aligned) in zip(zip(tracks.dropFirst(), source.renditions), alignments) {
            described.append((track.info(provenance: rendition.provenance + aligned, rendition: source.multivariant?.renditions[rendition.index]),
                              try track.playlistText(dateRanges: [])))
        }
        // Each file is its track folder's, but the interstitial assets, which no track owns.
        let otherOwners = Dictionary(media.filter { $0.path.value.hasPrefix(InterstitialPackager.folder + "/") }
            .map { ($0.path.value, String?.none) }, uniquingKeysWith: { first, _ in first })
        contents = PackageContents(kind: .recording, tracks: described, masterText: try RecordedTrack.master(source, tracks: tracks, bandwidth: peak),
                                   otherOwners: otherOwners, gaps: tracks.flatMap(\.gaps), emptyFiles: gaps,
                                   evictions: evictions.manifest)
        self.tracks = tracks
        self.media = media
        dateRangesOmitted = omitted
        interstitials = report
        assetFolders = folders
    }

    /// The text of an interstitial Date Range's X-ASSET-URI or X-ASSET-LIST, or nil.
    static func assetText(_ range: DateRange) -> String? {
        for attribute in range.clientAttributes where PlaylistURIRole.interstitialAttributes.contains(attribute.name) {
            if case .string(let text) = attribute.value { return text }
        }
        return nil
    }

    /// Segments with files, of the primary.
    var segments: Int { primary.entries.count(where: primary.hasFile) }
}
