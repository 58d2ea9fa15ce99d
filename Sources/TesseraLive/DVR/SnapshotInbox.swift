import TesseraHLS
import TesseraSupport

/// The snapshots of a recording's tracks (one reloader each) for the one planner, in the order
/// they came, never queued deep — a `BoundedChannel` whose policy coalesces a track's waiting
/// snapshot with its newer ones (`LiveSnapshot.coalesced(with:)`) and tells a retry once until
/// taken, so at most three items a track wait (a snapshot, a retry, the end). It ends once every
/// track has ended and all is taken, or when the consuming task is cancelled.
struct SnapshotInbox: AsyncSequence, Sendable {
    /// What a track's follow did.
    enum Item: Sendable {
        /// The playlist as reloaded.
        case snapshot(track: Int, LiveSnapshot)
        /// A reload failed and is being retried.
        case retrying(track: Int)
        /// The follow ended: at ENDLIST or cancelled (nil), or with its failure.
        case ended(track: Int, HLSError?)

        /// Folds `new` into this waiting item: a track's snapshots coalesce, its retries are told once.
        static func coalesce(_ waiting: inout Item, _ new: Item) -> ChannelMerge {
            switch (waiting, new) {
            case (.snapshot(let track, let old), .snapshot(let newTrack, let newer)) where track == newTrack:
                waiting = .snapshot(track: track, old.coalesced(with: newer))
                return .merged
            case (.retrying(let track), .retrying(let newTrack)) where track == newTrack:
                return .merged
            default:
                return .unrelated
            }
        }
    }

    private let channel: BoundedChannel<Item>
    private let ended: Lock<Set<Int>>
    private let tracks: Int

    /// An inbox for `tracks` tracks.
    init(tracks: Int) {
        self.tracks = tracks
        channel = BoundedChannel(ChannelPolicy(capacity: 3 * Swift.max(1, tracks), overflow: .signal, coalesce: Item.coalesce))
        ended = Lock([])
    }

    /// Track `track`'s reloader sent `snapshot`.
    func send(_ snapshot: LiveSnapshot, track: Int) { offer(.snapshot(track: track, snapshot), from: track) }

    /// Track `track`'s reloader is retrying a failed reload.
    func retrying(track: Int) { offer(.retrying(track: track), from: track) }

    /// Track `track`'s follow ended (with `failure`); after the last track's, the inbox ends.
    func end(track: Int, failure: HLSError?) {
        let (first, all) = ended.withLock { ended in (ended.insert(track).inserted, ended.count == tracks) }
        guard first else { return }
        channel.offer(.ended(track: track, failure))
        if all { channel.finish() }
    }

    /// A track's items are taken until its end.
    private func offer(_ item: Item, from track: Int) {
        guard !ended.withLock({ $0.contains(track) }) else { return }
        channel.offer(item)
    }

    func makeAsyncIterator() -> BoundedChannel<Item>.AsyncIterator { channel.makeAsyncIterator() }
}
