import Foundation
import Testing
import TesseraHLS
import TesseraTestSupport

@Suite("SingleFileDownload capacity policy and progress")
struct CapacityAndProgressTests {
    static func options(_ capacity: CapacityPolicy, free: UInt64?) -> SingleFileDownload.Options {
        var options = SingleFileDownload.Options()
        options.capacity = capacity
        options.freeSpace = { _ in free }
        return options
    }

    @Test("required: a plan of known size that does not fit is refused before any media byte")
    func requiredRefuses() async throws {
        let harness = try DownloadHarness()
        let error = await harness.failure("/d_ts_single/index.m3u8", options: Self.options(.required, free: 1000))
        #expect(error?.code == .insufficientSpace && error?.message.contains("1000 free") == true)
        #expect(harness.origin.log.allSatisfy { $0.path.hasSuffix(".m3u8") })
        #expect(try harness.leftovers().isEmpty)
    }

    @Test("required with room, best-effort and disabled with none, and an unknown free space all proceed",
          arguments: [(CapacityPolicy.required, UInt64?.some(1 << 40)), (.bestEffort, 0), (.disabled, 0), (.required, nil)])
    func proceeds(capacity: CapacityPolicy, free: UInt64?) async throws {
        let harness = try DownloadHarness()
        let report = try await harness.download("/d_ts_single/index.m3u8", options: Self.options(capacity, free: free))
        #expect(report.byteCount == UInt64(try FixtureStore.bytes("d_ts_single/media.ts").count))
    }

    @Test("progress: planned first, then resources and bytes that only grow, ending at the whole plan")
    func progressEvents() async throws {
        let harness = try DownloadHarness()
        var options = SingleFileDownload.Options()
        options.parallelism = 1
        let report = try await harness.download("/d_ts_single/index.m3u8", options: options)
        let events = harness.events
        guard case .planned(let summary) = events.first else { Issue.record("first event: \(String(describing: events.first))"); return }
        let progress = events.compactMap { if case .progress(let value) = $0 { value } else { nil } }
        #expect(progress.count >= 2)
        #expect(progress.first?.resourcesDone == 0 && progress.first?.bytesWritten == 0)
        #expect(zip(progress, progress.dropFirst()).allSatisfy { $0.resourcesDone <= $1.resourcesDone && $0.bytesWritten <= $1.bytesWritten })
        let last = try #require(progress.last)
        #expect(last.resourcesDone == summary.resources && last.resourceCount == summary.resources)
        #expect(last.bytesWritten == report.byteCount && last.totalBytes == summary.knownBytes && last.bytesFetched == summary.knownBytes)
    }

    @Test("progress without known sizes is determinate in resources")
    func progressByResources() async throws {
        let harness = try DownloadHarness()
        _ = try await harness.download("/a_ts_vod/index.m3u8")
        let progress = harness.events.compactMap { if case .progress(let value) = $0 { value } else { nil } }
        #expect(progress.last?.resourcesDone == 4 && progress.last?.resourceCount == 4 && progress.last?.totalBytes == nil)
    }

    @Test("progress between resources: the bytes of a segment still arriving are counted as they come, resources and bytes only grow")
    func bytesInFlight() async throws {
        let harness = try DownloadHarness()
        // The second segment (19,928 bytes) trickles at 8 kB/s: over two seconds in flight.
        harness.origin.inject(.trickle(bytesPerSecond: 8000), path: "/a_ts_vod/seg_001.ts")
        var options = SingleFileDownload.Options()
        options.parallelism = 1
        _ = try await harness.download("/a_ts_vod/index.m3u8", options: options)
        let progress = harness.events.compactMap { if case .progress(let value) = $0 { value } else { nil } }
        let between = progress.filter { $0.resourcesDone == 1 && $0.bytesReceived > $0.bytesFetched }
        #expect(!between.isEmpty, "no progress while the second segment arrived: \(progress.map { "\($0.resourcesDone) \($0.bytesFetched) \($0.bytesReceived)" })")
        #expect(zip(progress, progress.dropFirst()).allSatisfy { $0.resourcesDone <= $1.resourcesDone && $0.bytesReceived <= $1.bytesReceived })
        #expect(progress.last.map { $0.bytesReceived == $0.bytesFetched } == true, "at the end every byte received is written")
    }
}
