#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A whole message, however many frames carried it.
public enum WebSocketMessage: Sendable, Equatable {
    /// A text message (its bytes were checked as UTF-8).
    case text(String)
    /// A binary message.
    case binary(Data)

    /// The message's bytes as sent on the wire.
    public var byteCount: Int {
        switch self {
        case .text(let text): text.utf8.count
        case .binary(let data): data.count
        }
    }
}
