#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What a request sends as its body.
public enum HTTPRequestBody: Sendable, Equatable {
    /// Bytes held in memory, sent with their length.
    case bytes([UInt8])
    /// A regular file streamed from disk, sent with its size at the time of sending. Each attempt
    /// (retry or redirect hop) reads it again from the start.
    case file(URL)
}
