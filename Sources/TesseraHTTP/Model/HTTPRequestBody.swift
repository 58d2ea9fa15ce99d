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
    /// Bytes produced as they are sent, read again from the start by each attempt (an
    /// `aws-chunked` file upload signed chunk by chunk is one).
    case stream(any HTTPBodyStream)

    /// Equal bytes, the same file, or the very same stream.
    public static func == (lhs: HTTPRequestBody, rhs: HTTPRequestBody) -> Bool {
        switch (lhs, rhs) {
        case (.bytes(let a), .bytes(let b)): a == b
        case (.file(let a), .file(let b)): a == b
        case (.stream(let a), .stream(let b)): a === b
        default: false
        }
    }
}
