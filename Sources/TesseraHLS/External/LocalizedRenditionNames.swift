#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TesseraPlaylist

/// Localized rendition names (session data `_hls.localized-rendition-names`,
/// draft-pantos-hls-rfc8216bis Appendix E): a JSON object mapping a rendition's NAME to its
/// translations by primary language subtag.
public struct LocalizedRenditionNames: Hashable, Sendable {
    /// The session data `DATA-ID`.
    public static let dataId = "_hls.localized-rendition-names"

    /// NAME → primary language subtag (lower-cased) → translation.
    public let names: [String: [String: String]]

    /// The names in `bytes`, at most `maximumEntries` NAMEs.
    /// - Throws: `invalid-external-resource` when it is not an object of objects of strings, or
    ///   has more entries.
    public static func parse(_ bytes: [UInt8], maximumEntries: Int = 10_000) throws(HLSError) -> LocalizedRenditionNames {
        let raw: [String: [String: String]]
        do { raw = try JSONDecoder().decode([String: [String: String]].self, from: Data(bytes)) } catch {
            throw HLSError(.invalidExternalResource, "The localized rendition names are not a JSON object of NAME → {language: name}.")
        }
        guard raw.count <= maximumEntries else {
            throw HLSError(.invalidExternalResource, "The localized rendition names have \(raw.count) entries, over the limit of \(maximumEntries).")
        }
        return LocalizedRenditionNames(names: raw.mapValues { translations in
            Dictionary(translations.map { (Self.primary($0.key), $0.value) }, uniquingKeysWith: { first, _ in first })
        })
    }

    /// Creates names.
    public init(names: [String: [String: String]]) { self.names = names }

    /// The name to show for `rendition` to a user of `languages` (preferred first): its NAME's
    /// translation in the first language that has one (by primary subtag), else its NAME
    /// (Appendix E.2; naming an AUTOSELECT rendition after its language needs the caller's
    /// language names, so the NAME stands).
    public func name(of rendition: Rendition, for languages: [String]) -> String {
        guard let translations = names[rendition.name] else { return rendition.name }
        for language in languages {
            if let name = translations[Self.primary(language)] { return name }
        }
        return rendition.name
    }

    private static func primary(_ tag: String) -> String {
        String(tag.prefix { $0 != "-" && $0 != "_" }).lowercased()
    }
}
