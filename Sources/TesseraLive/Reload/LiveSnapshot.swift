#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TesseraPlaylist

/// The live playlist as a reload found it, how it was obtained, when, and what changed since the
/// snapshot before — or, when a slow consumer was handed several reloads at once, since the last
/// snapshot it took (`coalesced` counts them): the latest state, nothing of what changed lost.
public struct LiveSnapshot: Sendable {
    /// The playlist (a delta update already merged).
    public let playlist: MediaPlaylist
    /// How the newest reload was obtained.
    public let mode: ReloadScheduler.Mode
    /// When it arrived, on the reloader's clock (since tune-in).
    public let at: Duration
    /// Media sequence numbers that appeared, first to last (nil: none).
    public let newSegments: ClosedRange<UInt64>?
    /// Parts that appeared (of any segment).
    public let newParts: Int
    /// Media sequence numbers an outage made the reloader miss, in order.
    public let missed: [ClosedRange<UInt64>]
    /// Reloads this snapshot stands for (1 unless a slow consumer let them pile up).
    public let coalesced: Int
    /// The Content Steering pathway it came from (nil when the presentation does not steer).
    public let pathway: String?
    /// The response's freshness facts (`Age`, max-age), for `LiveHealth`.
    public let freshness: LiveHealth.Freshness?
    /// The playlist's URL as answered (after redirects, without Delivery Directives): what its
    /// relative URIs resolve against. May carry signed query values: never log it unredacted.
    public let url: URL?

    /// A snapshot of one reload.
    public init(playlist: MediaPlaylist, mode: ReloadScheduler.Mode, at: Duration, newSegments: ClosedRange<UInt64>?,
                newParts: Int, missed: [ClosedRange<UInt64>] = [], coalesced: Int = 1, pathway: String? = nil,
                freshness: LiveHealth.Freshness? = nil, url: URL? = nil) {
        self.playlist = playlist
        self.mode = mode
        self.at = at
        self.newSegments = newSegments
        self.newParts = newParts
        self.missed = missed
        self.coalesced = coalesced
        self.pathway = pathway
        self.freshness = freshness
        self.url = url
    }

    /// This snapshot and the newer `next` as one: `next`'s state, both changes.
    public func coalesced(with next: LiveSnapshot) -> LiveSnapshot {
        let segments: ClosedRange<UInt64>? = switch (newSegments, next.newSegments) {
        case let (old?, new?): min(old.lowerBound, new.lowerBound)...max(old.upperBound, new.upperBound)
        case let (old, new): old ?? new
        }
        return LiveSnapshot(playlist: next.playlist, mode: next.mode, at: next.at, newSegments: segments,
                            newParts: newParts + next.newParts, missed: missed + next.missed, coalesced: coalesced + next.coalesced,
                            pathway: next.pathway, freshness: next.freshness, url: next.url)
    }
}
