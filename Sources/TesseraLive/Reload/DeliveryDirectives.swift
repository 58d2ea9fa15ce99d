#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TesseraPlaylist
import TesseraSupport

/// The Delivery Directives of the next reload of a live media playlist (RFC 8216bis §6.2.5,
/// §6.3.7): `_HLS_msn` and `_HLS_part` for a blocking reload when the server offers one
/// (CAN-BLOCK-RELOAD=YES), `_HLS_skip` for a delta update while the held copy is recent
/// enough. A pure value.
///
/// The next item asked for is what hls.js asks for in low-latency mode: with parts, the part
/// after the last one listed (`_HLS_msn` = the segment being built, `_HLS_part` = its next
/// index) or, when the last listed part completed its segment, part 0 of the next segment;
/// without parts, the next segment.
public struct DeliveryDirectives: Sendable, Hashable {
    /// What `_HLS_skip` asks for.
    public enum Skip: String, Sendable, Hashable {
        /// A delta update (`_HLS_skip=YES`).
        case yes = "YES"
        /// A delta update that also skips old Date Ranges (`_HLS_skip=v2`).
        case v2
    }

    /// `_HLS_msn`: hold the response until the playlist has this media sequence number.
    public let msn: UInt64?
    /// `_HLS_part`: with `msn`, until this part of that segment.
    public let part: Int?
    /// `_HLS_skip`.
    public let skip: Skip?

    /// Directives as given (`part` only with `msn`).
    public init(msn: UInt64?, part: Int?, skip: Skip?) {
        precondition(part == nil || msn != nil, "_HLS_part needs _HLS_msn (§6.2.5.2)")
        self.msn = msn
        self.part = part
        self.skip = skip
    }

    /// Whether the request blocks (it carries `_HLS_msn`).
    public var blocks: Bool { msn != nil }

    /// The directives for the reload that follows `playlist`, held for `age` (since its response
    /// arrived); nil when there are none to send: the playlist has EXT-X-ENDLIST (servers
    /// ignore them then) or offers neither blocking reload nor delta updates. `allowSkip`
    /// false asks for the whole playlist (after a delta update that could not be merged).
    public static func next(after playlist: MediaPlaylist, age: Duration, allowSkip: Bool = true) -> DeliveryDirectives? {
        guard !playlist.hasEndList, let control = playlist.serverControl else { return nil }
        var msn: UInt64?
        var part: Int?
        if control.canBlockReload {
            let last = playlist.segments.last.map(\.mediaSequence) ?? (playlist.mediaSequence &- 1)
            if !playlist.pendingParts.isEmpty {
                (msn, part) = (last &+ 1, playlist.pendingParts.count)
            } else if playlist.partInformation != nil, playlist.segments.last?.parts.isEmpty == false {
                (msn, part) = (last &+ 1, 0)
            } else {
                msn = last &+ 1
            }
        }
        var skip: Skip?
        if allowSkip, let until = control.canSkipUntil, until > 0, seconds(age) < until / 2 {
            skip = control.canSkipDateRanges ? .v2 : .yes
        }
        guard msn != nil || skip != nil else { return nil }
        return DeliveryDirectives(msn: msn, part: part, skip: skip)
    }

    /// `url` with these directives: earlier `_HLS_*` directives removed, the caller's other query
    /// items kept, and every query item in UTF-8 code point order of its name (§6.3.2: caches
    /// see one URL per request). Directives nil: `url` without any `_HLS_*` item.
    public static func url(_ url: URL, with directives: DeliveryDirectives?) -> URL {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return url }
        var items = (components.percentEncodedQueryItems ?? []).filter { !$0.name.hasPrefix("_HLS_") }
        if let directives {
            if let msn = directives.msn { items.append(URLQueryItem(name: "_HLS_msn", value: String(msn))) }
            if let part = directives.part { items.append(URLQueryItem(name: "_HLS_part", value: String(part))) }
            if let skip = directives.skip { items.append(URLQueryItem(name: "_HLS_skip", value: skip.rawValue)) }
        }
        guard !items.isEmpty else {
            components.percentEncodedQuery = nil
            return components.url ?? url
        }
        // Stable: items of one name keep their order.
        let ordered = items.enumerated().sorted { lhs, rhs in
            lhs.element.name.utf8.lexicographicallyPrecedes(rhs.element.name.utf8) || (lhs.element.name == rhs.element.name && lhs.offset < rhs.offset)
        }.map(\.element)
        components.percentEncodedQueryItems = ordered
        return components.url ?? url
    }

    /// How long to wait for the answer to a blocking request for `playlist`: a conforming server
    /// holds it at most three target durations before answering 503 (§6.2.5.2), so the client
    /// waits that long plus one part target (at least 1 s) for the answer to arrive; past that
    /// the request has failed. Without a target duration, 3 × 6 s + 1 s.
    public static func blockingTimeout(for playlist: MediaPlaylist) -> Duration {
        let target = Double(playlist.targetDuration ?? 6)
        let part = max(1, playlist.partInformation?.partTarget ?? 1)
        return .milliseconds(Int64(((3 * target) + part) * 1000))
    }

    private static func seconds(_ duration: Duration) -> Double {
        duration.inSeconds
    }
}
