#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TesseraPlaylist
import TesseraSupport

/// The URL resolver of one stream of a steered transfer: each URI of the planned stream resolves
/// on the pathway the `SteeringController` has in use. The first time a pathway serves the
/// stream, its equivalent there (`PathwayEquivalent`: the variant of the same STABLE-VARIANT-ID,
/// or the rendition of the same STABLE-RENDITION-ID) is loaded and must match the plan
/// (`PathwayPlaylistMatch`), else the transfer fails with `pathway-mismatch`; its URIs are then
/// mapped position by position. A fetch that fails on a pathway penalises it
/// (`recover(from:at:)`) and the fetch is tried again on the next one.
actor SteeringResolver: TransferURLResolver {
    private struct Located: Sendable {
        let url: URL
        let uris: [String: String]
    }

    private let controller: SteeringController
    private let stream: StreamIdentity
    private let equivalent: PathwayEquivalent
    private let planned: MediaPlaylist
    private let multivariantURL: URL
    private let load: @Sendable (URL) async throws(HLSError) -> (MediaPlaylist, URL)
    private var pathways: [String: Task<Located, any Error>] = [:]

    init(controller: SteeringController, stream: StreamIdentity, equivalent: PathwayEquivalent, planned: MediaPlaylist,
         plannedURL: URL, plannedPathway: String, multivariantURL: URL,
         load: @escaping @Sendable (URL) async throws(HLSError) -> (MediaPlaylist, URL)) {
        self.controller = controller
        self.stream = stream
        self.equivalent = equivalent
        self.planned = planned
        self.multivariantURL = multivariantURL
        self.load = load
        pathways[plannedPathway] = Task { Located(url: plannedURL, uris: [:]) }
    }

    func location(of uri: String, in stream: StreamIdentity) async throws(HLSError) -> ResolvedLocation {
        guard stream == self.stream else {
            throw HLSError(.unsupported, "The transfer names stream \(stream), whose playlist is not known.")
        }
        var tried = 0
        while true {
            let pathway = await controller.current
            do throws(HLSError) {
                let located = try await locate(pathway)
                let written = located.uris[uri] ?? uri
                return ResolvedLocation(url: try ResourceURL.resolve(written, against: located.url, what: "A resource of \(stream)"), pathway: pathway)
            } catch {
                // A pathway whose playlist cannot be loaded is penalised like a failed resource;
                // a playlist that does not match the plan fails the transfer.
                guard error.code != .pathwayMismatch, error.code != .cancelled, tried < SteeringResolver.maximumPathways,
                      await controller.pathwayFailed(pathway) != pathway else { throw error }
                tried += 1
            }
        }
    }

    nonisolated var wantsThroughput: Bool { true }

    /// Throughput samples make an exponentially weighted estimate (weight 0.3 for the newest),
    /// reported to the controller for `_HLS_throughput`; samples under 50 ms are too coarse.
    func fetched(_ bytes: Int, from location: ResolvedLocation, in duration: Duration) async {
        let seconds = SteeringState.seconds(duration)
        guard seconds >= 0.05, bytes > 0 else { return }
        let sample = Double(bytes) * 8 / seconds
        let estimate = throughput.map { 0.7 * $0 + 0.3 * sample } ?? sample
        throughput = estimate
        await controller.report(throughput: UInt64(estimate.rounded()))
    }

    private var throughput: Double?

    func recover(from error: HLSError, at location: ResolvedLocation) async -> Bool {
        guard let pathway = location.pathway else { return false }
        return await controller.pathwayFailed(pathway) != pathway
    }

    private static let maximumPathways = 8

    private func locate(_ pathway: String) async throws(HLSError) -> Located {
        let task: Task<Located, any Error>
        if let known = pathways[pathway] {
            task = known
        } else {
            let state = await controller.state
            guard let uri = equivalent.uri(on: pathway, in: state.multivariant) else {
                throw HLSError(.pathwayMismatch, "Pathway \"\(pathway)\" has no \(equivalent.description.dropFirst(4)).")
            }
            let url = try ResourceURL.resolve(uri, against: multivariantURL, what: "The playlist on pathway \"\(pathway)\"")
            let load = self.load, planned = self.planned
            task = Task { () throws -> Located in
                let (other, finalURL) = try await load(url)
                let uris = try PathwayPlaylistMatch.map(planned: planned, other: other).get()
                return Located(url: finalURL, uris: uris)
            }
            pathways[pathway] = task
        }
        // The load is shared by every fetch waiting for this pathway; a cancelled wait (the
        // transfer was cancelled) cancels it, and the next wait starts a fresh one.
        do { return try await withTaskCancellationHandler { try await task.value } onCancel: { task.cancel() } } catch {
            pathways[pathway] = nil
            if let error = error as? HLSError { throw error }
            if error is CancellationError || Task.isCancelled {
                throw HLSError(.cancelled, "The transfer was cancelled while the playlist of pathway \"\(pathway)\" loaded.")
            }
            throw HLSError(.fetchFailed, "The playlist of pathway \"\(pathway)\" could not be loaded: \(error).")
        }
    }
}
