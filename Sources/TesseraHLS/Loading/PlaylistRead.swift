#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TesseraPlaylist

/// One playlist as `PlaylistLoader` read it: parsed (the playlist, its diagnostics, the
/// variables it declared) and the URL that answered.
package struct PlaylistRead: Sendable {
    package let parsed: ParsedPlaylist
    package let url: URL
}
