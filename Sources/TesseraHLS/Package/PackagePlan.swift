#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TesseraHTTP
import TesseraMedia
import TesseraPlaylist
import TesseraSupport

/// What an offline package will hold, decided before any media byte: its tracks (the chosen
/// variant's stream, then the chosen audio and subtitle renditions, then the I-frame streams),
/// every resource in write order — each distinct map once, each source file whole at its
/// offsets, EXT-X-GAP segments skipped (their files written empty) —, the local name of every file, and the text of every
/// local playlist. I-frame streams whose ranges lie inside files already packaged add no
/// resource: their playlists point at those files.
struct PackagePlan: Sendable {
    /// One track: its manifest entry, its stream and source, and its local playlist's text.
    struct Track: Sendable {
        let info: PackageTrack
        let stream: StreamIdentity
        /// Its media playlist's URL (the final one, after redirects).
        let url: URL
        /// Its source media playlist (a steered transfer matches another pathway's against it).
        let playlist: MediaPlaylist
        /// How it is found on another pathway, when the presentation steers.
        let equivalent: PathwayEquivalent?
        let playlistText: String
    }

    /// A playlist chosen for the package, loaded.
    struct Source: Sendable {
        let role: PackageTrack.Role
        /// Which playlist of the multivariant one it is.
        let key: PackagePlaylistKey
        let provenance: String
        let playlist: MediaPlaylist
        let url: URL
        /// How it is found on another pathway, when the presentation steers.
        var equivalent: PathwayEquivalent? = nil
    }

    let tracks: [Track]
    /// Every resource, in the order the folder writes them (a streamed movie's plan orders its
    /// own: `streamed(muxing:)`).
    var resources: [PlannedResource]
    let masterText: String
    let gaps: [PackageManifest.Gap]
    /// The files only EXT-X-GAP segments name: written empty (`PackageWriter.emptyFiles`).
    let gapFiles: [SafeRelativePath]
    /// Identity for checkpoints: URL-free (URIs without query, the local playlists' text).
    var fingerprint: SHA256Digest
    /// Media bytes when every resource has a byte range, else nil.
    var knownBytes: UInt64?
    /// The largest byte range, when any resource has one.
    var largestRange: UInt64?
    /// Distinct AES-128 keys.
    let keyCount: Int
    let maximumCoalescedBytes: UInt64
    /// Where every file goes.
    private let layout: PackageFileLayout
    /// The file each URI names, by track.
    private let files: [StreamIdentity: TrackFiles]
    /// The track whose resources go to each file first (the manifest's owner of a file).
    private let otherOwners: [String: String?]
    /// The master's inputs, when its one variant's BANDWIDTH is measured from the written files.
    private let measured: (multivariant: MultivariantPlaylist, variant: Int, uris: [PackagePlaylistKey: String])?

    /// Plans a package of `sources` from `multivariant` (variant first).
    /// - Throws: `unsupported` for live or I-frame-only variant playlists, SAMPLE-AES or DRM keys,
    ///   AES-128 byte ranges, and byte ranges that cannot be kept exact; `invalid-playlist` for
    ///   unusable URIs and byte ranges or values that cannot stand without EXT-X-DEFINE.
    /// With `measuresBandwidth`, the variant's BANDWIDTH is its peak segment bit rate, measured
    /// from the written files (`contents(of:)`).
    init(multivariant: MultivariantPlaylist, variant: Int, sources: [Source], maximumCoalescedBytes: UInt64 = 8 << 20,
         measuresBandwidth: Bool = false) throws(HLSError) {
        var hasher = try PlanFingerprint(header: "tessera-package 1\n")
        var layout = PackageFileLayout()
        let ids = PackageTrack.ids(sources.map(\.role))
        for id in ids { layout.reserve("index.m3u8", in: id) }
        var tracks: [Track] = []
        var resources: [PlannedResource] = []
        // A resource a segment, most often (maps and unlisted bytes add a few): one allocation
        // instead of a doubling run of copies.
        resources.reserveCapacity(sources.reduce(0) { $0 + $1.playlist.segments.count })
        var files: [StreamIdentity: TrackFiles] = [:]
        var gaps: [PackageManifest.Gap] = []
        var keyURIs: Set<String> = []
        var localPlaylists: [PackagePlaylistKey: String] = [:]
        for (source, id) in zip(sources, ids) {
            var planner = TrackPlanner(source: source, id: id, stream: StreamIdentity(id), layout: &layout)
            try planner.plan(into: &layout, resources: &resources)
            files[planner.stream] = planner.files
            gaps += planner.gaps
            keyURIs.formUnion(planner.keyURIs)
            let what = "The \(source.role.rawValue) playlist \(URLRedaction.redact(source.url))"
            let trackFiles = planner.files
            var cursor = TrackFiles.Cursor()
            let text = try PackageLocalizer.media(source.playlist, localURI: { uri in
                cursor.file(of: uri, in: trackFiles, layout: layout).map { layout.localURI(ofFile: $0, from: id) }
            }, what: what)
            hasher.add("\(id)\n")
            hasher.add(text)
            let playlistPath = "\(id)/index.m3u8"
            localPlaylists[source.key] = playlistPath
            tracks.append(Track(info: Self.info(source, id: id, playlist: playlistPath, duration: planner.duration, multivariant: multivariant),
                                stream: planner.stream, url: source.url, playlist: source.playlist, equivalent: source.equivalent,
                                playlistText: text))
        }
        let renditions = sources.compactMap { if case .rendition(let index) = $0.key { index } else { nil } }
        let iFrames = sources.compactMap { if case .iFrameVariant(let index) = $0.key { index } else { nil } }
        masterText = try PackageLocalizer.master(multivariant, variant: variant, renditions: renditions, iFrameVariants: iFrames,
                                                 uris: localPlaylists)
        measured = measuresBandwidth ? (multivariant, variant, localPlaylists) : nil
        hasher.add(masterText)
        let (known, largest) = Self.add(resources, to: &hasher)
        otherOwners = layout.otherOwners
        self.tracks = tracks
        self.resources = resources
        self.layout = layout
        self.files = files
        self.gaps = gaps
        gapFiles = layout.unownedPaths
        knownBytes = known
        largestRange = largest
        keyCount = keyURIs.count
        self.maximumCoalescedBytes = maximumCoalescedBytes
        fingerprint = hasher.finalize()
    }

    /// Adds `resources` to `hasher`; what they say of the plan's size.
    static func add(_ resources: [PlannedResource], to hasher: inout PlanFingerprint) -> (known: UInt64?, largest: UInt64?) {
        var bytes = PlannedBytes()
        for resource in resources {
            hasher.add(resource)
            bytes.add(resource)
        }
        return (bytes.known, bytes.largest)
    }

    /// The fetches of the resources from `index` on, coalesced as they are pulled.
    func fetches(from index: Int) -> CoalescedFetches<IndexingIterator<ArraySlice<PlannedResource>>> {
        PlannedFetch.coalescing(resources[min(index, resources.count)...], maximumBytes: maximumCoalescedBytes)
    }

    /// Requests the whole plan makes.
    var requestCount: Int {
        var count = 0
        for _ in fetches(from: 0) { count += 1 }
        return count
    }

    /// Each stream's media playlist URL, for the resolver.
    var playlistURLs: [StreamIdentity: URL] {
        Dictionary(uniqueKeysWithValues: tracks.map { ($0.stream, $0.url) })
    }

    /// The local file of `resource`.
    /// - Throws: `unsupported` for a resource the plan did not make.
    func place(_ resource: PlannedResource) throws(HLSError) -> SafeRelativePath {
        guard let file = files[resource.identity.stream]?.file(of: resource.uri, in: layout) else {
            throw HLSError(.unsupported, "\(resource.label) of \(resource.identity.stream) is not in the package plan.")
        }
        return layout.path(ofFile: file)
    }

    /// What the package's last files say, `media` written: the master's measured BANDWIDTH
    /// (when the plan measures it) the peak bit rate of the variant's segments.
    /// - Throws: `invalid-playlist` when the master cannot be written standalone.
    func contents(of media: [PackageFolder.WrittenFile]) throws(HLSError) -> PackageContents {
        var master = masterText
        var described = tracks.map { ($0.info, $0.playlistText) }
        if let measured, let track = tracks.first, let trackFiles = files[track.stream] {
            let sizes = Dictionary(media.map { ($0.path.value, $0.byteCount) }, uniquingKeysWith: { first, _ in first })
            var peak = 0.0
            var cursor = TrackFiles.Cursor()
            for segment in track.playlist.segments where !segment.isGap && segment.duration > 0 {
                guard let file = cursor.file(of: segment.uri, in: trackFiles, layout: layout),
                      let bytes = segment.byteRange?.length ?? sizes[layout.path(ofFile: file).value] else { continue }
                peak = max(peak, Double(bytes) * 8 / segment.duration)
            }
            var multivariant = measured.multivariant
            let bandwidth = max(1, UInt64(peak.rounded(.up)))
            multivariant.variants[measured.variant].bandwidth = bandwidth
            master = try PackageLocalizer.master(multivariant, variant: measured.variant, renditions: [], iFrameVariants: [], uris: measured.uris)
            let info = track.info
            described[0].0 = PackageTrack(id: info.id, role: info.role, playlist: info.playlist, codecs: info.codecs, bandwidth: bandwidth,
                                          resolution: info.resolution, provenance: "the media playlist given (its BANDWIDTH the peak segment bit rate)",
                                          segments: info.segments, duration: info.duration)
        }
        return PackageContents(kind: .vod, tracks: described, masterText: master, otherOwners: otherOwners, gaps: gaps, emptyFiles: gapFiles)
    }

    /// The track's description; `duration` is its segments' EXTINF sum (the planner's).
    private static func info(_ source: Source, id: String, playlist: String, duration: Double, multivariant: MultivariantPlaylist) -> PackageTrack {
        let count = source.playlist.segments.count
        switch source.key {
        case .variant(let index), .iFrameVariant(let index):
            let variant = source.key == .variant(index) ? multivariant.variants[index] : multivariant.iFrameVariants[index]
            return PackageTrack(id: id, role: source.role, playlist: playlist, codecs: variant.codecs, bandwidth: variant.bandwidth,
                                resolution: variant.resolution.map { "\($0.width)x\($0.height)" }, provenance: source.provenance,
                                segments: count, duration: duration)
        case .rendition(let index):
            let rendition = multivariant.renditions[index]
            return PackageTrack(id: id, role: source.role, playlist: playlist, groupId: rendition.groupId, name: rendition.name,
                                language: rendition.language, characteristics: rendition.characteristics,
                                provenance: source.provenance, segments: count, duration: duration)
        }
    }
}
