import Foundation
import Testing
import TesseraHLS
import TesseraLive
import TesseraPlaylist
import TesseraSupport
import TesseraTestSupport

/// `Options.parts` against the LL-HLS test origin publishing on demand — each blocking reload
/// for the next part publishes it — so the recorder sees every part as it appears: segments that
/// complete after tune-in are written from their parts when those prove to be them, else fetched
/// whole; the files are the origin's segments byte for byte either way, and no part reaches the
/// package.
@Suite("Live recording with LL-HLS parts: promoted when proven, else whole; never in the package")
struct LiveRecordingPartsTests {
    typealias Live = LiveRecordingTests.Live

    /// Records 12 s (six 2 s segments of two parts, from segment 5: the newest at tune-in) with
    /// `parts`, the origin publishing on demand; the report, the reasons segments fell back, and
    /// the origin's media requests.
    private func record(_ live: Live, parts: RecordingParts = RecordingParts()) async throws -> (report: RecordingReport, fellBack: [String], media: [String]) {
        // Segments 0–5 are out at tune-in (nothing more until the first is written: the start is
        // segment 5); then the origin publishes on demand up to two segments past those written
        // (the next one to plan is always among the last two, its parts listed).
        let origin = live.origin, perSegment = live.origin.partsPerSegment
        origin.publishOnDemand(through: 6 * perSegment)
        var options = LiveRecording.Options()
        options.duration = .seconds(12)
        options.parts = parts
        let fellBack = Lock([String]())
        let report = try await live.recording(options).run { event in
            switch event {
            case .job(.partsFellBack(let track, let msn, let reason)): fellBack.withLock { $0.append("\(track) \(msn): \(reason)") }
            case .progress(let progress): origin.publishOnDemand(through: (7 + progress.segments) * perSegment)
            default: break
            }
        }
        let ext = live.origin.renderer.configuration.segmentExtension
        return (report, fellBack.withLock { $0 }, live.origin.log.filter { $0.hasPrefix("/s") && $0.hasSuffix("." + ext) })
    }

    /// The recorded files are the origin's segments (fixtures cycled), and the playlist lists no part.
    private func expectExact(_ live: Live, fmp4: Bool = false) throws {
        let verification = try live.verified()
        let playlist = try live.playlist(verification)
        #expect(playlist.segments.map(\.mediaSequence) == Array(5...10) && !playlist.segments.contains(where: \.isGap))
        #expect(playlist.segments.allSatisfy { $0.parts.isEmpty } && playlist.pendingParts.isEmpty && playlist.partInformation == nil)
        let text = String(decoding: try #require(verification.playlists["video/index.m3u8"]), as: UTF8.self)
        #expect(!text.contains("EXT-X-PART") && !text.contains("PRELOAD-HINT"))
        for segment in playlist.segments {
            let name = fmp4 ? "b_fmp4_video/seg_00\(segment.mediaSequence % 4).m4s" : "a_ts_vod/seg_00\(segment.mediaSequence % 4).ts"
            let stored = try Data(contentsOf: live.destination.appendingPathComponent("video/" + segment.uri))
            #expect(Array(stored) == (try FixtureStore.bytes(name)), "segment \(segment.mediaSequence) as served")
        }
    }

    @Test("every segment completed after tune-in is written from its parts; none of them is fetched whole")
    func promoted() async throws {
        let live = try Live()
        let (report, fellBack, media) = try await record(live)
        let parts = try #require(report.parts)
        #expect(report.segments == 6 && report.gaps == 0)
        #expect(parts.promoted == 5 && parts.fellBack == 0, "segments 6–10 from their parts: \(fellBack) \(parts) \(live.origin.log)")
        #expect(parts.fetched >= 10 && parts.bytes > 0)
        #expect(media.filter { !$0.contains(".p") } == ["/s5.ts"], "only the segment complete at tune-in fetched whole: \(media)")
        #expect(Set(media).count == media.count, "each part fetched once: \(media)")
        try expectExact(live)
    }

    @Test("fMP4 parts with a map are promoted too, the joined segment checked as boxes")
    func promotedFMP4() async throws {
        let live = try Live(fmp4: true) { $0.mapEvery = 4 }
        let (report, fellBack, media) = try await record(live)
        #expect(report.parts?.promoted == 5 && report.parts?.fellBack == 0, "\(fellBack) \(String(describing: report.parts)) \(live.origin.log)")
        #expect(media.filter { !$0.contains(".p") } == ["/s5.m4s"])
        try expectExact(live, fmp4: true)
    }

    @Test("parts whose durations do not add up to their segment's EXTINF are not its proof: every segment is fetched whole")
    func durationsDisagree() async throws {
        let live = try Live { $0.partDuration = "0.9" }
        let (report, fellBack, media) = try await record(live)
        #expect(report.parts?.promoted == 0 && report.parts?.fellBack == 5, "\(fellBack) \(String(describing: report.parts)) \(live.origin.log)")
        #expect(fellBack.count == 5 && fellBack.allSatisfy { $0.contains("EXTINF") }, "\(fellBack)")
        #expect(media.filter { !$0.contains(".p") } == (5...10).map { "/s\($0).ts" })
        try expectExact(live)
    }

    @Test("a part the origin cannot give: that segment is fetched whole, the others promoted")
    func partRefused() async throws {
        let live = try Live()
        live.origin.refuse(partsOf: [7])
        let (report, fellBack, media) = try await record(live)
        #expect(report.parts?.promoted == 4 && report.parts?.fellBack == 1)
        #expect(fellBack.count == 1 && fellBack[0].hasPrefix("video 7: part 0 could not be staged"), "\(fellBack)")
        #expect(media.filter { !$0.contains(".p") } == ["/s5.ts", "/s7.ts"])
        try expectExact(live)
    }

    @Test("a stage of one part holds no segment's two: each falls back whole, the recording complete")
    func stageBound() async throws {
        let live = try Live()
        var parts = RecordingParts()
        parts.maximumParts = 1
        let (report, fellBack, media) = try await record(live, parts: parts)
        #expect(report.parts?.promoted == 0 && report.parts?.fellBack == 5, "\(fellBack) \(String(describing: report.parts)) \(live.origin.log)")
        #expect(fellBack.allSatisfy { $0.contains("the stage already held 1 parts") }, "\(fellBack)")
        #expect(media.filter { !$0.contains(".p") } == (5...10).map { "/s\($0).ts" })
        try expectExact(live)
    }

    @Test("encrypted segments are fetched whole and decrypted; none of their parts is fetched")
    func encrypted() async throws {
        let live = try Live { $0.keyEvery = 1 }
        let (report, fellBack, media) = try await record(live)
        #expect(report.parts == RecordingPartsReport(), "nothing staged: \(fellBack)")
        #expect(media == (5...10).map { "/s\($0).ts" })
        try expectExact(live)
    }

    @Test("preload hints: the hinted part is fetched before it is listed, kept once a playlist lists it, never fetched twice")
    func preloadHints() async throws {
        let live = try Live()
        var options = RecordingParts()
        options.preloadHints = true
        let (report, fellBack, media) = try await record(live, parts: options)
        let parts = try #require(report.parts)
        #expect(parts.promoted == 5 && parts.fellBack == 0, "\(fellBack)")
        #expect(parts.hintsConfirmed >= 1 && parts.hintsFetched == parts.hintsConfirmed + parts.hintsDiscarded, "\(parts)")
        let recorded = media.filter { path in (6...10).contains { path.hasPrefix("/s\($0).p") } }
        #expect(Set(recorded).count == recorded.count && recorded.count == 10, "each part of segments 6–10 once: \(media)")
        try expectExact(live)
    }
}
