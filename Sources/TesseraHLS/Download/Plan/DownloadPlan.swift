import Foundation
import TesseraHTTP
import TesseraMedia
import TesseraPlaylist
import TesseraSupport

/// What a single-file download will fetch, resolved and checked before any media byte: the
/// container, the resources in output order (initialization section first for fMP4), the
/// requests (contiguous byte ranges of one file coalesced) and the keys. Layouts that cannot
/// become one correct file are refused here with a typed reason.
public struct DownloadPlan: Sendable {
    /// The container of the output file.
    public enum Container: String, Sendable {
        /// MPEG-2 transport stream segments, concatenated.
        case mpegTS = "mpeg-ts"
        /// Fragmented MP4: the initialization section once, then every segment's fragments.
        case fragmentedMP4 = "fmp4"
    }

    /// The output container.
    public let container: Container
    /// Media segments.
    public let segmentCount: Int
    /// Distinct AES-128 key URIs (each fetched once).
    public var keyCount: Int { keyURLs.count }
    /// HTTP requests for media after coalescing.
    public var requestCount: Int { fetches.count }
    /// Total media bytes when every resource has a byte range; nil when sizes are known only
    /// from the responses.
    public let knownBytes: UInt64?
    /// Σ EXTINF, seconds.
    public let duration: Double
    /// Whether an `EXT-X-DISCONTINUITY` splits the media into runs (MPEG-TS only: the runs'
    /// timestamps are rebased into one timeline).
    public let hasDiscontinuities: Bool

    let resources: [PlannedResource]
    let fetches: [PlannedFetch]
    let keyURLs: [URL]

    /// Plans `playlist` (fetched from `baseURL`).
    /// - Throws: `unsupported` for live, I-frame-only, empty, gap, fMP4 discontinuity,
    ///   changing-map, SAMPLE-AES and DRM-only layouts; `invalid-playlist` for unusable URIs or an encrypted
    ///   initialization section without an IV.
    init(playlist: MediaPlaylist, baseURL: URL, maximumCoalescedBytes: UInt64 = 8 << 20) throws(HLSError) {
        let source = URLRedaction.redact(baseURL)
        guard playlist.hasEndList else {
            throw HLSError(.unsupported, "\(source) is a live playlist (no EXT-X-ENDLIST); download needs a complete VOD playlist.")
        }
        guard !playlist.isIFramesOnly else {
            throw HLSError(.unsupported, "\(source) is an I-frame-only playlist; it cannot be assembled into a playable file.")
        }
        guard let first = playlist.segments.first else { throw HLSError(.unsupported, "\(source) has no segments.") }
        container = first.map == nil ? .mpegTS : .fragmentedMP4
        hasDiscontinuities = playlist.segments.contains { $0.discontinuitySequence != first.discontinuitySequence }
        var resources: [PlannedResource] = []
        resources.reserveCapacity(playlist.segments.count + 1)
        if let map = first.map {
            resources.append(try Self.initialization(map, baseURL: baseURL))
        }
        var duration = 0.0
        for (index, segment) in playlist.segments.enumerated() {
            let label = "Segment \(index) (line \(segment.line.number))"
            try Self.check(segment, label: label, first: first, source: source, container: container)
            let url = try ResourceURL.resolve(segment.uri, against: baseURL, what: label)
            resources.append(PlannedResource(
                index: resources.count, kind: .segment, url: url,
                range: segment.byteRange.map { ByteRange(offset: $0.resolvedOffset, length: $0.length) },
                encryption: try Self.encryption(segment.keys, label: label, baseURL: baseURL,
                                                iv: AES128IV.mediaSequence(segment.mediaSequence)),
                startsDiscontinuity: index > 0 && segment.discontinuitySequence != playlist.segments[index - 1].discontinuitySequence,
                duration: segment.duration, label: label))
            duration += segment.duration
        }
        self.resources = resources
        segmentCount = playlist.segments.count
        self.duration = duration
        fetches = PlannedFetch.coalescing(resources, maximumBytes: maximumCoalescedBytes)
        var seen = Set<URL>()
        keyURLs = resources.compactMap(\.encryption?.keyURL).filter { seen.insert($0).inserted }
        knownBytes = resources.allSatisfy { $0.range?.length != nil }
            ? resources.reduce(0) { $0 + ($1.range?.length ?? 0) } : nil
    }

    /// The layout rules one segment must pass.
    private static func check(_ segment: MediaSegment, label: String, first: MediaSegment, source: String,
                              container: Container) throws(HLSError) {
        guard !segment.isGap else {
            throw HLSError(.unsupported, "\(label) of \(source) is marked EXT-X-GAP; a file with a hole is refused.")
        }
        guard container == .mpegTS || segment.discontinuitySequence == first.discontinuitySequence else {
            throw HLSError(.unsupported, "\(label) of \(source) follows an EXT-X-DISCONTINUITY; joining fMP4 runs would need their tfdt rewritten, which is not supported (MPEG-TS runs are rebased).")
        }
        guard sameMap(segment.map, first.map) else {
            throw HLSError(.unsupported, "\(label) of \(source) changes the initialization section (EXT-X-MAP); one file holds one.")
        }
    }

    private static func sameMap(_ lhs: MediaInitializationSection?, _ rhs: MediaInitializationSection?) -> Bool {
        switch (lhs, rhs) {
        case (nil, nil): true
        case let (lhs?, rhs?): lhs.uri == rhs.uri && lhs.byteRange?.resolvedOffset == rhs.byteRange?.resolvedOffset
            && lhs.byteRange?.length == rhs.byteRange?.length
        default: false
        }
    }

    private static func initialization(_ map: MediaInitializationSection, baseURL: URL) throws(HLSError) -> PlannedResource {
        let label = "Initialization section (line \(map.line.number))"
        let url = try ResourceURL.resolve(map.uri, against: baseURL, what: label)
        return PlannedResource(index: 0, kind: .initialization, url: url,
                               range: map.byteRange.map { ByteRange(offset: $0.resolvedOffset, length: $0.length) },
                               encryption: try encryption(map.keys, label: label, baseURL: baseURL, iv: nil),
                               startsDiscontinuity: false, duration: 0, label: label)
    }

    /// The identity AES-128 key among `keys` (whatever their order), or nil when clear.
    /// `iv` is the media-sequence IV when the key has none; nil means an explicit IV is required.
    private static func encryption(_ keys: [SegmentKey], label: String, baseURL: URL, iv: [UInt8]?) throws(HLSError) -> ResourceEncryption? {
        guard !keys.isEmpty else { return nil }
        guard let key = keys.first(where: \.isIdentity) else {
            let formats = keys.map(\.keyFormat).joined(separator: ", ")
            throw HLSError(.unsupported, "\(label) is encrypted only for KEYFORMAT \(formats) (DRM); only identity AES-128 keys are supported.")
        }
        guard key.method == .aes128 else {
            throw HLSError(.unsupported, "\(label) uses METHOD=\(key.method); only whole-resource AES-128 is supported (SAMPLE-AES, SAMPLE-AES-CTR and AES-256-GCM are refused).")
        }
        guard let uri = key.uri else {
            throw HLSError(.invalidPlaylist, "\(label): its EXT-X-KEY (line \(key.line.number)) has no URI.")
        }
        guard let resolvedIV = key.iv ?? iv else {
            throw HLSError(.invalidPlaylist, "\(label) is AES-128 encrypted but its EXT-X-KEY (line \(key.line.number)) has no IV; an encrypted initialization section needs one (RFC 8216bis §4.4.4.5).")
        }
        let keyURL = try ResourceURL.resolve(uri, against: baseURL, what: "Key of \(label.lowercased())")
        return ResourceEncryption(keyURL: keyURL, iv: resolvedIV)
    }
}
