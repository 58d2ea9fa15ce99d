import Foundation

/// The hidden files of a resumable download beside its destination `name`:
/// `.name.tessera-partial` (the bytes so far), `.name.tessera-checkpoint` (what they are) and
/// `.name.tessera-lock` (admission).
struct DownloadPaths: Sendable {
    let destination: URL
    let partial: String
    let checkpoint: String
    let lock: String

    init(destination: URL) {
        self.destination = destination
        let stem = destination.deletingLastPathComponent().path + "/." + destination.lastPathComponent + ".tessera-"
        partial = stem + "partial"
        checkpoint = stem + "checkpoint"
        lock = stem + "lock"
    }
}
