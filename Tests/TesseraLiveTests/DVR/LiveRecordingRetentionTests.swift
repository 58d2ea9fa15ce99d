import Foundation
import Testing
import TesseraHLS
import TesseraLive
import TesseraPlaylist
import TesseraSupport
import TesseraTestSupport

/// Rolling retention: the oldest complete media evicted while the recording goes on — files
/// deleted once a checkpoint without them is durable, names never reused, maps kept while used,
/// the renditions' aligned files with the variant's — and the manifest and report say what went.
@Suite("Live recording with rolling retention: the oldest evicted, the rest a verified package")
struct LiveRecordingRetentionTests {
    typealias Live = LiveRecordingTests.Live
    typealias Publisher = LiveRecordingTests.Publisher

    /// The media files in `folder` (none when it is missing: the comparisons then fail).
    static func files(_ folder: URL) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []).filter { $0 != "index.m3u8" }.sorted()
    }

    @Test("by duration: the last 6 s kept, every segment before evicted, its files gone, the manifest and report saying so")
    func byDuration() async throws {
        let live = try Live()
        var options = LiveRecording.Options()
        options.start = .windowStart
        options.retention = .duration(.seconds(6))
        let publisher = Publisher(live.origin)
        let report = try await live.recording(options).run { event in
            if case .progress(let progress) = event { publisher.publish(after: progress, endAfter: 10) }
        }
        #expect(report.end == .endList)
        let verification = try live.verified()
        let playlist = try live.playlist(verification)
        let kept = playlist.segments.map(\.mediaSequence)
        #expect(playlist.segments.reduce(0) { $0 + $1.duration } <= 6 && kept.count == 3, "\(kept)")
        #expect(playlist.mediaSequence == kept.first && kept == Array(kept.first!...kept.last!))
        let evictedThrough = kept.first! - 1
        #expect(report.evicted == Int(kept.first!) && report.evictedDuration == Double(2 * report.evicted) && report.evictedBytes > 0)
        #expect(verification.manifest?.evictions.map { "\($0.track) \($0.firstMediaSequence)-\($0.lastMediaSequence)" } == ["video 0-\(evictedThrough)"])
        #expect(Self.files(live.destination.appendingPathComponent("video")) == kept.map { "\($0).ts" }.sorted(), "no evicted file left")
    }

    @Test("fMP4 with rotating maps: a map is deleted only once no kept segment uses it")
    func maps() async throws {
        let live = try Live(fmp4: true) { $0.mapEvery = 3 }
        var options = LiveRecording.Options()
        options.start = .windowStart
        options.retention = .duration(.seconds(4))
        let publisher = Publisher(live.origin)
        _ = try await live.recording(options).run { event in
            if case .progress(let progress) = event { publisher.publish(after: progress, endAfter: 11) }
        }
        let playlist = try live.playlist(try live.verified())
        let maps = Set(playlist.segments.compactMap(\.map?.uri))
        let files = Self.files(live.destination.appendingPathComponent("video"))
        #expect(Set(files.filter { $0.hasPrefix("init-") }) == maps, "the maps kept are exactly those used: \(files)")
        #expect(files.filter { !$0.hasPrefix("init-") } == playlist.segments.map { "\($0.mediaSequence).m4s" }.sorted())
    }

    @Test("an interrupted recording with retention resumes without what was evicted; the evictions add up across the runs")
    func resume() async throws {
        let live = try Live()
        var options = LiveRecording.Options()
        options.start = .windowStart
        options.retention = .duration(.seconds(4))
        #expect(await LiveRecordingTests.cancel(live.recording(options), after: 5)?.code == .cancelled)
        options.resume = .required
        options.duration = .seconds(20)
        let publisher = Publisher(live.origin)
        let report = try await live.recording(options).run { publisher.follow($0) }
        let verification = try live.verified()
        let kept = try live.playlist(verification).segments.map(\.mediaSequence)
        #expect(kept.count == 2 && report.gaps == 0, "\(kept)")
        #expect(verification.manifest?.evictions.first?.firstMediaSequence == 0)
        #expect(verification.manifest?.evictions.first?.lastMediaSequence == kept.first! - 1, "every segment before the kept ones, in one run of evictions")
        #expect(Self.files(live.destination.appendingPathComponent("video")) == kept.map { "\($0).ts" }.sorted())
    }

    @Test("by bytes with an audio rendition: the audio aligned before the variant's first kept segment goes with it")
    func renditionsByBytes() async throws {
        let live = try LiveRecordingRenditionTests.Presentation()
        let segmentBytes = UInt64(try FixtureStore.bytes("a_ts_vod/seg_000.ts").count)
        var options = LiveRecording.Options()
        options.start = .windowStart
        options.duration = .seconds(24)
        options.retention = .bytes(segmentBytes * 9)
        _ = try await live.record(options, ahead: 0)
        let (video, audio, verification) = try live.recorded()
        let videoSpan = LiveRecordingRenditionTests.span(video, seconds: 2)
        let audioSpan = LiveRecordingRenditionTests.span(audio, seconds: 3)
        #expect(video.segments.count < 12 && video.segments.last?.mediaSequence == 11, "\(video.segments.map(\.mediaSequence))")
        #expect(audioSpan.lowerBound <= videoSpan.lowerBound && audioSpan.upperBound >= videoSpan.upperBound, "audio \(audioSpan) covers video \(videoSpan)")
        #expect(audioSpan.lowerBound + 3 > videoSpan.lowerBound, "nothing of the audio kept that ends before the video's first kept segment: \(audioSpan) \(videoSpan)")
        #expect(Set(verification.manifest?.evictions.map(\.track) ?? []) == ["video", "audio-1"])
    }
}
