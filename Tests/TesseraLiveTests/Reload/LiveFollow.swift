import TesseraSupport
import TesseraLive
import TesseraPlaylist

/// Runs a reloader the way the origin tests drive it: after each snapshot (until ENDLIST) `step`
/// sees the snapshots so far and publishes what comes next.
enum LiveFollow {
    /// Every snapshot `reloader` sent; its error, if it ended with one.
    static func run(_ reloader: LiveReloader, step: ([LiveSnapshot]) -> Void) async throws -> [LiveSnapshot] {
        let channel = SnapshotChannel()
        let run = Task { try await reloader.run(into: channel) }
        var snapshots: [LiveSnapshot] = []
        for await snapshot in channel {
            snapshots.append(snapshot)
            if snapshot.playlist.hasEndList { break }
            step(snapshots)
        }
        try await run.value
        return snapshots
    }
}
