import TesseraPlaylist
import TesseraSupport

/// What `MediaJob` takes from a job's options.
package struct JobSettings: Sendable {
    /// What the job is called in messages ("download", "package", "recording").
    package var noun: String
    /// Transfer bounds, budgets and capacity policy.
    package var bounds: TransferBounds
    /// Whether the first attempt continues from a checkpoint of an earlier run.
    package var resumes: Bool
    /// How long a failed pathway is avoided under Content Steering.
    package var steeringPenalty: Duration
    /// What is done with something already at the destination.
    package var overwrite: OverwritePolicy
    /// How the job's playlists are parsed (their limits).
    package var parser: PlaylistParser

    package init(noun: String, bounds: TransferBounds, resumes: Bool, steeringPenalty: Duration, overwrite: OverwritePolicy,
                 parser: PlaylistParser = PlaylistParser()) {
        self.noun = noun
        self.bounds = bounds
        self.resumes = resumes
        self.steeringPenalty = steeringPenalty
        self.overwrite = overwrite
        self.parser = parser
    }
}
