import Testing
import TesseraMedia
import TesseraTestSupport

@Suite("FragmentSamples")
struct FragmentSamplesTests {
    @Test("an initialization section gives each track's ID, timescale, handler, picture size and its sample entry as written")
    func initialization() throws {
        let video = try FragmentedMP4Init(try FixtureStore.bytes("b_fmp4_video/init.mp4"))
        #expect(video.tracks.count == 1 && video.tracks[0].handler == "vide")
        #expect(video.tracks[0].width == 160 && video.tracks[0].height == 90)
        #expect(String(decoding: video.tracks[0].sampleEntry[4..<8], as: UTF8.self) == "avc1")
        let muxed = try FragmentedMP4Init(try FixtureStore.bytes("c_fmp4_aes/clear_init.mp4"))
        #expect(muxed.tracks.map(\.handler) == ["vide", "soun"])
        #expect(String(decoding: muxed.tracks[1].sampleEntry[4..<8], as: UTF8.self) == "mp4a")
        #expect(muxed.tracks.allSatisfy { $0.timescale > 0 })
    }

    @Test("a segment's samples come from every traf of every moof, decode times following the durations, bytes inside the segment")
    func samples() throws {
        let initialization = try FragmentedMP4Init(try FixtureStore.bytes("c_fmp4_aes/clear_init.mp4"))
        let segment = try FixtureStore.bytes("c_fmp4_aes/clear_007.m4s")
        let samples = try FragmentSamples.samples(of: segment, initialization: initialization)
        let video = samples.filter { $0.track == initialization.tracks[0].id }, audio = samples.filter { $0.track == initialization.tracks[1].id }
        #expect(video.count == 25 && !audio.isEmpty)
        #expect(video.first?.isSync == true && video.dropFirst().contains { !$0.isSync })
        for track in [video, audio] {
            #expect(zip(track, track.dropFirst()).allSatisfy { $0.decodeTime + UInt64($0.duration) == $1.decodeTime })
        }
        #expect(samples.allSatisfy { $0.range.upperBound <= segment.count && !$0.range.isEmpty })
    }

    @Test("a segment or an initialization section cut short is a typed error, never a trap")
    func defects() throws {
        let video = try FragmentedMP4Init(try FixtureStore.bytes("b_fmp4_video/init.mp4"))
        let segment = try FixtureStore.bytes("b_fmp4_video/seg_000.m4s")
        #expect(throws: MediaError.self) { _ = try FragmentSamples.samples(of: Array(segment.prefix(segment.count / 2)), initialization: video) }
        #expect(throws: MediaError.self) { _ = try FragmentedMP4Init(Array(try FixtureStore.bytes("b_fmp4_video/init.mp4").prefix(40))) }
    }

    @Test("a trun listing more samples than a segment may (empty ones cost no bytes) is a typed error, not millions of records")
    func sampleBound() throws {
        let initialization = try FragmentedMP4Init(try FixtureStore.bytes("b_fmp4_video/init.mp4"))
        let (box, u32) = (BoxBytes.box, BoxBytes.u32)
        let track = initialization.tracks[0].id
        // default-base-is-moof with a default sample size of 0; a trun of 2^20 + 1 samples and no per-sample field.
        let traf = box("traf", box("tfhd", u32(0x2_0010, track, 0)) + box("tfdt", u32(0, 0)) + box("trun", u32(0, UInt32(FragmentSamples.maximumSamples + 1))))
        let segment = box("moof", box("mfhd", u32(0, 1)) + traf) + box("mdat", [])
        let error = #expect(throws: MediaError.self) { _ = try FragmentSamples.samples(of: segment, initialization: initialization) }
        #expect(error?.message.contains("more than \(FragmentSamples.maximumSamples) samples") == true)
    }
}
