#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TesseraHTTP
import TesseraMedia
import TesseraPlaylist
import TesseraSupport

/// What a single-file download will fetch, checked before any media byte: the container, the
/// resources in output order (initialization section first for fMP4) and the requests
/// (contiguous byte ranges of one file coalesced). Layouts that cannot become one correct file
/// are refused here with a typed reason. The plan holds the playlist and nothing per resource:
/// resources and fetches are made as the transfer pulls them, so planning a 500,000-segment
/// EVENT playlist costs a pass over it, not a copy of it.
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
    public var segmentCount: Int { playlist.segments.count }
    /// Distinct AES-128 key URIs (each fetched once while in use).
    public let keyCount: Int
    /// HTTP requests for media after coalescing.
    public let requestCount: Int
    /// Total media bytes when every resource has a byte range; nil when sizes are known only
    /// from the responses.
    public let knownBytes: UInt64?
    /// Σ EXTINF, seconds.
    public let duration: Double
    /// Whether an `EXT-X-DISCONTINUITY` splits the media into runs (MPEG-TS only: the runs'
    /// timestamps are rebased into one timeline).
    public let hasDiscontinuities: Bool
    /// The largest resource's byte range, when any has one.
    public let largestRange: UInt64?

    let playlist: MediaPlaylist
    let stream: StreamIdentity
    let maximumCoalescedBytes: UInt64
    /// Identity of the plan for checkpoints: container and, per resource, kind, URI without
    /// query, byte range, EXTINF, discontinuity and IV. Keys are checked per resource instead.
    let fingerprint: SHA256Digest

    /// Resources: the initialization section (fMP4) and the segments.
    var resourceCount: Int { playlist.segments.count + (container == .fragmentedMP4 ? 1 : 0) }

    /// Plans `playlist` (fetched from `baseURL`) as `stream`.
    /// - Throws: `unsupported` for live, I-frame-only, empty, WebVTT, gap, fMP4 discontinuity,
    ///   changing-map, SAMPLE-AES and DRM-only layouts and unfetchable URIs; `invalid-playlist`
    ///   for unusable URIs, empty or overflowing byte ranges, or an encrypted initialization
    ///   section without an IV.
    /// - Complexity: O(n) in the segments, one pass, no allocation per segment for plain URIs.
    init(playlist: MediaPlaylist, baseURL: URL, stream: StreamIdentity = .main, maximumCoalescedBytes: UInt64 = 8 << 20) throws(HLSError) {
        let source = URLRedaction.redact(baseURL)
        guard playlist.hasEndList else {
            throw HLSError(.unsupported, "\(source) is a live playlist (no EXT-X-ENDLIST); download needs a complete VOD playlist.")
        }
        guard !playlist.isIFramesOnly else {
            throw HLSError(.unsupported, "\(source) is an I-frame-only playlist; it cannot be assembled into a playable file.")
        }
        guard let first = playlist.segments.first else { throw HLSError(.unsupported, "\(source) has no segments.") }
        guard !SubtitlePlaylist.isWebVTT(playlist) else {
            throw HLSError(.unsupported, "\(source) is a subtitles playlist (its segments are WebVTT): write it with -o <name>.vtt or <name>.srt.")
        }
        self.playlist = playlist
        self.stream = stream
        self.maximumCoalescedBytes = maximumCoalescedBytes
        let container: Container = first.map == nil ? .mpegTS : .fragmentedMP4
        self.container = container
        var checker = PlanChecker(baseURL: baseURL, source: source, layout: .singleFile(container), first: first)
        var hasher = try PlanFingerprint(header: "tessera-plan 2\n\(container.rawValue)\n")
        var bytes = PlannedBytes()
        var duration = 0.0
        var discontinuities = false
        var resources = Self.resourceSequence(playlist, stream: stream, container: container)
        while let resource = try resources.nextChecked(&checker) {
            hasher.add(resource)
            bytes.add(resource)
            duration += resource.duration
            discontinuities = discontinuities || resource.startsDiscontinuity
        }
        knownBytes = bytes.known
        largestRange = bytes.largest
        self.duration = duration
        hasDiscontinuities = discontinuities
        keyCount = checker.keyURIs.count
        fingerprint = hasher.finalize()
        var requests = 0
        for _ in PlannedFetch.coalescing(Self.resourceSequence(playlist, stream: stream, container: container).resources(from: 0),
                                         maximumBytes: maximumCoalescedBytes) {
            requests += 1
        }
        requestCount = requests
    }

    /// The resource at `index` of the output order.
    func resource(at index: Int) -> PlannedResource {
        Self.resourceSequence(playlist, stream: stream, container: container).resource(at: index)
    }

    /// The fetches of the resources from `index` on, coalesced as they are pulled.
    func fetches(from index: Int) -> CoalescedFetches<ResourceSequence.Resources> {
        PlannedFetch.coalescing(Self.resourceSequence(playlist, stream: stream, container: container).resources(from: index),
                                maximumBytes: maximumCoalescedBytes)
    }

    private static func resourceSequence(_ playlist: MediaPlaylist, stream: StreamIdentity, container: Container) -> ResourceSequence {
        ResourceSequence(playlist: playlist, stream: stream, hasInitialization: container == .fragmentedMP4)
    }
}
