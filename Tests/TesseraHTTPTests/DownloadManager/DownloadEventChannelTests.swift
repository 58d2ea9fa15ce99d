import Testing
@testable import TesseraHTTP
import TesseraSupport

@Suite("DownloadEventChannel")
struct DownloadEventChannelTests {
    private func drain(_ channel: BoundedChannel<DownloadEvent>) async -> [DownloadEvent] {
        channel.finish()
        var out: [DownloadEvent] = []
        while let event = await channel.next() { out.append(event) }
        return out
    }

    @Test("progress coalesces in place; a full queue drops the oldest transient events, never lifecycle ones")
    func bounded() async {
        let channel = DownloadEvents.channel(capacity: 4)
        channel.offer(DownloadEvent(id: "a", kind: .added))
        channel.offer(DownloadEvent(id: "a", kind: .started(offset: 0)))
        channel.offer(DownloadEvent(id: "a", kind: .progress(TransferProgress(completed: 1, expected: 9))))
        channel.offer(DownloadEvent(id: "a", kind: .progress(TransferProgress(completed: 5, expected: 9))))
        channel.offer(DownloadEvent(id: "b", kind: .added))
        channel.offer(DownloadEvent(id: "a", kind: .restarted))                     // full: drops started
        channel.offer(DownloadEvent(id: "a", kind: .failed(code: HTTPError.Code("x"), message: "y"))) // full: drops progress
        let kinds = await drain(channel).map(\.kind)
        #expect(kinds == [.added, .added, .restarted, .failed(code: HTTPError.Code("x"), message: "y")])
        #expect(channel.dropped == 2)
    }
}
