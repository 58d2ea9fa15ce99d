#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TesseraHTTP
import TesseraPlaylist
import TesseraSupport

/// Identity AES-128 keys a multivariant playlist announces with EXT-X-SESSION-KEY, fetched early
/// (opt-in) while the media playlist is still being loaded, and handed to the job's `KeyCache`
/// only for a key the selected media itself names (the same absolute URL). At most
/// `maximumKeys` are fetched; each is 16 bytes or it is not used; unused ones are dropped.
package final class SessionKeyPrefetch: Sendable {
    /// The most session keys fetched early.
    static let maximumKeys = 8

    private let tasks: [URL: Task<Result<[UInt8], HLSError>, Never>]

    /// Starts fetching the identity AES-128 session keys of `playlist` (fetched from `url`)
    /// through the job's `loader`.
    init(_ playlist: MultivariantPlaylist, url: URL, loader: PlaylistLoader) {
        var tasks: [URL: Task<Result<[UInt8], HLSError>, Never>] = [:]
        // A session key whose URI does not resolve is simply not prefetched: the media's own
        // EXT-X-KEY, if it names it, fails with the typed error when the cache fetches it.
        for key in playlist.sessionKeys where key.method == .aes128 && key.isIdentity {
            guard tasks.count < Self.maximumKeys, let uri = key.uri,
                  let keyURL = try? ResourceURL.resolve(uri, against: url, what: "Session key"), tasks[keyURL] == nil else { continue }
            tasks[keyURL] = Task {
                do throws(HLSError) {
                    let (bytes, _) = try await loader.bytes(keyURL, purpose: .key, what: "Key", limit: 4096)
                    return .success(bytes)
                } catch {
                    return .failure(error)
                }
            }
        }
        self.tasks = tasks
    }

    /// The prefetched bytes of the key at `url`, nil when it was not prefetched or failed (the
    /// cache then fetches it itself).
    func key(at url: URL) async -> [UInt8]? {
        guard let task = tasks[url], case .success(let bytes) = await task.value, bytes.count == 16 else { return nil }
        return bytes
    }

    deinit {
        for task in tasks.values { task.cancel() }
    }
}
