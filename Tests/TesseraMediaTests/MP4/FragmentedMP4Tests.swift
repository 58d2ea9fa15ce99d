import Testing
import TesseraMedia
import TesseraTestSupport

@Suite("Fragmented MP4: one file of movie fragments")
struct FragmentedMP4Tests {
    /// The fixture's tracks laid out in fragments of `seconds`, with their samples' bytes.
    static func file(fragments seconds: Double) throws -> (file: [UInt8], tracks: [MP4Track], data: [[[UInt8]]]) {
        let (tracks, data) = try ProgressiveMP4Tests.tracks()
        let (pieces, size) = try FragmentedMP4(tracks: tracks, fragmentDuration: seconds).layout()
        var file: [UInt8] = []
        for piece in pieces {
            switch piece {
            case .bytes(let bytes): file += bytes
            case .samples(let chunk): for index in chunk.samples { file += data[chunk.track][index] }
            }
        }
        #expect(UInt64(file.count) == size)
        return (file, tracks, data)
    }

    /// The offsets of the top-level boxes of `file` of `type`.
    static func boxes(_ type: String, in file: [UInt8]) -> [Int] {
        var offsets: [Int] = []
        var offset = 0
        while offset + 8 <= file.count {
            let size = Int(file[offset]) << 24 | Int(file[offset + 1]) << 16 | Int(file[offset + 2]) << 8 | Int(file[offset + 3])
            if String(decoding: file[(offset + 4)..<(offset + 8)], as: UTF8.self) == type { offsets.append(offset) }
            guard size >= 8 else { break }
            offset += size
        }
        return offsets
    }

    @Test("read back by the fMP4 readers, every sample is the track's — decode time, duration, size, composition offset, sync, bytes — and every fragment starts at a picture's sync sample")
    func roundTrip() throws {
        let (file, tracks, data) = try Self.file(fragments: 0.5)
        let moofs = Self.boxes("moof", in: file)
        #expect(moofs.count >= 3, "fragments of half a second (the fixture's pictures are sync every 25)")
        let initialization = try FragmentedMP4Init(Array(file[..<moofs[0]]))
        #expect(initialization.tracks.map(\.timescale) == tracks.map(\.timescale) && initialization.tracks.map(\.handler) == ["vide", "soun"])
        var read: [[FragmentSamples.Sample]] = [[], []]
        var segment: [UInt8] = []
        for (index, start) in moofs.enumerated() {
            segment = Array(file[start..<(index + 1 < moofs.count ? moofs[index + 1] : file.count)])
            let samples = try FragmentSamples.samples(of: segment, initialization: initialization)
            #expect(samples.first { $0.track == 1 }?.isSync != false, "fragment \(index + 1) starts at a sync picture")
            for sample in samples {
                #expect(Array(segment[sample.range]) == data[Int(sample.track) - 1][read[Int(sample.track) - 1].count])
                read[Int(sample.track) - 1].append(sample)
            }
        }
        for (index, track) in tracks.enumerated() {
            let origin = track.samples[0].decodeTime
            #expect(read[index].map { Int64($0.decodeTime) } == track.samples.map { $0.decodeTime - origin })
            #expect(read[index].map(\.range.count) == track.samples.map { Int($0.size) })
            #expect(read[index].map(\.compositionOffset) == track.samples.map(\.compositionOffset))
            #expect(read[index].map(\.isSync) == track.samples.map(\.isSync))
            #expect(read[index].dropLast().map(\.duration) == zip(track.samples, track.samples.dropFirst()).map { UInt32($1.decodeTime - $0.decodeTime) })
        }
        let result = MediaValidation.validate(MP4MemorySource(file))
        #expect(!result.isProgressiveMP4 && result.firstError == nil, "\(result.findings)")
        #expect(String(decoding: file[8..<12], as: UTF8.self) == "iso6")
    }

    @Test("a sample description that changes (another resolution and audio rate at a discontinuity) starts a fragment; each fragment has one description per track")
    func descriptionChange() throws {
        let names = ["p1_000", "p1_001", "p2_002", "p2_003", "p3_004", "p3_005"]
        let segments = try names.enumerated().map { (bytes: try FixtureStore.bytes("g_discontinuity/\($1).ts"), run: $0 / 2) }
        let (file, tracks) = try TransportStreamMux.mux(segments, fragmented: true)
        #expect(tracks.map(\.descriptions.count) == [2, 2])
        let result = MediaValidation.validate(MP4MemorySource(file))
        #expect(!result.isProgressiveMP4 && result.firstError == nil, "\(result.findings)")
        // Every description change is a cut: the fragments' first samples include each change.
        let cuts = FragmentedMP4(tracks: tracks).cuts()
        for track in tracks {
            for (previous, sample) in zip(track.samples, track.samples.dropFirst()) where sample.description != previous.description {
                #expect(cuts.contains(Double(sample.decodeTime) / Double(track.timescale)))
            }
        }
    }
}
