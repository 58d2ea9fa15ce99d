import Testing
import TesseraSupport
import TesseraLive
import TesseraPlaylist

@Suite("Snapshot channel: one waiting snapshot at most, coalesced for a slow consumer")
struct SnapshotChannelTests {
    static func snapshot(_ msn: Int, parts: Int = 0, at seconds: Int, mode: ReloadScheduler.Mode = .blocking, missed: [ClosedRange<UInt64>] = []) throws -> LiveSnapshot {
        let text = "#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXT-X-MEDIA-SEQUENCE:\(msn)\n#EXTINF:4.0,\ns\(msn).ts\n"
        guard case .media(let media) = try PlaylistParser().parse(Array(text.utf8)).playlist else { preconditionFailure("a media playlist") }
        return LiveSnapshot(playlist: media, mode: mode, at: .seconds(seconds), newSegments: UInt64(msn)...UInt64(msn), newParts: parts, missed: missed)
    }

    @Test("a waiting consumer gets each snapshot as it is sent")
    func waiting() async throws {
        let channel = SnapshotChannel()
        let consumer = Task { () -> [Int] in
            var seen: [Int] = []
            for await snapshot in channel { seen.append(Int(snapshot.playlist.mediaSequence)) }
            return seen
        }
        channel.offer(try Self.snapshot(10, at: 1))
        channel.finish()
        #expect(await consumer.value == [10])
    }

    @Test("a slow consumer gets one snapshot: the latest state with every change since")
    func coalesced() async throws {
        let channel = SnapshotChannel()
        channel.offer(try Self.snapshot(10, parts: 1, at: 1, mode: .full))
        channel.offer(try Self.snapshot(11, parts: 2, at: 2, missed: [5...6]))
        channel.offer(try Self.snapshot(13, parts: 3, at: 3, mode: .delta, missed: [12...12]))
        channel.finish()
        var iterator = channel.makeAsyncIterator()
        let snapshot = try #require(await iterator.next())
        #expect(snapshot.playlist.mediaSequence == 13 && snapshot.mode == .delta && snapshot.at == .seconds(3))
        #expect(snapshot.newSegments == 10...13 && snapshot.newParts == 6 && snapshot.coalesced == 3)
        #expect(snapshot.missed == [5...6, 12...12])
        #expect(await iterator.next() == nil, "finished after the waiting snapshot")
    }
}
