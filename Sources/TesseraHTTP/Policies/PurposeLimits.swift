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

    /// The low-speed floor of the small resources a job must have before it can go on —
    /// playlists, keys, steering manifests, session data and asset lists: 1 KiB/s averaged over
    /// `smallResourceFloorWindow`. A playlist trickling at a few bytes a second fails then,
    /// instead of holding the job for as long as its byte limit allows (16 MiB at 2 B/s: 97 days).
    public static let smallResourceFloor = 1024
    /// See `smallResourceFloor`.
    public static let smallResourceFloorWindow = Duration.seconds(10)
    /// The whole-transfer deadline of one attempt at a playlist, steering manifest or session
    /// data (keys: `keyDeadline`), however fast the bytes come.
    public static let playlistDeadline = Duration.seconds(30)
    /// The whole-transfer deadline of one attempt at a key.
    public static let keyDeadline = Duration.seconds(10)

    /// What HLS jobs use unless told otherwise (every purpose keeps `TransferLimits`' other
    /// defaults: 10 s to connect):
    /// - playlists (multivariant, media, live reload): 16 MiB, 10 s to the first byte, the
    ///   small resources' low-speed floor (1 KiB/s over 10 s) and 30 s for the whole transfer;
    /// - media (segments, maps, parts): a low-speed floor of 1 KiB/s averaged over 20 s — a
    ///   segment trickling at a few bytes a second fails in 20 s instead of holding the job;
    /// - keys: 4 KiB, 10 s to the first byte, the floor, 10 s in all;
    /// - steering manifests: 64 KiB; session data and asset lists: 1 MiB; each 10 s to the
    ///   first byte, the floor, 30 s in all.
    /// Each bound is per attempt: the retry policy decides how many attempts there are.
    /// (Blocking reloads have a purpose of their own: a server may hold them for three target
    /// durations, so the reloader sets their times itself.)
    public static var hls: PurposeLimits {
        var limits = PurposeLimits()
        var small = TransferLimits()
        small.timeToFirstByte = .seconds(10)
        small.lowSpeedBytesPerSecond = smallResourceFloor
        small.lowSpeedWindow = smallResourceFloorWindow
        small.total = playlistDeadline
        small.maximumBodyBytes = 16 << 20
        limits[.multivariantPlaylist] = small
        limits[.mediaPlaylist] = small
        limits[.liveReload] = small
        small.maximumBodyBytes = 64 << 10
        limits[.steeringManifest] = small
        small.maximumBodyBytes = 1 << 20
        limits[.sessionData] = small
        small.maximumBodyBytes = 4096
        small.total = keyDeadline
        limits[.key] = small
        var media = TransferLimits()
        media.lowSpeedBytesPerSecond = 1024
        media.lowSpeedWindow = .seconds(20)
        limits[.segment] = media
        limits[.map] = media
        limits[.part] = media
        return limits
    }

    /// The purposes of the small resources a job waits on (playlists, keys, steering manifests,
    /// session data): what a `--timeout` bounds as a whole transfer.
    public static let smallResources: [RequestPurpose] = [.multivariantPlaylist, .mediaPlaylist, .liveReload, .key, .steeringManifest, .sessionData]
}
