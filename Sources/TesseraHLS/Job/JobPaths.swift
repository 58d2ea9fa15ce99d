#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The hidden files of a media job beside its destination `name`: `.name.tessera-partial` (the
/// staged result so far: a file or a folder), `.name.tessera-checkpoint` (what it holds),
/// `.name.tessera-lock` (admission) and `.name.tessera-spill` (resource bodies too large for
/// memory, while the job runs) — and a recording's ledger beside them.
package struct JobPaths: Sendable {
    package let destination: URL
    package let partial: String
    package let checkpoint: String
    package let lock: String
    package let spill: String
    /// `.name.tessera-timeline`: a recording's entries (URL-free), beside the checkpoint.
    package let timeline: String
    /// `.name.tessera-evictions`: what a recording's rolling retention evicted (URL-free).
    package let evictions: String

    package init(destination: URL) {
        self.destination = destination
        let stem = destination.deletingLastPathComponent().path + "/." + destination.lastPathComponent + ".tessera-"
        partial = stem + "partial"
        checkpoint = stem + "checkpoint"
        lock = stem + "lock"
        spill = stem + "spill"
        timeline = stem + "timeline"
        evictions = stem + "evictions"
    }
}
