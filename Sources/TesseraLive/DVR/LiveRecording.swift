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
/// through the transfer engine into the per-resource sink — decrypted, maps deduplicated — under a
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
        /// The defaults.
        public init() {}
    }

    /// What the recording reports while it runs (from several threads).
    public enum Event: Sendable {
        /// After each resource written.
        case progress(RecordingProgress)
        /// The live reloader's own events (retries, refusals, pathway moves).
        case reload(LiveReloader.Event)
        /// Media sequence `mediaSequence` left the window before it could be fetched: a gap.
        case gap(mediaSequence: UInt64, duration: Double)
    }

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
    ///   committed: `control.stop()` is the clean end).
    public func run(control: RecordingControl = RecordingControl(), events: @escaping @Sendable (Event) -> Void = { _ in }) async throws(HLSError) -> RecordingReport {
        try await client.withFetcher { fetcher throws(HLSError) in
            let paths = DownloadPaths(destination: destination)
            try? FileManager.default.createDirectory(at: destination.deletingLastPathComponent(), withIntermediateDirectories: true)   // else the lock says why
            let lock: DestinationLock
            do throws(SupportError) { lock = try DestinationLock(destination: destination, path: paths.lock) } catch { throw HLSError(destination: error) }
            defer { lock.release() }
            let source = try await RecordingSource.load(url, selection: options.selection, fetcher: fetcher)
            let staging: StagingDirectory
            do throws(SupportError) { staging = try StagingDirectory(destination: destination, policy: .refuse, resumableAt: paths.partial) } catch {
                throw HLSError(destination: error)
            }
            let log: CheckpointLog<ResourceFileRecord>
            do throws(HLSError) {
                log = try CheckpointLog<ResourceFileRecord>(path: paths.checkpoint, fingerprint: "recording", resume: false)
                try SpillFolder.prepare(paths.spill)
            } catch {
                staging.discard()
                throw error
            }
            let session = RecordingSession(recording: self, source: source, paths: paths, staging: staging, log: log, fetcher: fetcher,
                                           control: control, events: events)
            do throws(HLSError) {
                let report = try await session.run()
                log.remove()
                FolderTree.remove(at: paths.spill)
                return report
            } catch {
                staging.discard()
                log.remove()
                FolderTree.remove(at: paths.spill)
                throw error
            }
        }
    }
}
