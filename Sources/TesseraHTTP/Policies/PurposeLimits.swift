/// Transfer limits per request purpose: what a playlist, a segment, a key or a steering
/// manifest may cost in bytes and time. The pipeline applies the entry for a request's purpose
/// to the request's own limits: its times (connect, first byte, low-speed floor, total) are the
/// entry's — the policy decides how long each kind of fetch may take — and its byte bounds are
/// the smaller of the two, so a purpose policy is a ceiling on size a request can only tighten.
/// Purposes without an entry keep the request's limits.
public struct PurposeLimits: Sendable, Equatable {
    private var entries: [RequestPurpose: TransferLimits]

    /// No purpose limits.
    public init() { entries = [:] }

    /// The limits for `purpose`, when set.
    public subscript(purpose: RequestPurpose) -> TransferLimits? {
        get { entries[purpose] }
        set { entries[purpose] = newValue }
    }

    /// Purposes with an entry.
    public var purposes: [RequestPurpose] { Array(entries.keys) }

    /// These limits with `defaults` filling the purposes they lack.
    public func filling(from defaults: PurposeLimits) -> PurposeLimits {
        var result = self
        for (purpose, limits) in defaults.entries where result.entries[purpose] == nil { result.entries[purpose] = limits }
        return result
    }

    /// `limits` under the entry for `purpose`: its times, the smaller byte bounds.
    public func apply(to limits: TransferLimits, purpose: RequestPurpose) -> TransferLimits {
        guard let bound = entries[purpose] else { return limits }
        var result = limits
        result.connectTimeout = bound.connectTimeout
        result.timeToFirstByte = bound.timeToFirstByte
        result.lowSpeedBytesPerSecond = bound.lowSpeedBytesPerSecond
        result.lowSpeedWindow = bound.lowSpeedWindow
        result.total = bound.total
        result.maximumBodyBytes = min(limits.maximumBodyBytes, bound.maximumBodyBytes)
        result.maximumHeaderBytes = min(limits.maximumHeaderBytes, bound.maximumHeaderBytes)
        return result
    }

    /// What HLS jobs use unless told otherwise:
    /// - playlists (multivariant, media, live reload): 16 MiB, 10 s to the first byte;
    ///   (every purpose keeps `TransferLimits`' other defaults: 10 s to connect, no total;)
    /// - media (segments, maps, parts): a low-speed floor of 1 KiB/s averaged over 20 s — a
    ///   segment trickling at a few bytes a second fails in 20 s instead of holding the job;
    /// - keys: 4 KiB, 10 s to the first byte;
    /// - steering manifests: 64 KiB, 10 s; session data: 1 MiB, 10 s.
    public static var hls: PurposeLimits {
        var limits = PurposeLimits()
        var playlist = TransferLimits()
        playlist.timeToFirstByte = .seconds(10)
        playlist.maximumBodyBytes = 16 << 20
        limits[.multivariantPlaylist] = playlist
        limits[.mediaPlaylist] = playlist
        limits[.liveReload] = playlist
        var media = TransferLimits()
        media.lowSpeedBytesPerSecond = 1024
        media.lowSpeedWindow = .seconds(20)
        limits[.segment] = media
        limits[.map] = media
        limits[.part] = media
        var small = TransferLimits()
        small.timeToFirstByte = .seconds(10)
        small.maximumBodyBytes = 4096
        limits[.key] = small
        small.maximumBodyBytes = 64 << 10
        limits[.steeringManifest] = small
        small.maximumBodyBytes = 1 << 20
        limits[.sessionData] = small
        return limits
    }
}
