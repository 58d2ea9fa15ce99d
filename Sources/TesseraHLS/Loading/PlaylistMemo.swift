#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TesseraHTTP
import TesseraSupport

/// The playlists one decision has read, kept so that a second plan of the same source reads the
/// same bytes instead of fetching them again: a `.ts` download plans the source as a movie and
/// then as a whole file, and without it fetched each playlist twice — a round trip each to a
/// distant origin, and possibly another answer from a live one. Only playlists are kept (no key,
/// no media), at most `maximumBytes` and `maximumEntries` of them; a playlist past that is
/// fetched again.
package final class PlaylistMemo: Sendable {
    /// The most bytes of playlists kept.
    package static let maximumBytes = 64 << 20
    /// The most playlists kept.
    package static let maximumEntries = 4_096

    private struct Entry {
        let bytes: [UInt8]
        let url: URL
    }

    private let entries = Lock<(byURL: [String: Entry], bytes: Int)>(([:], 0))

    /// An empty memo.
    package init() {}

    /// Whether bytes fetched for `purpose` are kept.
    static func keeps(_ purpose: RequestPurpose) -> Bool {
        purpose == .mediaPlaylist || purpose == .multivariantPlaylist
    }

    /// The bytes kept for `url` and the URL that answered for it, if any.
    func recalled(_ url: URL) -> (bytes: [UInt8], url: URL)? {
        entries.withLock { $0.byURL[url.absoluteString] }.map { ($0.bytes, $0.url) }
    }

    /// Keeps `bytes`, the answer for `url` from `final`, while the memo has room.
    func keep(_ bytes: [UInt8], for url: URL, answeredBy final: URL) {
        entries.withLock { state in
            guard state.byURL[url.absoluteString] == nil, state.byURL.count < Self.maximumEntries,
                  state.bytes + bytes.count <= Self.maximumBytes else { return }
            state.byURL[url.absoluteString] = Entry(bytes: bytes, url: final)
            state.bytes += bytes.count
        }
    }
}
