#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Testing
import TesseraMedia
import TesseraTestSupport

@Suite("ElementaryStreamReader")
struct ElementaryStreamReaderTests {
    @Test("sizes alone (a muxer's first pass): every unit as with its bytes — timing, sync, media, size — but no picture bytes; MPEG-TS (H.264, H.265) and fMP4")
    func sizesAlone() throws {
        func compare(_ read: (inout ElementaryStreamReader) throws -> [ElementaryStreamReader.Unit]) throws {
            var full = ElementaryStreamReader(), sized = ElementaryStreamReader()
            sized.keepsBytes = false
            let (kept, measured) = (try read(&full), try read(&sized))
            #expect(measured.count == kept.count && !kept.isEmpty)
            #expect(measured.map(\.unit.size) == kept.map(\.unit.data.count))
            #expect(measured.map(\.unit.decodeTime) == kept.map(\.unit.decodeTime) && measured.map(\.unit.isSync) == kept.map(\.unit.isSync))
            #expect(measured.map(\.media) == kept.map(\.media))
            #expect(measured.filter { $0.kind == .video }.allSatisfy { $0.unit.data.isEmpty })
        }
        try compare { reader in try (0..<4).flatMap { try reader.read(segment: try FixtureStore.bytes("a_ts_vod/seg_00\($0).ts")) } }
        let initialization = try FragmentedMP4Init(try FixtureStore.bytes("b_fmp4_video/init.mp4"))
        try compare { reader in try reader.read(fragment: try FixtureStore.bytes("b_fmp4_video/seg_000.m4s"), initialization: initialization) }
    }

    @Test("a segment with two AAC streams gives the program map's first only, not the two interleaved in one track")
    func firstStreamOfEachKind() throws {
        let ffmpeg = try #require(ExternalProcess.find("ffmpeg"), "Scripts/bootstrap.sh installs ffmpeg")
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-two-audio-\(UInt64.random(in: 0...UInt64.max))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }   // cleanup of a scratch folder: nothing to report
        let path = folder.appendingPathComponent("two.ts").path
        try ExternalProcess.shell("'\(ffmpeg)' -nostdin -v error -f lavfi -i sine=frequency=440:sample_rate=48000 -f lavfi -i sine=frequency=880:sample_rate=44100 "
            + "-t 1 -map 0 -map 1 -c:a aac -f mpegts '\(path)'")
        let (movie, tracks) = try TransportStreamMux.mux([(try [UInt8](Data(contentsOf: URL(fileURLWithPath: path))), 0)])
        #expect(tracks.count == 1)
        guard case .aac(let configuration) = tracks[0].media else { Issue.record("not AAC"); return }
        #expect(configuration.sampleRate == 48000 && tracks[0].descriptions.count == 1)
        let first = try ProgressiveMP4Tests.frameHashes(ffmpeg, path, "0:a:0")
        let muxed = try PresentationTimelineTests.withFile(movie, name: "one.mp4") { try ProgressiveMP4Tests.frameHashes(ffmpeg, $0, "0:a") }
        #expect(muxed == first)
    }
}
