#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TesseraHTTP
import TesseraSupport

/// Recorded HTTP exchanges for tests: what `CassetteRecorder` saw on a real transport, redacted,
/// replayed later by `MockTransport(replaying:)`.
///
/// Redaction (the rules of the client's events and payload capture): no user-info; the values of
/// credential-like query parameters (`token`, `X-Amz-Signature`, `api_key`, …) and JWT-like path
/// segments masked; the values of credential-like header fields (`Authorization`, `Cookie`,
/// `Set-Cookie`, `X-Amz-Security-Token`, …) masked, URL-valued fields (`Location`) redacted as
/// URLs; JSON bodies with credential-like keys masked
/// and text bodies with tokens masked; binary bodies kept as they are. A secret therefore never
/// reaches the file — and replay matches requests by the same redacted form.
public struct Cassette: Codable, Sendable, Equatable {
    /// How replay picks the interaction for a request.
    public enum Order: Sendable {
        /// Each request must be the next one recorded (same method and redacted URL).
        case inOrder
        /// The first unused interaction with the same method and redacted URL.
        case byMatch
    }

    /// A recorded request.
    public struct Request: Codable, Sendable, Equatable {
        /// The method.
        public var method: String
        /// The URL, redacted.
        public var url: String
        /// Header fields in order, sensitive values masked.
        public var headers: [[String]]
        /// The body (redacted when text or JSON), if any.
        public var body: Data?
    }

    /// A recorded response.
    public struct Response: Codable, Sendable, Equatable {
        /// The status.
        public var status: Int
        /// Header fields in order, sensitive values masked.
        public var headers: [[String]]
        /// The body (redacted when text or JSON).
        public var body: Data
    }

    /// One exchange.
    public struct Interaction: Codable, Sendable, Equatable {
        /// What was sent.
        public var request: Request
        /// What came back.
        public var response: Response
    }

    /// The format's version.
    public var version = 1
    /// The exchanges in the order they happened.
    public var interactions: [Interaction] = []

    /// An empty cassette.
    public init() {}

    /// Reads a cassette file.
    /// - Throws: `file` errors when it cannot be read or is not a cassette.
    public static func load(from file: URL) throws(HTTPError) -> Cassette {
        do {
            return try JSONDecoder().decode(Cassette.self, from: Data(contentsOf: file))
        } catch {
            throw HTTPError(.file, code: HTTPError.Code("cassette-unreadable"), "The cassette \(file.path) cannot be read: \(error).")
        }
    }

    /// Writes the cassette atomically (a temporary file renamed into place).
    /// - Throws: `file` errors.
    public func write(to file: URL) throws(HTTPError) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        do {
            try encoder.encode(self).write(to: file, options: .atomic)
        } catch {
            throw HTTPError(.file, code: HTTPError.Code("cassette-unwritable"), "The cassette \(file.path) cannot be written: \(error).")
        }
    }

    // MARK: Redaction

    static let mask = "<redacted>"

    /// `url` as a cassette holds it (and as replay matches it).
    public static func redacted(_ url: URL) -> String {
        guard var parts = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return "<unparseable URL>" }
        parts.user = nil
        parts.password = nil
        parts.fragment = nil
        parts.percentEncodedPath = parts.percentEncodedPath.split(separator: "/", omittingEmptySubsequences: false)
            .map { segment in URLRedaction.looksLikeJWT(String(segment)) ? "<jwt>" : String(segment) }
            .joined(separator: "/")
        if let query = parts.percentEncodedQuery {
            parts.percentEncodedQuery = query.split(separator: "&", omittingEmptySubsequences: false).map { item in
                let pair = item.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                guard pair.count == 2, PayloadRedaction.isSensitive(PercentDecoding.decode(pair[0]) ?? String(pair[0])) else { return String(item) }
                return "\(pair[0])=%3Credacted%3E"
            }.joined(separator: "&")
        }
        return parts.string ?? "<unparseable URL>"
    }

    /// Fields whose value is a URL (a redirect to a presigned object carries its signature).
    static let urlFields: Set<String> = ["location", "content-location"]

    static func redacted(_ headers: HTTPHeaders) -> [[String]] {
        headers.map { field in
            if PayloadRedaction.isSensitive(field.name) { return [field.name, mask] }
            if urlFields.contains(field.name.lowercased()), let url = URL(string: field.value) { return [field.name, redacted(url)] }
            return [field.name, field.value]
        }
    }

    static func redacted(body: [UInt8]) -> Data { Data(PayloadRedaction.redactedWhole(body) ?? body) }
}
