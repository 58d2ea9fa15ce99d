import TesseraMedia

/// Any bytes as MPEG-TS muxed into MP4, split at a point the input chooses: the demuxer gives
/// the same PES packets (or the same refusal) whole and in two chunks, and the in-memory mux of
/// the two halves as two discontinuity runs — demuxer, the H.264, H.265, AAC, AC-3, E-AC-3 and
/// MPEG audio readers, timeline, MP4 layout — either refuses with a typed error or gives a file as long as its layout says; read
/// their access units written back as MPEG-TS are whole packets our demuxer reads; read
/// as an fMP4 initialization section and a segment, its samples lie inside the segment; read as
/// WebVTT, no more cues come out than went in, as WebVTT or SubRip; it never traps.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzMovieMux(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let split = bytes.isEmpty ? 0 : Int(bytes[0]) * 97 % (bytes.count + 1)
    precondition(packets(bytes, split: nil) == packets(bytes, split: split), "chunking changed the demuxer's packets")
    // A refusal (try? → nil) is an expected outcome for arbitrary bytes; only a trap is a finding.
    if let (file, tracks) = try? TransportStreamMux.mux([(Array(bytes[..<split]), 0), (Array(bytes[split...]), 1)]) {
        precondition(UInt64(file.count) == (try? ProgressiveMP4(tracks: tracks).layout())?.fileSize, "the file is not as long as its layout")
    }
    // Their access units written back as one MPEG-TS program: whole packets that our demuxer
    // reads again (a reader's or the writer's refusal, try? → nil, is expected).
    if let written = try? TransportStreamMux.rewrite(bytes) {
        precondition(written.count % 188 == 0, "the transport stream is not whole packets")
        var demuxer = TSDemuxer()
        precondition((try? demuxer.consume(written) + demuxer.finish()) != nil, "our demuxer refuses the transport stream we wrote")
    }
    // The same bytes as a fragmented MP4 initialization section and a media segment after it
    // (a refusal, try? → nil, is expected).
    if let initialization = try? FragmentedMP4Init(Array(bytes[..<split])), let samples = try? FragmentSamples.samples(of: Array(bytes[split...]), initialization: initialization) {
        precondition(samples.allSatisfy { $0.range.upperBound <= bytes.count - split }, "a sample lies outside its segment")
    }
    // The same bytes as a WebVTT segment whose cues go onto a movie's clock (a refusal, try? → nil,
    // is expected).
    if let segment = try? WebVTTSegment(bytes) {
        var track = WebVTTTrack()
        track.add(segment, run: 0, clock: subtitleClock)
        precondition(track.count <= segment.cues.count && track.text.hasPrefix("WEBVTT"), "more cues out than in")
        precondition(track.text(as: .subRip).split(separator: "\n\n").count <= track.count, "more SubRip cues than cues")
    }
    return 0
}

/// A movie clock whose run 0 starts at MPEG-2 time 0.
let subtitleClock: MovieClock = {
    var timeline = PresentationTimeline()
    let track = timeline.addTrack(.aac(AACConfiguration(ADTSHeader([0xFF, 0xF1, 0x4C, 0x40, 0x01, 0x3F, 0xFC], at: 0)!)))
    do { try timeline.append(AccessUnit(decodeTime: 0, presentationTime: 0, isSync: true, data: []), size: 1, duration: 1920, to: track, run: 0) } catch {
        preconditionFailure("the fuzz target's clock could not be made: \(error)")
    }
    return timeline.clock
}()

/// The demuxer's packets of `bytes`, fed whole or in two chunks at `split`, as text; or its refusal.
func packets(_ bytes: [UInt8], split: Int?) -> [String] {
    var demuxer = TSDemuxer(maximumPESBytes: 1 << 16)
    do throws(MediaError) {
        var packets = try demuxer.consume(Array(bytes[..<(split ?? bytes.count)]))
        packets += try demuxer.consume(Array(bytes[(split ?? bytes.count)...]))
        packets += try demuxer.finish()
        return packets.map { "\($0.pid) \($0.streamType) \($0.pts ?? 0) \($0.dts ?? 0) \($0.byteOffset) \($0.data)" }
    } catch {
        return ["refused: \(error.code)"]
    }
}
