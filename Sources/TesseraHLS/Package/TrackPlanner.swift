#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TesseraHTTP
import TesseraPlaylist
import TesseraSupport

/// The resources and local URIs of one package track, planned in playlist order over the
/// package's file layout: each map when it changes (once per distinct map), each segment, the
/// unlisted bytes before a byte range, nothing for bytes already planned; EXT-X-GAP segments
/// get a local name and no resource (the package writes their files empty).
struct TrackPlanner {
    let source: PackagePlan.Source
    let id: String
    let stream: StreamIdentity
    /// The file each URI names — fetched, covered by bytes already planned, or a gap's name —
    /// (what the folder's `place` looks up, and what the local playlist names).
    private(set) var files: TrackFiles
    private(set) var gaps: [PackageManifest.Gap] = []
    /// The distinct AES-128 key URIs (the checker's, which checked them).
    private(set) var keyURIs: Set<String> = []
    /// The EXTINF seconds of every segment, gaps included, summed in playlist order.
    private(set) var duration = 0.0

    init(source: PackagePlan.Source, id: String, stream: StreamIdentity, layout: inout PackageFileLayout) {
        self.source = source
        self.id = id
        self.stream = stream
        files = TrackFiles(id: id, baseURL: source.url, layout: &layout)
    }

    /// Appends the track's resources to `resources` and records the file each URI names
    /// (`files`).
    /// - Throws: as `PackagePlan.init`.
    mutating func plan(into layout: inout PackageFileLayout, resources: inout [PlannedResource]) throws(HLSError) {
        let playlist = source.playlist
        let redacted = URLRedaction.redact(source.url)
        guard playlist.hasEndList else {
            throw HLSError(.unsupported, "\(redacted) is a live playlist (no EXT-X-ENDLIST); a package holds a complete VOD presentation (record a live one).")
        }
        guard playlist.isIFramesOnly == (source.role == .iFrames) else {
            throw HLSError(.unsupported, "\(redacted) is \(playlist.isIFramesOnly ? "" : "not ")an I-frame-only playlist where the package needs \(source.role == .iFrames ? "one" : "a playable stream").")
        }
        guard let first = playlist.segments.first else { throw HLSError(.unsupported, "\(redacted) has no segments.") }
        var checker = PlanChecker(baseURL: source.url, source: redacted, layout: .package, first: first)
        files.reserveCapacity(playlist.segments.count)
        layout.reserveCapacity(playlist.segments.count)
        var lastMap: MediaInitializationSection?
        // Each segment is read out once (its URI made then) and planned.
        var previous: UInt64?
        for (position, segment) in playlist.segments.enumerated() {
            try plan(segment, at: position, previous: previous, checker: &checker, lastMap: &lastMap, layout: &layout,
                     resources: &resources, redacted: redacted)
            previous = segment.discontinuitySequence
        }
        keyURIs = checker.keyURIs
    }

    /// Plans one segment (and its map, when that changes).
    /// `previousDiscontinuity` is the discontinuity sequence of the segment before (nil: first).
    private mutating func plan(_ segment: MediaSegment, at position: Int, previous previousDiscontinuity: UInt64?, checker: inout PlanChecker,
                               lastMap: inout MediaInitializationSection?, layout: inout PackageFileLayout,
                               resources: inout [PlannedResource], redacted: String) throws(HLSError) {
        let stream = self.stream
        try checker.check(segment, at: position)
        duration += segment.duration
        if let map = segment.map, map.uri != lastMap?.uri || map.byteRange != lastMap?.byteRange {
            try checker.check(map: map)
            lastMap = map
            let label = "The initialization section of line \(map.line.number) of \(redacted)"
            try add(map.uri, range: map.byteRange.map(ByteRange.init), label: label, layout: &layout, resources: &resources) { range in
                .initialization(map, stream: stream, mediaSequence: segment.mediaSequence, range: range)
            }
        } else if segment.map == nil {
            lastMap = nil
        }
        if segment.isGap {
            let (key, name) = try files.key(of: segment.uri, in: &layout, what: "Segment \(position) (line \(segment.line.number))")
            files.place(segment.uri, file: layout.file(key, name: name, in: id))
            gaps.append(PackageManifest.Gap(track: id, mediaSequence: segment.mediaSequence, duration: segment.duration,
                                            reason: "EXT-X-GAP in the source"))
            return
        }
        let discontinuity = previousDiscontinuity.map { $0 != segment.discontinuitySequence } ?? false
        try add(segment.uri, range: segment.byteRange.map(ByteRange.init), label: "Segment \(segment.mediaSequence) (line \(segment.line.number)) of \(redacted)",
                layout: &layout, resources: &resources) { range in
            .segment(segment, stream: stream, range: range, startsDiscontinuity: discontinuity)
        }
    }

    /// Plans what `uri` (`range` of it) needs and names its local file; `make` builds the listed
    /// resource for a range (nil: the whole file).
    private mutating func add(_ uri: String, range: ByteRange?, label: @autoclosure () -> String, layout: inout PackageFileLayout,
                              resources: inout [PlannedResource], make: (ByteRange?) -> PlannedResource) throws(HLSError) {
        let (key, name) = try files.key(of: uri, in: &layout, what: label())
        let (file, coverage) = try layout.cover(range, key: key, name: name, in: id, what: label())
        if case .fetch(let unlisted, let listed) = coverage {
            let resource = make(listed)
            if let unlisted {
                resources.append(PlannedResource(identity: ResourceIdentity(stream: stream, kind: .unlisted,
                                                                            mediaSequence: resource.identity.mediaSequence, byteRange: unlisted),
                                                 encryption: nil, line: resource.line, uri: uri))
            }
            resources.append(resource)
        }
        files.place(uri, file: file)
    }
}
