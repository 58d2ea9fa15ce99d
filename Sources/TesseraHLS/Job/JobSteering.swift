#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TesseraPlaylist

/// What a planned job steers: the presentation (its multivariant playlist, its URL — the final
/// one — its EXT-X-CONTENT-STEERING and its variables), the pathway the plan was made on, and
/// each track as planned with how its equivalent is found on another pathway. `MediaJob` runs one
/// `SteeringController` for the job, shared by every track.
package struct JobSteering: Sendable {
    /// One steered track.
    package struct Track: Sendable {
        package let stream: StreamIdentity
        package let equivalent: PathwayEquivalent
        package let playlist: MediaPlaylist
        package let url: URL

        package init(stream: StreamIdentity, equivalent: PathwayEquivalent, playlist: MediaPlaylist, url: URL) {
            self.stream = stream
            self.equivalent = equivalent
            self.playlist = playlist
            self.url = url
        }
    }

    package let multivariant: MultivariantPlaylist
    package let url: URL
    package let steering: ContentSteering
    package let pathway: String
    package let tracks: [Track]
    /// The variables the multivariant playlist declared: a pathway's playlists import them too.
    package let variables: [String: String]

    package init(multivariant: MultivariantPlaylist, url: URL, steering: ContentSteering, pathway: String, tracks: [Track],
                 variables: [String: String]) {
        self.multivariant = multivariant
        self.url = url
        self.steering = steering
        self.pathway = pathway
        self.tracks = tracks
        self.variables = variables
    }
}
