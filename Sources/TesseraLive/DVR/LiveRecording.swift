#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TesseraHLS
import TesseraHTTP
import TesseraPlaylist
import TesseraSupport

/// Records a live HLS stream into an offline package (DVR): the variant a selection policy
/// chooses (or the media playlist given) followed by a `LiveReloader` that keeps going through
/// outages (10 minutes without any answer by default), each new complete segment fetched once
/// through the transfer engine into the package folder — decrypted, maps deduplicated — under a
/// staging folder beside the destination, and committed with one rename when the recording
/// ends: the duration reached, EXT-X-ENDLIST, `RecordingControl.stop()`, or a failure after
/// media was recorded (what came before it is committed, the report says why). Nothing is at
/// the destination before that. Gaps are honest: the origin's EXT-X-GAP segments are kept as
/// gaps, and media that left the window before it could be fetched is listed as EXT-X-GAP with
/// an estimated duration (`RecordingTimeline`) — never concatenated over. The result is a package
/// of kind `recording` that `tessera verify-package` and `tessera serve` take.
public struct LiveRecording: Sendable {
    /// Where a recording starts.
    public enum Start: Sendable, Equatable {
        /// The newest complete segment at tune-in.
        case now
        /// The first segment of the window at tune-in.
        case windowStart
    }

    /// How it records.
    public struct Options: Sendable {
        /// Seconds of media to record, gaps included; nil: until ENDLIST or a stop.
        public var duration: Duration?
        /// Where it starts. Default `.now`.
        public var start = Start.now
        /// How long an outage (no playlist answer at all) is ridden out before the recording
        /// ends. Default 10 minutes.
        public var outageLimit: Duration = .seconds(600)
        /// The variant recorded when the URL is a multivariant playlist. Default the best.
        public var selection = SelectionPolicy()
        /// The playlist parser (its byte limit bounds every reload).
        public var parser = PlaylistParser()
        /// Requests in flight, bytes held, sizes, deadlines.
        public var bounds = TransferBounds()
        /// Fetches planned ahead of the transfer before the recorder reads no further snapshot.
        public var queueCapacity = 16
        /// Fail with `live-window-advanced`, committing nothing, at the first gap the recorder
        /// would cause (media that left the window before it was fetched); the origin's own
        /// EXT-X-GAP segments do not count. Default false: list the gap and go on.
        public var failOnGap = false
        /// Whether a recording interrupted (kill -9, a crash, a power cut) on the same destination
        /// is continued. Default `.ifPossible`.
        public var resume = Resume.ifPossible
        /// Rolling retention: the oldest media evicted while recording so that at most this much
        /// is kept. Default nil: everything is kept.
        public var retention: RecordingRetention?
        /// LL-HLS parts: each segment completed after tune-in fetched part by part as published
        /// and promoted once proven, else fetched whole. Default nil: complete segments only.
        public var parts: RecordingParts?
        /// Interstitials: the assets of the Apple interstitial Date Ranges packaged as local VOD
        /// packages, the ranges kept pointing at them. Default nil: interstitial Date Ranges are
        /// omitted (and counted).
        public var interstitials: RecordingInterstitials?
        /// What a restart of the source does (`SourceContinuity`). Default `.continue`.
        public var onRestart = RestartPolicy.continue
        /// Added to every aligned poll of the playlists (`LiveReloader.Options.pollOffset`): set by
        /// `ChannelRecorder` to spread its channels' polls.
        var pollOffset: Duration = .zero
        /// The defaults.
        public init() {}
    }

    /// What a recording does when its source restarts — an encoder started again in place, a
    /// stream replaced: its media sequence goes back, or a segment listed again is not the one
    /// recorded (another URI, discontinuity sequence, PROGRAM-DATE-TIME or duration).
    public enum RestartPolicy: Sendable, Equatable {
        /// Record the new source on, behind an EXT-X-DISCONTINUITY, the time lost declared as a
        /// gap (estimated), a `sourceRestarted` event and the report's `restarts` saying so.
        case `continue`
        /// End there: what came before is committed, `RecordingReport.end` is `.sourceRestarted`.
        case end
    }

    /// Segments in a row whose server could not give them, after which the source is taken to be
    /// gone and the recording ends (committing what came before).
    public static let maximumConsecutiveUnavailable = 10

    /// What happens to a checkpoint of an interrupted recording on the same destination.
    public enum Resume: Sendable, Equatable {
        /// Continue it when there is one for this source (else start afresh).
        case ifPossible
        /// Continue it, or fail with `no-checkpoint`.
        case required
        /// Start over (the checkpoint and its files are discarded).
        case never
    }

    /// What the recording reports while it runs (from several threads): the lifecycle every
    /// media job shares — the plan, a checkpoint not used (`checkpointDiscarded`), media
    /// requests retried, progress after each resource written, Content Steering — and what only
    /// a recording says (`Notice`).
    public typealias Event = JobEvent<RecordingPlanSummary, RecordingProgress, Notice>

    let url: URL
    let destination: URL
    let client: HLSClient
    let options: Options

    /// A recording of the live playlist at `url` into the folder `destination`.
    public init(url: URL, destination: URL, client: HLSClient, options: Options = Options()) {
        self.url = url
        self.destination = destination
        self.client = client
        self.options = options
    }

    /// Records until the duration, ENDLIST or `control.stop()`, then commits.
    /// - Throws: `destination-exists`, `destination-busy`, `destination-unwritable`,
    ///   `insufficient-space` (nothing committed); the failure that ended a recording before any
    ///   segment was written (`fetch-failed`, `http-status`, `invalid-playlist`, `unsupported`,
    ///   `no-matching-variant`, `bad-key`…); `cancelled` when the task is cancelled (nothing
    ///   committed — `control.stop()` is the clean end — but, as after a full volume, the
    ///   checkpoints stay and a later run resumes).
    public func run(control: RecordingControl = RecordingControl(), events: @escaping @Sendable (Event) -> Void = { _ in }) async throws(HLSError) -> RecordingReport {
        try await MediaJob(RecordingJob(recording: self, control: control), client: client).run(events: events)
    }

    /// The checkpoints' fingerprint: the source (its URL without the query — signed values
    /// rotate — the variant and the renditions recorded with it) and where the recording
    /// starts. URL-free: a digest.
    static func fingerprint(_ source: RecordingSource, start: Start) -> String {
        let variant = source.variant.flatMap { source.multivariant?.variants[$0] }
        var identity = [String(DeltaMerge.stripped(source.mediaURL.absoluteString)), variant?.stableVariantId ?? variant?.uri ?? "-",
                        start == .now ? "now" : "start"]
        identity += source.renditions.map { "\($0.id) \($0.choice.type) \($0.choice.name)" }
        return "recording-2:" + SHA256Hasher.hash(Array(identity.joined(separator: "\n").utf8)).hex
    }
}
