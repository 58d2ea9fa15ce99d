import Foundation
import TesseraHTTP

/// AES-128 keys for one job: each key URI fetched once, held in memory only, never logged.
actor KeyStore {
    private let fetcher: ResourceFetcher
    private var keys: [URL: [UInt8]] = [:]

    init(fetcher: ResourceFetcher) { self.fetcher = fetcher }

    /// The 16-byte key at `url`.
    /// - Throws: `fetch-failed`, `http-status`, or `bad-key` when the body is not 16 bytes.
    func key(at url: URL) async throws(HLSError) -> [UInt8] {
        if let key = keys[url] { return key }
        let (bytes, _) = try await fetcher.fetch(url, purpose: .key, what: "Key", limit: 4096)
        guard bytes.count == 16 else {
            throw HLSError(.badKey, "Key \(URLRedaction.redact(url)) is \(bytes.count) bytes; an AES-128 key is exactly 16.")
        }
        keys[url] = bytes
        return bytes
    }
}
