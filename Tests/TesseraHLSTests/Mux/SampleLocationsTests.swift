import Foundation
import Testing
@testable import TesseraHLS
import TesseraMedia
import TesseraSupport
import TesseraTestSupport

@Suite("Sample locations: the second pass copies fragmented MP4 samples straight from the staged files")
struct SampleLocationsTests {
    /// The fMP4 video and audio fixtures as two sources, each segment a file after its init.
    static func separate(in folder: URL = FixtureStore.root) -> [MovieMux.Source] {
        func source(_ name: String, count: Int, kind: ElementaryStreamReader.Kind) -> MovieMux.Source {
            let map = MovieMux.Region(path: folder.appendingPathComponent("\(name)/init.mp4").path, range: nil)
            return MovieMux.Source(segments: (0..<count).map {
                MovieMux.Segment(path: folder.appendingPathComponent("\(name)/seg_00\($0).m4s").path, range: nil, run: 0, map: map)
            }, kinds: [kind])
        }
        return [source("b_fmp4_video", count: 4, kind: .video), source("b_fmp4_audio", count: 5, kind: .audio)]
    }

    /// The single-file fixture: its init and segments as byte ranges of one file.
    static func singleFile() throws -> [MovieMux.Source] {
        let path = FixtureStore.root.appendingPathComponent("d_fmp4_single/media.mp4").path
        let playlist = try String(contentsOfFile: FixtureStore.root.appendingPathComponent("d_fmp4_single/index.m3u8").path, encoding: .utf8)
        let ranges = playlist.split(separator: "\n").compactMap { line -> Range<UInt64>? in
            guard line.hasPrefix("#EXT-X-BYTERANGE:") else { return nil }
            let parts = line.dropFirst("#EXT-X-BYTERANGE:".count).split(separator: "@").compactMap { UInt64($0) }
            return parts[1]..<(parts[1] + parts[0])
        }
        let map = MovieMux.Region(path: path, range: 0..<1366)
        return [MovieMux.Source(segments: ranges.map { MovieMux.Segment(path: path, range: $0, run: 0, map: map) }, kinds: [.video, .audio])]
    }

    /// Copies every sample of every track at its location, `room` bytes at a time, and expects
    /// the bytes the reader gives (the second pass's way before locations); returns the reads per track.
    @discardableResult
    static func expectCopiesMatchReader(_ sources: [MovieMux.Source], room: Int) throws -> [Int] {
        let first = try MovieMux(sources: sources).firstPass()
        var reads: [Int] = []
        for (index, key) in first.order.enumerated() {
            let track = first.tracks[index]
            #expect(first.locations.locates(index))
            var stream = SampleStream(key: key, source: sources[key.source])
            var expected: [UInt8] = []
            for sample in track.samples { expected += try stream.next(size: sample.size) }
            var copied: [UInt8] = []
            var (sample, count) = (0, 0)
            while sample < track.samples.count {
                sample += try first.locations.copy(sample..<track.samples.count, of: track, index: index, source: sources[key.source], into: &copied, room: room)
                count += 1
            }
            #expect(copied == expected)
            reads.append(count)
        }
        return reads
    }

    @Test("the samples copied at their locations are the reader's bytes; a segment's adjacent samples are one read, or one each when no room is left")
    func separateFiles() throws {
        #expect(try Self.expectCopiesMatchReader(Self.separate(), room: .max) == [4, 5], "one read per segment")
        let samples = try MovieMux(sources: Self.separate()).firstPass().tracks.map(\.samples.count)
        #expect(try Self.expectCopiesMatchReader(Self.separate(), room: 0) == samples, "at least one sample a read")
    }

    @Test("in a single file's byte ranges each sample lies at its segment's start plus its offset there")
    func byteRanges() throws {
        let reads = try Self.expectCopiesMatchReader(Self.singleFile(), room: 1 << 20)
        #expect(reads.count == 2, "the file's video and audio tracks")
    }

    @Test("a track demuxed from MPEG-TS has no locations")
    func transportStream() throws {
        let first = try MovieMux(sources: MovieTimingPassTests.sources()).firstPass()
        #expect(first.order.indices.allSatisfy { !first.locations.locates($0) })
    }

    @Test("a staged segment shorter than its samples is destination-unwritable, and the buffer keeps what it had")
    func truncatedSegment() throws {
        let folder = try TemporaryDirectory()
        for name in ["init.mp4", "seg_000.m4s", "seg_001.m4s", "seg_002.m4s", "seg_003.m4s"] {
            try folder.write("b_fmp4_video/\(name)", FileDescriptorIO.readRegularFile(FixtureStore.root.appendingPathComponent("b_fmp4_video/\(name)").path, limit: 1 << 24))
        }
        let sources = [Self.separate(in: folder.url)[0]]
        let first = try MovieMux(sources: sources).firstPass()
        try folder.write("b_fmp4_video/seg_000.m4s", [0, 0, 0, 8])
        var buffer: [UInt8] = [7]
        let track = first.tracks[0]
        #expect(throws: HLSError.self) {
            _ = try first.locations.copy(0..<track.samples.count, of: track, index: 0, source: sources[0], into: &buffer, room: .max)
        }
        #expect(buffer == [7])
    }
}
