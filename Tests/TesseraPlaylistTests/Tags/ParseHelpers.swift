import Foundation
import TesseraPlaylist

/// Parsing helpers for inline test playlists.
enum Parse {
    struct WrongKind: Error {}

    static func result(_ text: String, context: ParseContext = ParseContext()) throws -> ParsedPlaylist {
        try PlaylistParser().parse(Array(text.utf8), context: context)
    }

    static func media(_ text: String, context: ParseContext = ParseContext()) throws -> MediaPlaylist {
        guard case .media(let playlist) = try result(text, context: context).playlist else { throw WrongKind() }
        return playlist
    }

    static func multivariant(_ text: String, context: ParseContext = ParseContext()) throws -> MultivariantPlaylist {
        guard case .multivariant(let playlist) = try result(text, context: context).playlist else { throw WrongKind() }
        return playlist
    }

    static func error(_ text: String, context: ParseContext = ParseContext()) -> PlaylistError? {
        do {
            _ = try PlaylistParser().parse(Array(text.utf8), context: context)
            return nil
        } catch {
            return error
        }
    }

    static func ids(_ text: String) throws -> [DiagnosticID] { try result(text).diagnostics.map(\.id) }
}
