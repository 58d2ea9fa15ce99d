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
/// written through the transfer engine into the per-resource sink under a staging folder beside
/// the destination — checkpointed, resumable after a kill — and the folder is published with one
/// rename when everything is in it: nothing appears at the destination before that. Every
/// request goes through the caller's `HLSClient`.
public struct PackageDownload: Sendable {
    private let url: URL
    private let destination: URL
    private let options: Options
    private let client: HLSClient

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
        try await client.withFetcher { fetcher throws(HLSError) in try await load(fetcher).summary }
    }

    /// Runs the job; `events` may be called from several threads.
    /// - Throws: `HLSError`: `destination-exists`, `destination-unwritable`, `destination-busy`,
    ///   `insufficient-space`, `fetch-failed`, `http-status`, `invalid-playlist`,
    ///   `no-matching-variant`, `unsupported`, `bad-key`, `decrypt-failed`, `budget-exceeded`,
    ///   `source-changed` (twice in one run), `cancelled`.
    public func run(events: @escaping @Sendable (Event) -> Void = { _ in }) async throws(HLSError) -> PackageReport {
        try await client.withFetcher(retry: { event in
            if case .retry(let attempt, let delay, let reason) = event.kind {
                events(.retry(url: event.url, attempt: attempt, delay: delay, reason: reason))
            }
        }) { fetcher throws(HLSError) in
            try await runLocked(fetcher: fetcher, events: events)
        }
    }

    private func runLocked(fetcher: ResourceFetcher, events: @escaping @Sendable (Event) -> Void) async throws(HLSError) -> PackageReport {
        let paths = DownloadPaths(destination: destination)
        try? FileManager.default.createDirectory(at: destination.deletingLastPathComponent(), withIntermediateDirectories: true)   // else the lock reports why
        let lock: DestinationLock
        do { lock = try DestinationLock(destination: destination, path: paths.lock) } catch { throw HLSError(destination: error) }
        defer { lock.release() }
        let job = PackageJob(paths: paths, options: options, fetcher: fetcher, clock: client.clock, events: events)
        do {
            return try await steered(try await load(fetcher), fetcher: fetcher, events: events) { planned, resolver throws(HLSError) in
                try await job.run(planned, resolver: resolver, resumes: nil)
            }
        } catch where error.code == .sourceChanged {
            events(.checkpointDiscarded(reason: error.message))
            return try await steered(try await load(fetcher), fetcher: fetcher, events: events) { planned, resolver throws(HLSError) in
                try await job.run(planned, resolver: resolver, resumes: false)
            }
        }
    }

    /// Runs `work` with the resolver of `planned`: each track on the steering pathway, with the
    /// steering manifest reloaded while it runs and failover to the stable-ID equivalent on the
    /// next pathway, when the presentation steers; else against each playlist's URL.
    private func steered(_ planned: Planned, fetcher: ResourceFetcher, events: @escaping @Sendable (Event) -> Void,
                         _ work: (Planned, any TransferURLResolver) async throws(HLSError) -> PackageReport) async throws(HLSError) -> PackageReport {
        let plan = planned.plan
        guard planned.steers, let steering = planned.multivariant.contentSteering else {
            return try await work(planned, PlaylistURLResolver(playlists: plan.playlistURLs))
        }
        let state = try SteeringState(multivariant: planned.multivariant, url: planned.url, steering: steering, penalty: options.steeringPenalty)
        let controller = SteeringController(state: state, url: planned.url, client: client) { events(.steering($0)) }
        let loader = PlaylistLoader(fetcher: fetcher)
        var resolvers: [StreamIdentity: any TransferURLResolver] = [:]
        for track in plan.tracks {
            guard let equivalent = track.equivalent else { continue }
            resolvers[track.stream] = SteeringResolver(controller: controller, stream: track.stream, equivalent: equivalent, planned: track.playlist,
                                                       plannedURL: track.url, plannedPathway: planned.pathway,
                                                       multivariantURL: planned.url) { url throws(HLSError) in
                try await loader.loadMediaPlaylist(url)
            }
        }
        guard let first = plan.tracks.first, let primary = resolvers[first.stream] else {
            return try await work(planned, PlaylistURLResolver(playlists: plan.playlistURLs))
        }
        let reloads = Task { await controller.run() }
        defer { reloads.cancel() }
        return try await work(planned, StreamResolvers(resolvers, primary: primary))
    }

    /// A loaded and planned package.
    struct Planned: Sendable {
        let plan: PackagePlan
        let summary: PackagePlanSummary
        let multivariant: MultivariantPlaylist
        /// The multivariant playlist's URL (the final one).
        let url: URL
        /// The pathway the selection was made on.
        let pathway: String
        /// Whether the transfer follows Content Steering.
        let steers: Bool
    }

    private func load(_ fetcher: ResourceFetcher) async throws(HLSError) -> Planned {
        let loader = PlaylistLoader(fetcher: fetcher)
        let (playlist, rootURL, variables) = try await loader.load(url, what: "Playlist")
        let multivariant: MultivariantPlaylist
        switch playlist {
        case .multivariant(let source): multivariant = source
        case .media where options.acceptsMediaPlaylist:
            // One variant; its BANDWIDTH is measured from the files once written.
            multivariant = MultivariantPlaylist(variants: [Variant(uri: rootURL.absoluteString, bandwidth: 1)])
        case .media:
            throw HLSError(.unsupported, "\(URLRedaction.redact(rootURL)) is a media playlist; a package starts from a multivariant playlist (download takes one media playlist into a file).")
        }
        let measured = if case .media = playlist { true } else { false }
        let selection = PresentationSelector.select(options.selection, from: multivariant)
        guard let variant = selection.variant else {
            throw HLSError(.noMatchingVariant, "\(URLRedaction.redact(rootURL)): \(selection.reasons.last ?? "no variant qualifies").")
        }
        var chosen = try PackageSelection.sources(of: selection, in: multivariant, at: rootURL, policy: options.selection, iFrames: options.iFrames)
        let steers = options.steering && multivariant.contentSteering != nil
        if steers { chosen = try PackageSelection.steered(chosen, in: multivariant, variant: variant) }
        var sources: [PackagePlan.Source] = []
        try await OrderedTransfer.run(ListInput(chosen), parallelism: 8, size: { _ in 1 },
                                      work: { chosen throws(HLSError) -> PackagePlan.Source in
                                          let (media, finalURL) = try await loader.loadMediaPlaylist(chosen.url, importing: variables)
                                          return PackagePlan.Source(role: chosen.role, key: chosen.key, provenance: chosen.provenance,
                                                                    playlist: media, url: finalURL, equivalent: chosen.equivalent)
                                      },
                                      consume: { source throws(HLSError) in sources.append(source) })
        let plan = try PackagePlan(multivariant: multivariant, variant: variant, sources: sources,
                                   maximumCoalescedBytes: options.maximumCoalescedBytes, measuresBandwidth: measured)
        var byTrack: [String: Int] = [:]
        for resource in plan.resources { byTrack[resource.identity.stream.rawValue, default: 0] += 1 }
        let summary = PackagePlanSummary(tracks: plan.tracks.map(\.info), resourcesByTrack: byTrack, resources: plan.resources.count,
                                         requests: plan.requestCount, keys: plan.keyCount, knownBytes: plan.knownBytes,
                                         gaps: plan.gaps.count, reasons: selection.reasons)
        return Planned(plan: plan, summary: summary, multivariant: multivariant, url: rootURL, pathway: selection.pathway, steers: steers)
    }
}
