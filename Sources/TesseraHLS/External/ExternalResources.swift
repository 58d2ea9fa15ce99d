#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TesseraHTTP
import TesseraPlaylist
import TesseraSupport

/// The resources a presentation points to beyond its playlists — EXT-X-SESSION-DATA, Apple JSON
/// chapters, interstitial asset lists — fetched only when asked, through the caller's client,
/// each bounded in bytes (`maximumBytes`), entries and time (the client's per-purpose limits),
/// its status checked, never over an HTTPS downgrade or with credentials in the URL.
public struct ExternalResources: Sendable {
    /// The most bytes one resource may have (default 1 MiB).
    public var maximumBytes = 1 << 20
    /// The most session data entries fetched from one playlist (default 64).
    public var maximumEntries = 64
    private let client: HLSClient

    /// Fetches through `client`.
    public init(client: HLSClient) { self.client = client }

    /// Every session data entry of `playlist` (fetched from `url`), in order, up to
    /// `maximumEntries`: its content, or why it could not be had.
    public func sessionData(of playlist: MultivariantPlaylist, url: URL) async -> [(entry: SessionData, content: Result<SessionDataValue, HLSError>)] {
        var out: [(SessionData, Result<SessionDataValue, HLSError>)] = []
        for entry in playlist.sessionData.prefix(maximumEntries) {
            do throws(HLSError) { out.append((entry, .success(try await content(of: entry, base: url)))) } catch {
                out.append((entry, .failure(error)))
            }
        }
        return out
    }

    /// The chapters of `playlist` in the preferred `languages`: the `com.apple.hls.chapters`
    /// entry whose LANGUAGE best answers them (else the first), fetched and parsed; nil when it has none.
    /// - Throws: as `fetch`, and `invalid-external-resource`.
    public func chapters(of playlist: MultivariantPlaylist, url: URL, languages: [String] = []) async throws(HLSError) -> [Chapter]? {
        let entries = playlist.sessionData.filter { $0.dataId == Chapter.dataId }
        guard !entries.isEmpty else { return nil }
        var entry = entries[0]
        for tag in languages {
            if let index = LanguageMatch.matches(tag, in: entries.map(\.language)).indices.first {
                entry = entries[index]
                break
            }
        }
        let value = try await content(of: entry, base: url)
        switch value.content {
        case .json(let bytes): return try Chapter.parse(bytes, from: value.url ?? url, languages: languages)
        case .value(let text): return try Chapter.parse(Array(text.utf8), from: url, languages: languages)
        case .raw: throw HLSError(.invalidExternalResource, "The chapters entry is FORMAT=RAW; chapters are JSON.")
        }
    }

    /// The localized rendition names of `playlist` (its `_hls.localized-rendition-names` entry,
    /// inline or fetched); nil when it has none.
    /// - Throws: as `fetch`, and `invalid-external-resource`.
    public func localizedRenditionNames(of playlist: MultivariantPlaylist, url: URL) async throws(HLSError) -> LocalizedRenditionNames? {
        guard let entry = playlist.sessionData.first(where: { $0.dataId == LocalizedRenditionNames.dataId }) else { return nil }
        switch try await content(of: entry, base: url).content {
        case .json(let bytes), .raw(let bytes): return try LocalizedRenditionNames.parse(bytes)
        case .value(let text): return try LocalizedRenditionNames.parse(Array(text.utf8))
        }
    }

    /// The asset list of `interstitial`, whose date range is in the media playlist at `playlistURL`.
    /// - Throws: `unsupported` when it has an X-ASSET-URI instead; as `fetch`; `invalid-external-resource`.
    public func assetList(of interstitial: Interstitial, playlistURL: URL) async throws(HLSError) -> AssetList {
        guard case .list(let uri)? = interstitial.asset else {
            throw HLSError(.unsupported, "Interstitial \"\(interstitial.id)\" has no X-ASSET-LIST.")
        }
        let (bytes, _) = try await fetch(uri, base: playlistURL, purpose: .sessionData, what: "Asset list of \"\(interstitial.id)\"")
        return try AssetList.parse(bytes)
    }

    private func content(of entry: SessionData, base: URL) async throws(HLSError) -> SessionDataValue {
        if let value = entry.value { return SessionDataValue(dataId: entry.dataId, language: entry.language, content: .value(value), url: nil) }
        guard let uri = entry.uri else {
            throw HLSError(.invalidPlaylist, "EXT-X-SESSION-DATA \"\(entry.dataId)\" has neither VALUE nor URI.")
        }
        let (bytes, finalURL) = try await fetch(uri, base: base, purpose: .sessionData, what: "Session data \"\(entry.dataId)\"")
        if entry.format == .raw { return SessionDataValue(dataId: entry.dataId, language: entry.language, content: .raw(bytes), url: finalURL) }
        // Decoding only proves it is JSON (the decoder refuses nesting deeper than 512); the
        // failure is the typed error below.
        guard (try? JSONDecoder().decode(JSONShape.self, from: Data(bytes))) != nil else {
            throw HLSError(.invalidExternalResource, "Session data \"\(entry.dataId)\" from \(URLRedaction.redact(finalURL)) is not JSON.")
        }
        return SessionDataValue(dataId: entry.dataId, language: entry.language, content: .json(bytes), url: finalURL)
    }

    /// The bytes of `uri` (against `base`): http/https only, no downgrade, no credentials, 2xx,
    /// at most `maximumBytes`.
    private func fetch(_ uri: String, base: URL, purpose: RequestPurpose, what: String) async throws(HLSError) -> ([UInt8], URL) {
        let url = try ResourceURL.resolve(uri, against: base, what: what)
        guard url.user == nil, url.password == nil else {
            throw HLSError(.unsupported, "\(what) \(URLRedaction.redact(url)) carries credentials in its URL; refused.")
        }
        let limit = maximumBytes
        return try await client.withFetcher { fetcher throws(HLSError) in
            let (bytes, finalURL) = try await fetcher.fetch(url, purpose: purpose, what: what, limit: limit)
            return (bytes, finalURL)
        }
    }

    /// Any JSON value (decoding it proves the text is JSON).
    private enum JSONShape: Decodable {
        case null, bool(Bool), number(Double), string(String), array([JSONShape]), object([String: JSONShape])

        init(from decoder: any Decoder) throws {
            // Each `try?` asks "is it this type?"; the last decode throws when it is none of them.
            let container = try decoder.singleValueContainer()
            if container.decodeNil() { self = .null }
            else if let value = try? container.decode(Bool.self) { self = .bool(value) }
            else if let value = try? container.decode(Double.self) { self = .number(value) }
            else if let value = try? container.decode(String.self) { self = .string(value) }
            else if let value = try? container.decode([JSONShape].self) { self = .array(value) }
            else { self = .object(try container.decode([String: JSONShape].self)) }
        }
    }
}
