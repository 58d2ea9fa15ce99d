#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TesseraHTTP
import TesseraPlaylist
import TesseraSupport

/// Makes an offline package of an HLS VOD presentation: the variant, audio and subtitle
/// renditions (and, asked, an I-frame stream) a `SelectionPolicy` chooses, as plaintext local
/// files with local playlists a player opens without the network, a `master.m3u8`, and a
/// `manifest.json` plus `manifest-sha256.txt` that prove nothing is missing or altered. Media is
/// written through the transfer engine into the package folder, staged beside
/// the destination — checkpointed, resumable after a kill — and the folder is published with one
/// rename when everything is in it: nothing appears at the destination before that. Every
/// request goes through the caller's `HLSClient`.
public struct PackageDownload: Sendable {
    private let url: URL
    package let destination: URL
    private let options: Options
    private let client: HLSClient
    /// Whether the plan takes one subtitle track alone: the chosen subtitle rendition, or the
    /// media playlist given as one (a subtitles-only download).
    package var subtitlesOnly = false

    /// A job that packages the multivariant playlist at `url` into the folder `destination`.
    public init(url: URL, destination: URL, client: HLSClient, options: Options = Options()) {
        self.url = url
        self.destination = destination
        self.options = options
        self.client = client
    }

    /// Loads and plans without fetching media or keys, or touching the destination.
    /// - Throws: as `run`, for the playlist and plan stages.
    public func plan() async throws(HLSError) -> PackagePlanSummary {
        try await MediaJob(self, client: client).plan()
    }

    /// Runs the job; `events` may be called from several threads.
    /// - Throws: `HLSError`: `destination-exists`, `destination-unwritable`, `destination-busy`,
    ///   `insufficient-space`, `fetch-failed`, `http-status`, `invalid-playlist`,
    ///   `no-matching-variant`, `unsupported`, `bad-key`, `decrypt-failed`, `budget-exceeded`,
    ///   `source-changed` (twice in one run), `cancelled`.
    public func run(events: @escaping @Sendable (Event) -> Void = { _ in }) async throws(HLSError) -> PackageReport {
        try await MediaJob(self, client: client).run(events: events)
    }

    /// A loaded and planned package.
    package struct Planned: Sendable {
        private(set) var plan: PackagePlan
        private(set) var summary: PackagePlanSummary
        let multivariant: MultivariantPlaylist
        /// The multivariant playlist's URL (the final one).
        let url: URL
        /// The pathway the selection was made on.
        let pathway: String
        /// Whether the transfer follows Content Steering.
        let steers: Bool
        /// The variables the multivariant playlist declared.
        let variables: [String: String]

        /// The same choice planned as a streamed movie fetches it (`PackagePlan.stream(muxing:)`, in
        /// place), its summary made again.
        /// - Throws: as `PackagePlan.stream(muxing:)`.
        mutating func stream(muxing muxed: Set<StreamIdentity>) throws(HLSError) {
            try plan.stream(muxing: muxed)
            summary = Self.summary(of: plan, reasons: summary.reasons)
        }

        /// What `plan` will hold, the selection's `reasons` with it.
        static func summary(of plan: PackagePlan, reasons: [String]) -> PackagePlanSummary {
            var byTrack: [String: Int] = [:]
            for resource in plan.resources { byTrack[resource.identity.stream.rawValue, default: 0] += 1 }
            return PackagePlanSummary(tracks: plan.tracks.map(\.info), resourcesByTrack: byTrack, resources: plan.resources.count,
                                      requests: plan.requestCount, keys: plan.keyCount, knownBytes: plan.knownBytes,
                                      gaps: plan.gaps.count, reasons: reasons)
        }
    }

    /// Loads the multivariant playlist (or a media playlist as its one variant),
    /// chooses by the selection policy, loads the chosen playlists and plans the package.
    package func plan(_ loader: PlaylistLoader, events: @escaping @Sendable (Event) -> Void) async throws(HLSError) -> Planned {
        try plan(try await choose(loader))
    }

    /// Loads the multivariant playlist (or a media playlist as its one variant), chooses by the
    /// selection policy and loads the chosen playlists: the plan's sources, not yet planned.
    package func choose(_ loader: PlaylistLoader) async throws(HLSError) -> Chosen {
        let (playlist, rootURL, variables) = try await loader.load(url, what: "Playlist")
        let multivariant: MultivariantPlaylist
        switch playlist {
        case .multivariant(let source): multivariant = source
        case .media:
            // A presentation of one variant (ffmpeg's default output, an interstitial asset): its
            // master.m3u8 names it with the BANDWIDTH of its peak segment bit rate, measured from
            // the files once written.
            multivariant = MultivariantPlaylist(variants: [Variant(uri: rootURL.absoluteString, bandwidth: 1)])
        }
        // A media playlist given as the entry is the variant's own: read once, not fetched again.
        let entry: MediaPlaylist? = if case .media(let media) = playlist { media } else { nil }
        let measured = entry != nil
        let selection = PresentationSelector.select(options.selection, from: multivariant)
        guard let variant = selection.variant else {
            throw HLSError(.noMatchingVariant, "\(URLRedaction.redact(rootURL)): \(selection.reasons.last ?? "no variant qualifies").")
        }
        var chosen = try PackageSelection.sources(of: selection, in: multivariant, at: rootURL, policy: options.selection, iFrames: options.iFrames)
        if subtitlesOnly { chosen = try PackageSelection.subtitlesAlone(chosen, given: measured, reasons: selection.reasons) }
        let steers = options.steering && multivariant.contentSteering != nil && !subtitlesOnly
        if steers { chosen = try PackageSelection.steered(chosen, in: multivariant, variant: variant) }
        var sources: [PackagePlan.Source] = []
        try await OrderedTransfer.run(ListInput(chosen), parallelism: 8, size: { _ in 1 },
                                      work: { chosen throws(HLSError) -> PackagePlan.Source in
                                          let (media, finalURL) = if let entry, chosen.url.absoluteString == rootURL.absoluteString {
                                              (entry, rootURL)
                                          } else {
                                              try await loader.loadMediaPlaylist(chosen.url, importing: variables)
                                          }
                                          return PackagePlan.Source(role: chosen.role, key: chosen.key, provenance: chosen.provenance,
                                                                    playlist: media, url: finalURL, equivalent: chosen.equivalent)
                                      },
                                      consume: { source throws(HLSError) in sources.append(source) })
        return Chosen(multivariant: multivariant, url: rootURL, variables: variables, variant: variant, reasons: selection.reasons,
                      pathway: selection.pathway, steers: steers, measuresBandwidth: measured, sources: sources)
    }

    /// Plans the package of `chosen`.
    /// - Throws: as `PackagePlan.init`.
    package func plan(_ chosen: Chosen) throws(HLSError) -> Planned {
        let plan = try PackagePlan(multivariant: chosen.multivariant, variant: chosen.variant, sources: chosen.sources,
                                   maximumCoalescedBytes: options.maximumCoalescedBytes, measuresBandwidth: chosen.measuresBandwidth)
        return Planned(plan: plan, summary: Planned.summary(of: plan, reasons: chosen.reasons), multivariant: chosen.multivariant, url: chosen.url,
                       pathway: chosen.pathway, steers: chosen.steers, variables: chosen.variables)
    }
}

extension PackageDownload: JobPlanner {
    package var settings: JobSettings {
        JobSettings(noun: "package", bounds: options.bounds, resumes: options.resumes, steeringPenalty: options.steeringPenalty,
                    overwrite: options.overwrite)
    }

    package func summary(of planned: Planned) -> PackagePlanSummary { planned.summary }

    package func fingerprint(of planned: Planned) -> String { planned.plan.fingerprint.hex }

    package func sizes(of planned: Planned) -> (known: UInt64?, largestRange: UInt64?) { (planned.plan.knownBytes, planned.plan.largestRange) }

    /// Each track on the steering pathway, with failover to its stable-ID equivalent on the next
    /// pathway, when the presentation steers.
    package func steering(of planned: Planned, events: @escaping @Sendable (Event) -> Void) -> JobSteering? {
        guard planned.steers, let steering = planned.multivariant.contentSteering else { return nil }
        let tracks = planned.plan.tracks.compactMap { track in
            track.equivalent.map { JobSteering.Track(stream: track.stream, equivalent: $0, playlist: track.playlist, url: track.url) }
        }
        // The first track (the variant) answers recoveries: without it nothing is steered.
        guard let first = planned.plan.tracks.first, tracks.first?.stream == first.stream else { return nil }
        return JobSteering(multivariant: planned.multivariant, url: planned.url, steering: steering, pathway: planned.pathway, tracks: tracks,
                           variables: planned.variables)
    }

    package func resolver(of planned: Planned) -> any TransferURLResolver { PlaylistURLResolver(playlists: planned.plan.playlistURLs) }

    /// The encryption of each record's resource, with the key fingerprint the record holds.
    package func encryption(of records: [ResourceFileRecord], in planned: Planned) -> [(encryption: ResourceEncryption, fingerprint: String?)] {
        let encryption = Dictionary(planned.plan.resources.compactMap { resource in resource.encryption.map { (resource.identity, $0) } },
                                    uniquingKeysWith: { first, _ in first })
        return records.compactMap { record in record.identity.flatMap { encryption[$0] }.map { ($0, record.key) } }
    }

    package func output(for planned: Planned, staging: StagingDirectory, checkpoint: CheckpointLog<ResourceFileRecord>, context: JobContext,
                        resumes: Bool) throws(HLSError) -> PackageOutput {
        PackageOutput(plan: planned.plan, staging: staging, checkpoint: checkpoint, spillFolder: context.paths.spill,
                      checkpointBytes: options.checkpointBytes, clock: context.clock)
    }

    /// The resources not restored, coalesced; progress for the whole package and each track.
    package func transfer(_ planned: Planned, into output: PackageOutput, restored: JobRestoration,
                          context: JobContext, events: @escaping @Sendable (Event) -> Void) async throws(HLSError) {
        let plan = planned.plan
        let done = output.restored
        let pending = PendingResources(resources: plan.resources, done: done)
        var perTrack: [String: Int] = [:]
        for resource in plan.resources where done.contains(resource.identity) { perTrack[resource.identity.stream.rawValue, default: 0] += 1 }
        var order = pending.makeIterator()
        var reported = 0
        let total = plan.resources.count
        let folder = output.writer
        let received = context.engine.processor.received
        // Between written resources, the bytes of those in flight.
        let relay = ProgressRelay<PackageProgress>(received: received, restored: restored.fetchedBytes,
                                                   receiving: { PackageProgress(whole: $0.whole.receiving(max($0.whole.bytesReceived, $1)), tracks: $0.tracks) },
                                                   emit: { events(.progress($0)) })
        defer { relay.stop() }
        let report = {
            // Resources are written in order: the ones written since the last report are the next pending ones.
            while reported < folder.resourcesDone - done.count, let resource = order.next() {
                perTrack[resource.identity.stream.rawValue, default: 0] += 1
                reported += 1
            }
            relay.report(PackageProgress(whole: DownloadProgress(resourcesDone: folder.resourcesDone, resourceCount: total,
                                                                 bytesWritten: folder.bytesWritten,
                                                                 bytesFetched: restored.fetchedBytes + folder.bytesWritten,
                                                                 totalBytes: plan.knownBytes, bytesReceived: restored.fetchedBytes + received.count),
                                         tracks: perTrack))
        }
        report()
        try await context.engine.run(ListInput(PlannedFetch.coalescing(pending, maximumBytes: plan.maximumCoalescedBytes)),
                             firstIndex: done.count, into: output.writer, progress: report)
    }

    package func report(_ planned: Planned, product: PackageManifest, output: PackageOutput, restored: JobRestoration) -> PackageReport {
        PackageReport(destination: destination, plan: planned.summary, manifest: product, bytesWritten: output.writer.bytesWritten,
                      resumedResources: restored.resources)
    }
}
