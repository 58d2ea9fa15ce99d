#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Apple's JSON chapters (session data `com.apple.hls.chapters`, "Providing JSON chapters"): an
/// array of chapters, each with a start time, optional duration, titles by language and images;
/// read with one title per chapter in the preferred language and image URLs resolved against
/// the URL the chapters came from.
public struct Chapter: Hashable, Sendable {
    /// An image of a chapter.
    public struct Image: Hashable, Sendable {
        /// image-category (e.g. "chapter").
        public let category: String?
        /// pixel-width and pixel-height.
        public let width: Int?, height: Int?
        /// url, resolved (nil when it is not a usable http/https URL).
        public let url: URL?
    }

    /// chapter: its number, when given.
    public let number: Int?
    /// start-time, seconds.
    public let start: Double
    /// duration, seconds.
    public let duration: Double?
    /// The title in the best language for the request (RFC 4647 lookup, then `und`, then the first).
    public let title: String?
    /// The language of that title.
    public let titleLanguage: String?
    /// Every title, language → title.
    public let titles: [String: String]
    /// The images.
    public let images: [Image]

    /// The session data `DATA-ID` of chapters.
    public static let dataId = "com.apple.hls.chapters"

    /// The chapters in `bytes` (fetched from `url`), titles chosen for `languages`, at most
    /// `maximumChapters`.
    /// - Throws: `invalid-external-resource` when it is not an array of chapter objects with a
    ///   non-negative start-time each, or has more than `maximumChapters`.
    public static func parse(_ bytes: [UInt8], from url: URL, languages: [String] = [], maximumChapters: Int = 10_000) throws(HLSError) -> [Chapter] {
        let raw: [Raw]
        do { raw = try JSONDecoder().decode([Raw].self, from: Data(bytes)) } catch {
            throw HLSError(.invalidExternalResource, "The chapters are not a JSON array of chapter objects with start-time.")
        }
        guard raw.count <= maximumChapters else {
            throw HLSError(.invalidExternalResource, "The chapters list \(raw.count) chapters, over the limit of \(maximumChapters).")
        }
        return try raw.enumerated().map { index, chapter throws(HLSError) in
            guard chapter.startTime.isFinite, chapter.startTime >= 0 else {
                throw HLSError(.invalidExternalResource, "Chapter \(index) has a negative start-time.")
            }
            let titles = chapter.titles ?? []
            var chosen: Raw.Title?
            for tag in languages where chosen == nil {
                let (indices, _) = LanguageMatch.matches(tag, in: titles.map(\.language))
                chosen = indices.first.map { titles[$0] }
            }
            chosen = chosen ?? titles.first { $0.language.lowercased() == "und" } ?? titles.first
            // An image URL that is not http/https (or would downgrade) is kept as nil, not fetched.
            let images = (chapter.images ?? []).map { image in
                Image(category: image.category, width: image.width, height: image.height,
                      url: image.url.flatMap { try? ResourceURL.resolve($0, against: url, what: "A chapter image") })
            }
            return Chapter(number: chapter.chapter, start: chapter.startTime, duration: chapter.duration, title: chosen?.title,
                           titleLanguage: chosen?.language,
                           titles: Dictionary(titles.map { ($0.language, $0.title) }, uniquingKeysWith: { first, _ in first }), images: images)
        }
    }

    private struct Raw: Decodable {
        struct Title: Decodable {
            let language: String
            let title: String
        }
        struct RawImage: Decodable {
            let category: String?
            let width: Int?
            let height: Int?
            let url: String?
            enum CodingKeys: String, CodingKey { case category = "image-category", width = "pixel-width", height = "pixel-height", url }
        }
        let chapter: Int?
        let startTime: Double
        let duration: Double?
        let titles: [Title]?
        let images: [RawImage]?
        enum CodingKeys: String, CodingKey { case chapter, startTime = "start-time", duration, titles, images }
    }
}
