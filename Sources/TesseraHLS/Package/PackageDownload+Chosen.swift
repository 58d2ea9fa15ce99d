#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TesseraPlaylist

extension PackageDownload {
    /// What the selection chose, its playlists loaded but not yet planned (`plan(_:)`): a caller
    /// may decide on them first — a `.ts` download of a lone MPEG-TS variant takes it whole,
    /// and then never holds a package's plan of it.
    package struct Chosen: Sendable {
        let multivariant: MultivariantPlaylist
        /// The multivariant playlist's URL (the final one).
        let url: URL
        /// The variables the multivariant playlist declared.
        let variables: [String: String]
        /// The chosen variant's index in `multivariant`.
        let variant: Int
        /// Why the selection chose as it did.
        let reasons: [String]
        /// The pathway the selection was made on.
        let pathway: String
        /// Whether the transfer follows Content Steering.
        let steers: Bool
        /// Whether the variant's BANDWIDTH is measured from the written files (a media playlist
        /// given as the entry).
        let measuresBandwidth: Bool
        /// The chosen playlists, loaded: the variant's stream first.
        let sources: [PackagePlan.Source]
    }
}
