import Testing
import TesseraMedia
import TesseraTestSupport

@Suite("MPEG-TS to MP4 fuzz inputs")
struct MovieMuxFuzzReplayTests {
    @Test("every saved input demuxes alike whole and split at every 97th byte, and muxes as two runs to a file as long as its layout, or a typed refusal; rewritten as MPEG-TS, whole packets our demuxer reads; read as fMP4, its samples lie in the segment; read as WebVTT, no more cues come out than went in")
    func replay() throws {
        let inputs = try FuzzInputs.inputs("FuzzMovieMux")
        #expect(inputs.count >= 3, "the FuzzMovieMux corpus is empty")
        for bytes in inputs {
            let whole = Self.packets(bytes, split: bytes.count)
            for split in stride(from: 0, through: bytes.count, by: 97) {
                #expect(Self.packets(bytes, split: split) == whole)
            }
            do throws(MediaError) {
                let (file, tracks) = try TransportStreamMux.mux([(Array(bytes[..<(bytes.count / 2)]), 0), (Array(bytes[(bytes.count / 2)...]), 1)])
                #expect(UInt64(file.count) == (try ProgressiveMP4(tracks: tracks).layout()).fileSize)
            } catch {
                #expect([.malformedTransportStream, .malformedElementaryStream, .parametersChanged, .unsupportedStream].contains(error.code), "\(error)")
            }
            // Their access units written back as MPEG-TS: whole packets our demuxer reads.
            if let written = try? TransportStreamMux.rewrite(bytes) {   // a reader's or the writer's refusal is expected of arbitrary bytes
                var demuxer = TSDemuxer()
                #expect(written.count % 188 == 0)
                #expect((try? demuxer.consume(written) + demuxer.finish()) != nil)
            }
            let split = bytes.count / 2
            // Refusals (try? → nil) are expected of arbitrary bytes; what a read gives is checked.
            if let initialization = try? FragmentedMP4Init(Array(bytes[..<split])),
               let samples = try? FragmentSamples.samples(of: Array(bytes[split...]), initialization: initialization) {
                #expect(samples.allSatisfy { $0.range.upperBound <= bytes.count - split })
            }
            if let segment = try? WebVTTSegment(bytes) {   // most inputs are not WebVTT: their refusal is expected
                var track = WebVTTTrack()
                track.add(segment, run: 0, clock: try WebVTTTrackTests.clock())
                #expect(track.count <= segment.cues.count && track.text.hasPrefix("WEBVTT"))
                #expect(track.text(as: .subRip).split(separator: "\n\n").count <= track.count)
            }
        }
    }

    /// The demuxer's packets of `bytes` fed in two chunks at `split`, as text; or its refusal.
    static func packets(_ bytes: [UInt8], split: Int) -> [String] {
        var demuxer = TSDemuxer(maximumPESBytes: 1 << 16)
        do throws(MediaError) {
            let packets = try demuxer.consume(Array(bytes[..<split])) + demuxer.consume(Array(bytes[split...])) + demuxer.finish()
            return packets.map { "\($0.pid) \($0.streamType) \($0.pts ?? 0) \($0.dts ?? 0) \($0.byteOffset) \($0.data)" }
        } catch {
            return ["refused: \(error.code)"]
        }
    }
}
