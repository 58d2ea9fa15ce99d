#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TesseraHLS
import TesseraPlaylist

/// Content Steering for a live follow: the pathway in use (the `SteeringController`'s, its
/// manifest reloaded while the follow runs), and the playlist to follow there — the variant of
/// the followed one's STABLE-VARIANT-ID (`PathwayEquivalent`). A reload that fails penalises the
/// pathway; the follow moves to the equivalent on the next one, tuning in with a blocking
/// request from the held playlist's RENDITION-REPORT of that URL when there is one, else with a
/// plain load.
struct LiveSteering: Sendable {
    let controller: SteeringController
    let equivalent: PathwayEquivalent
    let multivariantURL: URL
    /// Whether the follow runs the controller (reloads its manifest); a shared one is its owner's.
    var runsController = true

    /// Where the follow goes after `pathway`.
    struct Move: Sendable {
        let pathway: String
        let url: URL
    }

    /// The steering of the playlist `equivalent` finds on every pathway of `multivariant` (at
    /// `url`) — on the `shared` controller when there is one — or nil when it does not steer or
    /// the playlist has no stable ID (nil: nothing to fail over to).
    static func of(_ equivalent: PathwayEquivalent?, in multivariant: MultivariantPlaylist, at url: URL, client: HLSClient,
                   penalty: Duration, shared: SteeringController? = nil,
                   onEvent: @escaping @Sendable (SteeringEvent) -> Void) throws(HLSError) -> LiveSteering? {
        guard let steering = multivariant.contentSteering, let equivalent else { return nil }
        if let shared { return LiveSteering(controller: shared, equivalent: equivalent, multivariantURL: url, runsController: false) }
        let state = try SteeringState(multivariant: multivariant, url: url, steering: steering, penalty: penalty)
        let controller = SteeringController(state: state, url: url, client: client, onEvent: onEvent)
        return LiveSteering(controller: controller, equivalent: equivalent, multivariantURL: url)
    }

    /// The steering manifest's pathway when it is no longer `pathway` (a manifest changed the
    /// priority, or a penalty expired), with the playlist there.
    func moved(from pathway: String) async -> Move? {
        let current = await controller.current
        guard current != pathway else { return nil }
        return await move(to: current)
    }

    /// A reload on `pathway` failed: it is penalised, and the follow moves to the next usable
    /// pathway's equivalent (nil when there is none: the failure is an outage).
    func failed(_ pathway: String) async -> Move? {
        var tried: Set<String> = [pathway]
        var next = await controller.pathwayFailed(pathway)
        while !tried.contains(next) {
            if let move = await move(to: next) { return move }
            tried.insert(next)
            next = await controller.pathwayFailed(next)
        }
        return nil
    }

    private func move(to pathway: String) async -> Move? {
        let state = await controller.state
        // A pathway whose equivalent cannot be fetched (no such variant, another scheme, a
        // downgrade) is no place to move to: the caller penalises it and tries the next.
        guard let uri = equivalent.uri(on: pathway, in: state.multivariant),
              let url = try? ResourceURL.resolve(uri, against: multivariantURL, what: "The playlist on pathway \"\(pathway)\"") else { return nil }
        return Move(pathway: pathway, url: url)
    }

    /// The first request on the new pathway at `url`: the next part after the held playlist's
    /// RENDITION-REPORT of that URL when the stream blocks (low-latency tune-in without a plain
    /// load), else nil (a plain load).
    static func tuneIn(at url: URL, after held: MediaPlaylist?, heldURL: URL) -> DeliveryDirectives? {
        guard let held, held.serverControl?.canBlockReload == true else { return nil }
        for report in held.renditionReports {
            // A report whose URI cannot be resolved names no playlist the follow could use.
            guard let uri = report.uri, let reported = try? ResourceURL.resolve(uri, against: heldURL, what: "A rendition report"),
                  DeliveryDirectives.url(reported, with: nil) == DeliveryDirectives.url(url, with: nil),
                  let lastMSN = report.lastMediaSequence else { continue }
            guard let lastPart = report.lastPart, held.partInformation != nil else { return DeliveryDirectives(msn: lastMSN &+ 1, part: nil, skip: nil) }
            return DeliveryDirectives(msn: lastMSN, part: Int(lastPart) + 1, skip: nil)
        }
        return nil
    }
}
