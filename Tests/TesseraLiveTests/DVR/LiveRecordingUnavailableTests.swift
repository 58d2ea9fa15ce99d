import Foundation
import Testing
import TesseraHLS
import TesseraHTTP
import TesseraLive
import TesseraPlaylist
import TesseraSupport
import TesseraTestSupport

/// A listed segment its server cannot give (404, 503 after the client's retries): a gap the
/// recording lists and counts, going on — never the end of the recording, unless ten in a row
/// say the source is gone; under fail-on-gap, a failure that commits nothing.
@Suite("Live recording of segments that cannot be fetched: gaps, not the end")
struct LiveRecordingUnavailableTests {
    typealias Live = LiveRecordingTests.Live
    typealias Publisher = LiveRecordingTests.Publisher

    @Test("a 404 for one segment: listed as EXT-X-GAP with why, counted, the recording goes on to ENDLIST")
    func oneSegment() async throws {
        let live = try Live()
        live.origin.refuse(segments: [3])
        var options = LiveRecording.Options()
        options.start = .windowStart
        let publisher = Publisher(live.origin)
        let told = Lock<[String]>([])
        let report = try await live.recording(options).run { event in
            switch event {
            case .progress(let progress): publisher.publish(after: progress, endAfter: 9)
            case .job(.unavailable(let track, let msn, let reason)): told.withLock { $0.append("\(track) \(msn) \(reason)") }
            default: break
            }
        }
        #expect(report.end == .endList && report.gaps == 1, "\(report.end), \(report.gaps) gaps")
        #expect(told.withLock { $0.count } == 1 && told.withLock { $0[0] }.hasPrefix("video 3 "), "\(told.withLock { $0 })")
        let verification = try live.verified()
        let playlist = try live.playlist(verification)
        #expect(playlist.segments.filter(\.isGap).map(\.mediaSequence) == [3])
        #expect(playlist.segments.count >= 9 && playlist.segments.map(\.mediaSequence) == Array(0...UInt64(playlist.segments.count - 1)))
        #expect(verification.manifest?.gaps.map(\.reason) == ["could not be fetched (HTTP 404)"])
        #expect(verification.manifest?.gaps.first?.estimated != true, "its duration is the playlist's")
        #expect(!FileManager.default.fileExists(atPath: live.destination.appendingPathComponent("video/3.ts").path))
        #expect(live.origin.log.filter { $0 == "/s3.ts" }.count == 1, "asked once (the client's retries are off here)")
    }

    @Test("a segment served 500 bytes short (framing right): fetched again twice, then listed as a gap with why; the rest recorded, every file valid media")
    func shortSegment() async throws {
        let live = try Live()
        live.origin.shorten(segments: [4], by: 500)
        var options = LiveRecording.Options()
        options.start = .windowStart
        let publisher = Publisher(live.origin)
        let report = try await live.recording(options).run { event in
            if case .progress(let progress) = event { publisher.publish(after: progress, endAfter: 9) }
        }
        #expect(report.end == .endList && report.gaps == 1, "\(report.end), \(report.gaps) gaps")
        let verification = try live.verified()
        #expect(try live.playlist(verification).segments.filter(\.isGap).map(\.mediaSequence) == [4])
        #expect(verification.manifest?.gaps.map(\.reason) == ["not valid media when fetched (cut short or malformed)"])
        #expect(live.origin.log.filter { $0 == "/s4.ts" }.count == 3, "fetched, then fetched again twice")
        #expect(PackageStore(folder: live.destination).verify(.media).findings.isEmpty, "every file committed is valid media")
    }

    @Test("ten segments in a row that cannot be fetched: the source is taken to be gone, what came before is committed")
    func sourceGone() async throws {
        let live = try Live()
        live.origin.refuse(segments: Set(4..<100), status: 410)
        var options = LiveRecording.Options()
        options.start = .windowStart
        let publisher = Publisher(live.origin)
        let report = try await live.recording(options).run { event in
            if case .progress(let progress) = event { publisher.publish(total: progress.segments + progress.gaps) }
        }
        guard case .failed(let code, let reason) = report.end else {
            Issue.record("ended \(report.end)")
            return
        }
        #expect(code == .httpStatus && reason.contains("segments in a row could not be fetched"), "\(reason)")
        #expect(report.gaps == 0, "nothing listed after the last segment there was: \(report.gaps)")
        #expect(report.segments == 4, "segments 0–3 recorded")
        let playlist = try live.playlist(try live.verified())
        #expect(playlist.segments.prefix(4).allSatisfy { !$0.isGap })
    }

    @Test("a window of 5,000 segments none of which can be fetched, recorded from its start: ten in a row end it, the rest never requested")
    func hugeWindowGone() async throws {
        var text = "#EXTM3U\n#EXT-X-TARGETDURATION:2\n#EXT-X-MEDIA-SEQUENCE:0\n"
        for index in 0..<5_000 { text += "#EXTINF:2.0,\nmissing-\(index).ts\n" }
        let body = Array(text.utf8)
        let server = try ScriptedServer { request in request.path.hasSuffix(".m3u8") ? .init(200, body: body) : .init(404) }
        defer { server.shutdown() }
        let transport = try CurlTransport.loopback()
        defer { transport.shutdown() }
        var configuration = HLSClient.defaultConfiguration
        configuration.retry = .never
        let folder = try TemporaryDirectory()
        var options = LiveRecording.Options()
        options.start = .windowStart
        let recording = LiveRecording(url: server.baseURL.appendingPathComponent("live.m3u8"), destination: folder.url.appendingPathComponent("rec"),
                                      client: HLSClient(transport: transport, configuration: configuration), options: options)
        do throws(HLSError) {
            _ = try await recording.run()
            Issue.record("recorded from a source with no media")
        } catch {
            #expect(error.code == .nothingRecorded, "\(error)")
        }
        let segments = server.log.filter { $0.path.hasSuffix(".ts") }.count
        #expect(segments >= LiveRecording.maximumConsecutiveUnavailable && segments <= 64, "the stop takes no further segment: \(segments) requested")
    }

    @Test("under fail-on-gap a segment that cannot be fetched fails the recording, nothing committed")
    func failOnGap() async throws {
        let live = try Live()
        live.origin.refuse(segments: [2])
        var options = LiveRecording.Options()
        options.start = .windowStart
        options.failOnGap = true
        let publisher = Publisher(live.origin)
        do {
            _ = try await live.recording(options).run { event in
                if case .progress(let progress) = event { publisher.publish(after: progress, endAfter: 9) }
            }
            Issue.record("a recording with a hole was committed")
        } catch {
            #expect(error.code == .httpStatus && error.message.contains("fail-on-gap"), "\(error)")
        }
        #expect(!FileManager.default.fileExists(atPath: live.destination.path))
    }

    @Test("a resume keeps a segment that could not be fetched as the gap it was: not fetched again")
    func resumeKeepsGap() async throws {
        let live = try Live()
        live.origin.refuse(segments: [1])
        var options = LiveRecording.Options()
        options.start = .windowStart
        #expect(await LiveRecordingTests.cancel(live.recording(options), after: 3)?.code == .cancelled)
        live.origin.refuse(segments: [])
        options.resume = .required
        options.duration = .seconds(16)
        let publisher = Publisher(live.origin)
        let report = try await live.recording(options).run { publisher.follow($0) }
        #expect(report.end == .duration && report.gaps == 1, "\(report.end), \(report.gaps)")
        let verification = try live.verified()
        #expect(try live.playlist(verification).segments.filter(\.isGap).map(\.mediaSequence) == [1])
        #expect(live.origin.log.filter { $0 == "/s1.ts" }.count == 1, "not fetched again")
    }
}
