import Testing
@testable import TesseraPlaylist

/// `MediaSegments` keeps each segment as plain values, its URI in shared chunks and its extras
/// and odd dates in tables: that must be invisible — every segment reads back as stored,
/// mutations and copies behave like an array's.
@Suite("The segments collection")
struct MediaSegmentsTests {
    /// URIs of every kind: short, long, non-ASCII, empty, and longer than a chunk (kept apart).
    static let uris = ["a.ts", "seg_0000000001.ts", "https://cdn.example.com/live/v1080/segment_0000001.ts?token=a1b2",
                       "https://ex\u{e9}mple.com/\u{20ac}/s\u{e9}gment-\u{1F3AC}.ts", "", String(repeating: "u", count: MediaSegments.chunkBytes + 1),
                       String(repeating: "v", count: 16), String(repeating: "w", count: 15)]

    static func segments(_ uris: [String], from sequence: UInt64 = 0) -> [MediaSegment] {
        uris.enumerated().map { MediaSegment(uri: $1, duration: 4, mediaSequence: sequence + UInt64($0)) }
    }

    @Test("segments of every URI kind read back as stored, and compare and hash like the array")
    func readBack() {
        let array = Self.segments(Self.uris)
        let collection = MediaSegments(array)
        #expect(Array(collection) == array)
        #expect(collection.map(\.uri) == Self.uris)
        #expect(collection == MediaSegments(array.reversed().reversed()))
        #expect(collection.hashValue == MediaSegments(array).hashValue)
        #expect(collection != MediaSegments(Self.segments(Self.uris.map { $0 + "x" })))
        var literal: MediaSegments = [array[2], array[0]]
        literal.insert(array[1], at: 1)
        #expect(Array(literal) == [array[2], array[1], array[0]])
    }

    @Test("a parsed playlist's segments equal the same segments built in code, long URIs and byte ranges included")
    func parsedEqualsBuilt() throws {
        let long = "https://cdn.example.com/a/very/long/path/media.ts"
        let text = "#EXTM3U\n#EXT-X-VERSION:4\n#EXT-X-TARGETDURATION:4\n#EXTINF:4,\n#EXT-X-BYTERANGE:100@0\n\(long)\n#EXTINF:4,\n#EXT-X-BYTERANGE:50\n\(long)\n#EXTINF:4,\nb.ts\n"
        let parsed = try PlaylistParser().parse(Array(text.utf8))
        guard case .media(let media) = parsed.playlist else { Issue.record("not a media playlist"); return }
        #expect(parsed.diagnostics.filter { $0.severity == .error } == [])
        let built: MediaSegments = [
            MediaSegment(uri: long, duration: 4, mediaSequence: 0, byteRange: PlaylistByteRange(length: 100, offset: 0, resolvedOffset: 0)),
            MediaSegment(uri: long, duration: 4, mediaSequence: 1, byteRange: PlaylistByteRange(length: 50, offset: nil, resolvedOffset: 100)),
            MediaSegment(uri: "b.ts", duration: 4, mediaSequence: 2),
        ]
        #expect(media.segments == built)
        #expect(media.segments.hashValue == built.hashValue)
    }

    @Test("a copy is a value: mutating one leaves the other as it was")
    func valueSemantics() {
        let original = MediaSegments(Self.segments(Self.uris))
        var copy = original
        copy[2].uri = "https://other.example.com/replaced/segment.ts"
        copy[0].isGap = true
        copy.append(MediaSegment(uri: "https://cdn.example.com/appended/segment.ts", duration: 2, mediaSequence: 99))
        #expect(Array(original) == Self.segments(Self.uris))
        #expect(copy[2].uri == "https://other.example.com/replaced/segment.ts" && copy[0].isGap && copy.count == original.count + 1)
        #expect(copy[3] == original[3], "the segments after a replaced one keep their URIs")
    }

    @Test("replacing segments again and again keeps every value and the URI bytes bounded")
    func replacements() {
        var segments = MediaSegments(Self.segments((0..<200).map { "https://cdn.example.com/stream/segment_\($0).ts" }))
        var expected = Array(segments)
        for round in 0..<50 {
            for index in stride(from: round % 3, to: segments.count, by: 3) {
                let uri = "https://cdn.example.com/round\(round)/segment_\(index).ts"
                segments[index].uri = uri
                expected[index].uri = uri
            }
            segments.replaceSubrange(10..<20, with: expected[10..<20].reversed())
            expected.replaceSubrange(10..<20, with: expected[10..<20].reversed())
            #expect(Array(segments) == expected)
        }
        let live = expected.reduce(0) { $0 + $1.uri.utf8.count }
        #expect(segments.storedURIBytes <= 2 * live + 4096, "compacted: \(segments.storedURIBytes) bytes for \(live) live")
    }

    @Test("setting a field of a segment in place keeps its stored URI where it is")
    func fieldSetInPlace() {
        var segments = MediaSegments(Self.segments((0..<100).map { "https://cdn.example.com/stream/segment_\($0).ts" }))
        let stored = segments.storedURIBytes
        for index in segments.indices {
            segments[index].isGap = true
            segments[index].discontinuitySequence += 1
        }
        #expect(segments.storedURIBytes == stored)
        #expect(segments.allSatisfy { $0.isGap && $0.discontinuitySequence == 1 })
        #expect(segments.map(\.uri) == (0..<100).map { "https://cdn.example.com/stream/segment_\($0).ts" })
    }

    @Test("appending another collection or a slice of it copies the stored URIs as they are")
    func appendingCollections() {
        let first = MediaSegments(Self.segments(Array(Self.uris.prefix(4))))
        let second = MediaSegments(Self.segments(Array(Self.uris.suffix(4)), from: 4))
        var joined = first
        joined.append(contentsOf: second)
        joined.append(contentsOf: second[2...])
        #expect(Array(joined) == Array(first) + Array(second) + Array(second[2...]))
        joined.removeAll()
        #expect(joined.isEmpty && joined.storedURIBytes == 0)
    }

    @Test("a stored segment is 72 bytes of plain values")
    func recordSize() {
        #expect(MemoryLayout<PackedSegment>.stride == 72)
        #expect(_isPOD(PackedSegment.self))
    }

    @Test("the parser keeps every URI in the shared chunks, one after another")
    func parserStorage() throws {
        let text = "#EXTM3U\n#EXT-X-TARGETDURATION:4\n#EXTINF:4,\nshort.ts\n#EXTINF:4,\nhttps://cdn.example.com/long/segment.ts\n"
        guard case .media(let media) = try PlaylistParser().parse(Array(text.utf8)).playlist else { Issue.record("not a media playlist"); return }
        #expect(media.segments.storedURIBytes == "short.ts".utf8.count + "https://cdn.example.com/long/segment.ts".utf8.count)
        #expect(media.segments.map(\.uri) == ["short.ts", "https://cdn.example.com/long/segment.ts"])
        #expect(media.segments.uriChunks.map(\.count) == [1024], "a playlist of two segments holds 1 KiB of URI chunk, not 64")
        let many = MediaSegments(Self.segments((0..<2000).map { "https://cdn.example.com/stream/segment_\($0).ts" }))
        #expect(many.uriChunks.dropLast().allSatisfy { $0.count == MediaSegments.chunkBytes } && many.uriChunks.last!.count <= MediaSegments.chunkBytes)
        #expect(many.map(\.uri) == (0..<2000).map { "https://cdn.example.com/stream/segment_\($0).ts" })
    }

    @Test("keys, maps, titles, parts and dates that do not pack read back as stored, and setting them again and again keeps the tables bounded")
    func sideTables() {
        let key = SegmentKey(method: .aes128, uri: "https://keys.example.com/k")
        let odd = ProgramDateTime(text: "2026-01-01T00:00:00.1234Z"), packed = ProgramDateTime(text: "2026-01-01T00:00:04Z")
        let part = PartialSegment(uri: "p.ts", duration: 1, durationText: "1")
        func segment(_ index: Int) -> MediaSegment {
            let range: PlaylistByteRange? = index % 5 == 0 ? PlaylistByteRange(length: 10, offset: UInt64(index) * 10) : nil
            let title: String? = index % 7 == 0 ? "t\(index)" : nil
            let date: ProgramDateTime = index % 2 == 0 ? odd : packed
            let bitrate: UInt64? = index < 50 ? 800 : nil
            let keys: [SegmentKey] = index % 10 < 5 ? [key] : []
            let parts: [PartialSegment] = index % 9 == 0 ? [part] : []
            return MediaSegment(uri: "s\(index).ts", duration: 4, title: title, mediaSequence: UInt64(index), byteRange: range,
                                isDiscontinuity: index % 3 == 0, isGap: index % 4 == 0, programDateTime: date, bitrate: bitrate,
                                keys: keys, parts: parts)
        }
        var array = (0..<100).map(segment)
        var segments = MediaSegments(array)
        #expect(Array(segments) == array)
        #expect(segments.map { $0.programDateTime?.text } == array.map { $0.programDateTime?.text })
        for round in 0..<30 {
            for index in segments.indices where index % 3 == round % 3 {
                segments[index].keys = round % 2 == 0 ? [] : [key]
                segments[index].programDateTime = round % 2 == 0 ? packed : odd
                segments[index].title = "r\(round)"
                array[index].keys = round % 2 == 0 ? [] : [key]
                array[index].programDateTime = round % 2 == 0 ? packed : odd
                array[index].title = "r\(round)"
            }
            #expect(Array(segments) == array)
        }
        #expect(segments.boxes.count + segments.apartDates.count + segments.apartURIs.count <= 3 * segments.count + 64)
        var copy = MediaSegments()
        copy.append(contentsOf: segments[10...])
        #expect(Array(copy) == Array(array[10...]))
    }
}
