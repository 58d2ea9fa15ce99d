import Foundation
import Testing
@testable import TesseraHLS
import TesseraHTTP
import TesseraMedia
import TesseraSupport
import TesseraTestSupport

@Suite("Movie streamer: segments taken as they arrive, their samples the body's chunks, resumable from the payloads")
struct MovieStreamerTests {
    /// A muxed stream: its source and its resources (maps and segments) in playlist order.
    struct Stream {
        let source: MovieMux.Source
        let name: String
        let resources: [(PlannedResource, [UInt8])]
    }

    /// `count` segments `folder/<name>` of fixtures, with the initialization section `map` first when given.
    static func stream(_ name: String, folder: String, segments: [String], map: String? = nil, kinds: Set<ElementaryStreamReader.Kind>) throws -> Stream {
        let region = map.map { MovieMux.Region(path: FixtureStore.root.appendingPathComponent("\(folder)/\($0)").path, range: nil) }
        let source = MovieMux.Source(segments: segments.map {
            MovieMux.Segment(path: FixtureStore.root.appendingPathComponent("\(folder)/\($0)").path, range: nil, run: 0, map: region)
        }, kinds: kinds)
        var resources: [(PlannedResource, [UInt8])] = []
        if let map {
            resources.append((PlannedResource(identity: ResourceIdentity(stream: StreamIdentity(name), kind: .initialization, mediaSequence: 0),
                                              encryption: nil, line: 0, uri: map), try FixtureStore.bytes("\(folder)/\(map)")))
        }
        for (index, segment) in segments.enumerated() {
            resources.append((PlannedResource(identity: ResourceIdentity(stream: StreamIdentity(name), kind: .segment, mediaSequence: UInt64(index)),
                                              encryption: nil, duration: 1, line: 0, uri: segment), try FixtureStore.bytes("\(folder)/\(segment)")))
        }
        return Stream(source: source, name: name, resources: resources)
    }

    static func transportStreams() throws -> [Stream] {
        [try stream("video", folder: "e_multivariant/hi", segments: (0..<4).map { "seg_00\($0).ts" }, kinds: [.video]),
         try stream("audio", folder: "e_multivariant/audio", segments: (0..<5).map { "seg_00\($0).ts" }, kinds: [.audio])]
    }

    static func fragmented() throws -> [Stream] {
        [try stream("video", folder: "b_fmp4_video", segments: (0..<4).map { "seg_00\($0).m4s" }, map: "init.mp4", kinds: [.video]),
         try stream("audio", folder: "b_fmp4_audio", segments: (0..<5).map { "seg_00\($0).m4s" }, map: "init.mp4", kinds: [.audio])]
    }

    /// The streams' resources interleaved one by one (a streamed plan's order, roughly).
    static func interleaved(_ streams: [Stream]) -> [(PlannedResource, [UInt8])] {
        var out: [(PlannedResource, [UInt8])] = []
        for index in 0..<(streams.map(\.resources.count).max() ?? 0) {
            for stream in streams where index < stream.resources.count { out.append(stream.resources[index]) }
        }
        return out
    }

    static func streamer(_ streams: [Stream], fragmented: Bool = false) -> MovieStreamer {
        MovieStreamer(sources: streams.map(\.source), streams: streams.map { StreamIdentity($0.name) }, firstSequences: streams.map { _ in 0 },
                      body: SafeRelativePath("movie.body")!, fragmented: fragmented)
    }

    static func fetched(_ resource: PlannedResource, _ bytes: [UInt8]) -> FetchedResource {
        FetchedResource(index: 0, resource: resource, body: .memory(bytes, MemoryReservation(MemoryBudget(limit: 1 << 30))), fetchedBytes: UInt64(bytes.count),
                        source: "", validator: nil, pathway: nil, keyFingerprint: nil)
    }

    /// Streams every resource; the body and the records a checkpoint would keep.
    static func run(_ streamer: MovieStreamer, _ resources: ArraySlice<(PlannedResource, [UInt8])>, body: inout [UInt8]) throws -> [ResourceFileRecord] {
        var records: [ResourceFileRecord] = []
        for (resource, bytes) in resources {
            let made = try #require(try streamer.transform(Self.fetched(resource, bytes)))
            body += made.pieces.flatMap { $0 }
            let identity = resource.identity
            records.append(ResourceFileRecord(path: made.path.value, stream: identity.stream.rawValue, kind: identity.kind.rawValue, sequence: identity.mediaSequence,
                                              end: UInt64(body.count), sha256: "", source: "", mux: made.payload))
        }
        return records
    }

    /// The tracks and body the streamer makes equal what the two-pass mux reads from the files:
    /// every chunk's bytes are its track's samples, in order.
    static func expectMatchesFiles(_ streams: [Stream], fragmented: Bool = false) throws {
        let streamer = Self.streamer(streams, fragmented: fragmented)
        var body: [UInt8] = []
        _ = try run(streamer, Self.interleaved(streams)[...], body: &body)
        let (result, chunks) = try streamer.finish()
        let sources = streams.map(\.source)
        let files = try MovieMux(sources: sources).firstPass()
        #expect(result.order == files.order)
        #expect(result.tracks.map(\.samples) == files.tracks.map(\.samples))
        #expect(streamer.length == UInt64(body.count))
        for (index, key) in files.order.enumerated() {
            var stream = SampleStream(key: key, source: sources[key.source])
            var expected: [UInt8] = []
            for sample in files.tracks[index].samples { expected += try stream.next(size: sample.size) }
            var copied: [UInt8] = []
            for chunk in chunks where chunk.track == index {
                let size = chunk.samples.reduce(0) { $0 + Int(result.tracks[index].samples[$1].size) }
                #expect(UInt64(size) == chunk.byteCount)
                #expect(chunk.headerBytes == (fragmented ? FragmentedMP4.headerSize(samples: chunk.samples.count, payload: chunk.byteCount) : 0))
                let start = Int(chunk.offset) + chunk.headerBytes
                #expect(body[Int(chunk.offset)..<start].allSatisfy { $0 == 0 }, "room for the moof, written at the end")
                copied += body[start..<(start + size)]
            }
            #expect(copied == expected, "track \(index)'s samples")
        }
        #expect(chunks.count == streams.map { $0.source.segments.count }.reduce(0, +), "a chunk per track and segment")
    }

    @Test("MPEG-TS video and audio, interleaved: the same tracks as the two passes, the body the samples chunk by chunk")
    func transportStream() throws { try Self.expectMatchesFiles(Self.transportStreams()) }

    @Test("fragmented MP4 with initialization sections: the same")
    func fragmentedSources() throws { try Self.expectMatchesFiles(Self.fragmented()) }

    @Test("a fragmented body keeps room for each chunk's moof and mdat header before its samples")
    func fragmentedBody() throws {
        try Self.expectMatchesFiles(Self.transportStreams(), fragmented: true)
        try Self.expectMatchesFiles(Self.fragmented(), fragmented: true)
    }

    @Test("stopped after any resource and restored from the records' payloads, the streamer goes on to the same tracks, chunks and body")
    func restored() throws {
        for (streams, fragmented) in [(try Self.transportStreams(), false), (try Self.fragmented(), false), (try Self.fragmented(), true)] {
            let resources = Self.interleaved(streams)
            let whole = Self.streamer(streams, fragmented: fragmented)
            var wholeBody: [UInt8] = []
            _ = try Self.run(whole, resources[...], body: &wholeBody)
            let (expected, expectedChunks) = try whole.finish()
            for split in 1..<resources.count {
                var body: [UInt8] = []
                let records = try Self.run(Self.streamer(streams, fragmented: fragmented), resources[..<split], body: &body)
                let resumed = Self.streamer(streams, fragmented: fragmented)
                try resumed.restore(records)
                #expect(resumed.length == UInt64(body.count))
                _ = try Self.run(resumed, resources[split...], body: &body)
                let (result, chunks) = try resumed.finish()
                #expect(body == wholeBody)
                #expect(chunks == expectedChunks)
                #expect(result.tracks.map(\.samples) == expected.tracks.map(\.samples))
                #expect(result.tracks.map(\.descriptions) == expected.tracks.map(\.descriptions))
            }
        }
    }

    @Test("a resource of another stream is left alone; a record without its payload, or one that does not add up, refuses to restore")
    func refusals() throws {
        let streams = try Self.transportStreams()
        let streamer = Self.streamer(streams)
        let other = PlannedResource(identity: ResourceIdentity(stream: StreamIdentity("subtitles"), kind: .segment, mediaSequence: 0), encryption: nil, line: 0, uri: "a.vtt")
        #expect(try streamer.transform(Self.fetched(other, [1, 2, 3])) == nil)
        var body: [UInt8] = []
        var records = try Self.run(streamer, streams[0].resources.prefix(1), body: &body)
        records[0].end += 1
        #expect(throws: HLSError.self) { try Self.streamer(streams).restore(records) }
        records[0].mux = nil
        #expect(throws: HLSError.self) { try Self.streamer(streams).restore(records) }
    }
}
