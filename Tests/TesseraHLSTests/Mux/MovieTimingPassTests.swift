import Foundation
import Testing
@testable import TesseraHLS
import TesseraMedia
import TesseraSupport
import TesseraTestSupport

@Suite("Movie timing pass: segments timed as the transfer writes them, in the sources' order")
struct MovieTimingPassTests {
    /// The discontinuity fixture's six segments (three runs) as one source's, then the
    /// multivariant fixture's audio rendition as a second.
    static func sources() -> [MovieMux.Source] {
        let video = ["p1_000", "p1_001", "p2_002", "p2_003", "p3_004", "p3_005"].enumerated().map { index, name in
            MovieMux.Segment(path: FixtureStore.root.appendingPathComponent("g_discontinuity/\(name).ts").path, range: nil, run: index / 2)
        }
        let audio = (0..<5).map { MovieMux.Segment(path: FixtureStore.root.appendingPathComponent("e_multivariant/audio/seg_00\($0).ts").path, range: nil, run: 0) }
        return [MovieMux.Source(segments: video, kinds: [.video, .audio]), MovieMux.Source(segments: audio, kinds: [.audio], language: "eng")]
    }

    @Test("segments offered in order with their bytes in memory give the timeline the pass from the files gives")
    func inOrder() throws {
        let sources = Self.sources()
        let fromFiles = try MovieMux(sources: sources).firstPass()
        var pass = MovieTimingPass(sources: sources)
        for segment in sources.flatMap(\.segments) {
            #expect(!pass.isComplete)
            let bytes = try FileDescriptorIO.readRegularFile(segment.path, limit: 1 << 26)
            #expect(try pass.offer(path: segment.path, range: 0..<UInt64(bytes.count), bytes: bytes) == true)
        }
        #expect(pass.isComplete)
        let offered = try pass.finish()
        #expect(offered.order == fromFiles.order && offered.order.count == 3)
        #expect(offered.tracks.map(\.samples) == fromFiles.tracks.map(\.samples))
        #expect(offered.tracks.map(\.descriptions.count) == [2, 2, 1], "the runs' changed parameters are further descriptions")
        #expect(offered.tracks.map(\.language) == ["und", "und", "eng"])
    }

    @Test("a segment out of order is refused and left to the pass from the files; a file no segment lies in is not one")
    func outOfOrder() throws {
        let sources = Self.sources()
        var pass = MovieTimingPass(sources: sources)
        let second = sources[0].segments[1].path
        #expect(try pass.offer(path: second, range: 0..<100, bytes: nil) == false)
        #expect(try pass.offer(path: "/elsewhere/init.mp4", range: 0..<100, bytes: nil) == nil)
        #expect(try pass.offer(path: sources[0].segments[0].path, range: 100..<200, bytes: nil) == nil, "another range of the file is not the segment")
        #expect(pass.next?.source == 0 && pass.next?.segment == 0)
    }

    @Test("gaps are skipped: the pass is complete once every media segment is taken")
    func gapsSkipped() throws {
        var sources = Self.sources()
        var segments = sources[1].segments
        segments[4].isGap = true
        sources[1] = MovieMux.Source(segments: segments, kinds: [.audio])
        var pass = MovieTimingPass(sources: sources)
        var taken = 0
        while !pass.isComplete {
            try pass.take()
            taken += 1
        }
        #expect(taken == 10)
        #expect(try pass.finish().tracks.last?.samples.count ?? 0 > 0)
    }
}
