#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The content of one EXT-X-SESSION-DATA entry: its inline VALUE, or what its URI answered.
public struct SessionDataValue: Hashable, Sendable {
    /// What the entry holds.
    public enum Content: Hashable, Sendable {
        /// VALUE, inline text.
        case value(String)
        /// FORMAT=JSON: the JSON text (checked to be JSON).
        case json([UInt8])
        /// FORMAT=RAW: the bytes.
        case raw([UInt8])
    }

    /// DATA-ID.
    public let dataId: String
    /// LANGUAGE.
    public let language: String?
    /// The content.
    public let content: Content
    /// The URL that answered, for a URI entry (relative URIs inside it resolve against it).
    public let url: URL?
}
