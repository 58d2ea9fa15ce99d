#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TesseraHTTP
import TesseraSupport

/// The AES-128 keys of one job, in memory only: each key URI is fetched once while it is in use
/// (concurrent requests for the same key share one fetch), keys are exactly 16 bytes, and at
/// most `capacity` are kept — the least recently used goes first, so a stream whose key
/// rotates every segment holds only the keys of the window being fetched. Keys never reach a
/// log, an event or a checkpoint; `fingerprint` gives a checkpoint a digest instead.
public actor KeyCache {
    /// A 16-byte AES-128 key and its fingerprint.
    public struct Key: Sendable {
        /// The key bytes.
        public let bytes: [UInt8]
        /// SHA-256 over a domain label and the key: safe to store, changes when the key does.
        public let fingerprint: SHA256Digest
    }

    private let fetcher: ResourceFetcher
    private let resolver: any TransferURLResolver
    private let capacity: Int
    private let prefetched: SessionKeyPrefetch?
    private var keys: [KeyReference: (key: Key, lastUse: UInt64)] = [:]
    private var pending: [KeyReference: Task<Result<Key, HLSError>, Never>] = [:]
    private var uses: UInt64 = 0
    /// Key fetches made (each key URI once while cached).
    public private(set) var fetchCount = 0

    /// A cache fetching through `fetcher`, resolving key URIs with `resolver`, holding at most
    /// `capacity` keys (default 64).
    package init(fetcher: ResourceFetcher, resolver: any TransferURLResolver, capacity: Int = 64) {
        self.init(fetcher: fetcher, resolver: resolver, capacity: capacity, prefetched: nil)
    }

    /// A cache that takes a key from `prefetched` when the media names one of its URLs.
    init(fetcher: ResourceFetcher, resolver: any TransferURLResolver, capacity: Int = 64, prefetched: SessionKeyPrefetch?) {
        precondition(capacity > 0, "a key cache holds at least one key")
        self.fetcher = fetcher
        self.resolver = resolver
        self.capacity = capacity
        self.prefetched = prefetched
    }

    /// Why a checkpoint cannot be kept, when a key its records were decrypted with (each
    /// resource's encryption, and the key fingerprint its record holds) is not the key the
    /// server gives now; nil when every one matches.
    /// - Throws: as `key(_:)`.
    func change(in recorded: [(encryption: ResourceEncryption, fingerprint: String?)]) async throws(HLSError) -> String? {
        for (encryption, fingerprint) in recorded where try await key(encryption.key).fingerprint.hex != fingerprint {
            return "a key changed since the checkpoint was written"
        }
        return nil
    }

    /// The key `reference` names, fetched when it is not cached.
    /// - Throws: `bad-key` (not 16 bytes), and the fetch's errors (`fetch-failed`, `http-status`,
    ///   `cancelled`, …).
    public func key(_ reference: KeyReference) async throws(HLSError) -> Key {
        uses += 1
        if let cached = keys[reference] {
            keys[reference]?.lastUse = uses
            return cached.key
        }
        let task = pending[reference] ?? {
            let task = Task { [fetcher, resolver, prefetched] in
                await Self.fetch(reference, fetcher: fetcher, resolver: resolver, prefetched: prefetched)
            }
            pending[reference] = task
            fetchCount += 1
            return task
        }()
        let result = await task.value
        pending[reference] = nil
        let key = try result.get()
        keys[reference] = (key, uses)
        if keys.count > capacity, let oldest = keys.min(by: { $0.value.lastUse < $1.value.lastUse })?.key {
            keys[oldest] = nil
        }
        return key
    }

    private static func fetch(_ reference: KeyReference, fetcher: ResourceFetcher, resolver: any TransferURLResolver,
                              prefetched: SessionKeyPrefetch?) async -> Result<Key, HLSError> {
        do throws(HLSError) {
            let location = try await resolver.location(of: reference.uri, in: reference.stream)
            if let early = await prefetched?.key(at: location.url) { return .success(Key(bytes: early, fingerprint: fingerprint(early))) }
            let (bytes, _) = try await fetcher.fetch(location.url, purpose: .key, what: "Key", limit: 4096)
            guard bytes.count == 16 else {
                throw HLSError(.badKey, "Key \(URLRedaction.redact(location.url)) is \(bytes.count) bytes; an AES-128 key is exactly 16.")
            }
            return .success(Key(bytes: bytes, fingerprint: fingerprint(bytes)))
        } catch {
            return .failure(error)
        }
    }

    /// A key's fingerprint: SHA-256 over a domain label and the 16 key bytes.
    package static func fingerprint(_ key: [UInt8]) -> SHA256Digest {
        SHA256Hasher.hash(Array("tessera-key 1\n".utf8) + key)
    }
}
