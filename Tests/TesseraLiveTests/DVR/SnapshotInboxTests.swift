import Testing
import TesseraSupport
import TesseraHLS
import TesseraPlaylist
@testable import TesseraLive

@Suite("Snapshot inbox: the tracks' items in order, each track's snapshots coalesced, a retry told once, the end after the last track")
struct SnapshotInboxTests {
    static func describe(_ item: SnapshotInbox.Item) -> String {
        switch item {
        case .snapshot(let track, let snapshot): "s\(track):\(snapshot.playlist.mediaSequence)+\(snapshot.newParts)"
        case .retrying(let track): "r\(track)"
        case .ended(let track, let failure): "e\(track)\(failure == nil ? "" : "!")"
        }
    }

    @Test("a track's waiting snapshot takes its newer ones in place; retries are told once until taken; ends close the inbox")
    func order() async throws {
        let inbox = SnapshotInbox(tracks: 2)
        inbox.send(try SnapshotChannelTests.snapshot(10, parts: 1, at: 1), track: 0)
        inbox.retrying(track: 1)
        inbox.send(try SnapshotChannelTests.snapshot(20, at: 1), track: 1)
        inbox.send(try SnapshotChannelTests.snapshot(11, parts: 2, at: 2), track: 0)
        inbox.retrying(track: 1)
        inbox.end(track: 0, failure: nil)
        inbox.send(try SnapshotChannelTests.snapshot(12, at: 3), track: 0)     // after its end: not taken
        inbox.end(track: 1, failure: HLSError(.fetchFailed, "gone"))
        inbox.end(track: 1, failure: nil)                                      // once
        var seen: [String] = []
        for await item in inbox { seen.append(Self.describe(item)) }
        #expect(seen == ["s0:11+3", "r1", "s1:20+0", "e0", "e1!"])
    }
}
