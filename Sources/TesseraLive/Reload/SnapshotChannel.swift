import TesseraSupport

/// Hands live snapshots from a reloader to its consumer without ever queueing: at most one
/// snapshot waits, and a newer one is coalesced into it (`LiveSnapshot.coalesced(with:)`), so a
/// slow consumer gets the latest state with every change since it last looked, and the reloader
/// never blocks or grows memory. It ends after `finish()` once the waiting snapshot is taken, or
/// when the consuming task is cancelled.
public typealias SnapshotChannel = BoundedChannel<LiveSnapshot>

extension BoundedChannel where Element == LiveSnapshot {
    /// An empty snapshot channel: one waiting snapshot at most, newer ones coalesced into it.
    public convenience init() {
        self.init(.latest { waiting, new in waiting.coalesced(with: new) })
    }
}
