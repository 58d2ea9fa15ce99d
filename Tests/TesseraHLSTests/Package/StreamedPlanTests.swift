import Foundation
import Testing
@testable import TesseraHLS
import TesseraHTTP
import TesseraSupport
import TesseraTestSupport

@Suite("Streamed movie plan: one resource per segment, ordered by time across the muxed tracks")
struct StreamedPlanTests {
    /// The multivariant fixture's 320x180 video twice over (its segment URIs listed twice, a
    /// discontinuity between), its audio so too, and its subtitles.
    static let repeated: [String: String] = {
        func twice(_ folder: String, _ count: Int, _ duration: String) -> String {
            let segments = (0..<count).map { "#EXTINF:\(duration),\n../e_multivariant/\(folder)/seg_00\($0).ts" }.joined(separator: "\n")
            return "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:2\n#EXT-X-PLAYLIST-TYPE:VOD\n\(segments)\n#EXT-X-DISCONTINUITY\n\(segments)\n#EXT-X-ENDLIST\n"
        }
        return ["repeat/video.m3u8": twice("hi", 4, "1.000000"), "repeat/audio.m3u8": twice("audio", 5, "1.002667"),
                "repeat/master.m3u8": """
                #EXTM3U
                #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aud",NAME="en",LANGUAGE="en",DEFAULT=YES,URI="audio.m3u8"
                #EXT-X-MEDIA:TYPE=SUBTITLES,GROUP-ID="subs",NAME="subs",DEFAULT=YES,URI="../e_multivariant/hi/index_vtt.m3u8"
                #EXT-X-STREAM-INF:BANDWIDTH=200000,RESOLUTION=320x180,CODECS="avc1.4d400c,mp4a.40.2",AUDIO="aud",SUBTITLES="subs"
                video.m3u8

                """]
    }()

    @Test("every listed segment once, the tracks interleaved by their EXTINF starts, a track's own order kept; subtitles after, as planned")
    func interleaved() async throws {
        let harness = try PackageHarness(extra: Self.repeated)
        // A movie that embeds its subtitles is muxed from staged segments: its plan is the package's.
        let plan = try await MovieDownloadTests.planned(MovieDownloadTests.job(harness, "/repeat/master.m3u8", writing: .init(embedsSubtitles: true))).plan
        let muxed = Set(plan.tracks.filter { $0.info.role != .subtitles }.map(\.stream))
        #expect(muxed.count == 2)
        let streamed = try plan.streamed(muxing: muxed)
        let media = streamed.resources.filter { muxed.contains($0.identity.stream) }
        #expect(media.count == 8 + 10, "a segment listed twice is fetched twice")
        #expect(plan.resources.filter { muxed.contains($0.identity.stream) }.count < media.count, "the package plan fetches each file once")
        #expect(Array(streamed.resources.prefix(media.count)).map(\.identity) == media.map(\.identity), "the media first")
        #expect(Array(streamed.resources.dropFirst(media.count)).map(\.identity)
                == plan.resources.filter { !muxed.contains($0.identity.stream) }.map(\.identity))
        var starts: [StreamIdentity: Double] = [:]
        var last = 0.0
        for resource in media {
            let start = starts[resource.identity.stream, default: 0]
            #expect(start >= last, "each resource starts no earlier than the one before it")
            last = start
            starts[resource.identity.stream] = start + resource.duration
        }
        for stream in muxed {
            let sequences = media.filter { $0.identity.stream == stream }.map(\.identity.mediaSequence)
            #expect(sequences == sequences.sorted() && Set(sequences).count == sequences.count, "each track in playlist order")
        }
        #expect(media.filter(\.startsDiscontinuity).count == 2, "each track's second run starts a discontinuity")
        #expect(streamed.fingerprint != plan.fingerprint)
        #expect(try plan.streamed(muxing: muxed).fingerprint == streamed.fingerprint)
        let progressive = try await MovieDownloadTests.planned(MovieDownloadTests.job(harness, "/repeat/master.m3u8")).plan
        #expect(progressive.fingerprint == streamed.fingerprint, "a progressive movie's plan is the streamed one")
        #expect(streamed.knownBytes == nil && streamed.largestRange == nil)
    }

    /// Two fMP4 tracks whose maps change, with gaps, zero-length and equal starts across tracks.
    static let maps: [String: String] = [
        "maps/video.m3u8": """
        #EXTM3U
        #EXT-X-VERSION:7
        #EXT-X-TARGETDURATION:2
        #EXT-X-PLAYLIST-TYPE:VOD
        #EXT-X-MAP:URI="v1.mp4"
        #EXTINF:1,
        v0.m4s
        #EXTINF:1,
        v1.m4s
        #EXT-X-GAP
        #EXTINF:1,
        v2.m4s
        #EXT-X-DISCONTINUITY
        #EXT-X-MAP:URI="v2.mp4"
        #EXTINF:2,
        v3.m4s
        #EXTINF:0.5,
        v4.m4s
        #EXT-X-ENDLIST

        """,
        "maps/audio.m3u8": """
        #EXTM3U
        #EXT-X-VERSION:7
        #EXT-X-TARGETDURATION:2
        #EXT-X-PLAYLIST-TYPE:VOD
        #EXT-X-MAP:URI="a1.mp4"
        #EXTINF:2,
        a0.m4s
        #EXT-X-GAP
        #EXTINF:1,
        a1.m4s
        #EXT-X-DISCONTINUITY
        #EXT-X-MAP:URI="a2.mp4"
        #EXTINF:1.5,
        a2.m4s
        #EXTINF:1,
        a3.m4s
        #EXT-X-ENDLIST

        """,
        "maps/master.m3u8": """
        #EXTM3U
        #EXT-X-MEDIA:TYPE=AUDIO,GROUP-ID="aud",NAME="en",LANGUAGE="en",DEFAULT=YES,URI="audio.m3u8"
        #EXT-X-STREAM-INF:BANDWIDTH=200000,CODECS="avc1.4d400c,mp4a.40.2",AUDIO="aud"
        video.m3u8

        """,
    ]

    @Test("the tracks merged by start are the stable sort by (start, track) of every track's resources: maps before their segments, gaps left out")
    func mergedAsSorted() async throws {
        let harness = try PackageHarness(extra: Self.maps)
        let plan = try await MovieDownloadTests.planned(MovieDownloadTests.job(harness, "/maps/master.m3u8", writing: .init(allowsGaps: true))).plan
        let muxed = Set(plan.tracks.map(\.stream))
        #expect(muxed.count == 2)
        // The order the merge replaced: every track's resources with their starts, sorted stably.
        var timed: [(start: Double, track: Int, identity: ResourceIdentity)] = []
        for (index, track) in plan.tracks.enumerated() {
            var resources = StreamedTrackResources(track.playlist, stream: track.stream)
            while let next = resources.next() { timed.append((next.start, index, next.resource.identity)) }
        }
        let sorted = timed.enumerated().sorted { a, b in
            (a.element.start, a.element.track, a.offset) < (b.element.start, b.element.track, b.offset)
        }.map(\.element.identity)
        let streamed = try plan.streamed(muxing: muxed)
        #expect(streamed.resources.map(\.identity) == sorted)
        let kinds = streamed.resources.map { "\($0.identity.kind == .initialization ? "i" : "s")\($0.identity.stream == plan.tracks[0].stream ? "v" : "a")\($0.identity.mediaSequence)" }
        #expect(kinds == ["iv0", "sv0", "ia0", "sa0", "sv1", "iv3", "sv3", "ia2", "sa2", "sa3", "sv4"])
        #expect(streamed.resources.filter(\.startsDiscontinuity).map(\.identity.mediaSequence) == [3, 2])
    }
}
