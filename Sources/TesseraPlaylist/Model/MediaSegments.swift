/// The segments of a media playlist, in order: a random-access, mutable, range-replaceable
/// collection of `MediaSegment` values with value semantics, built like an array (`[segment]`,
/// `append`, `MediaSegments(someSegments)`).
///
/// Stored packed: every URI longer than a small string sits in 64 KiB chunks of bytes the whole
/// collection shares, and a segment read out gets its URI as a `String` then. A parsed playlist
/// therefore costs an allocation for every 64 KiB of URIs instead of one a segment, and none is
/// copied as the collection grows. Replacing segments leaves their URI bytes behind until they
/// outweigh the live ones; then the chunks are compacted.
public struct MediaSegments: RandomAccessCollection, MutableCollection, RangeReplaceableCollection,
                             ExpressibleByArrayLiteral, Hashable, Sendable, CustomStringConvertible {
    /// The segments, each with its URI inline or in `uriChunks`.
    private(set) var packed: [PackedSegment]
    /// The URIs of the segments that do not keep their own, in chunks of at most `chunkBytes`
    /// (filled in order, never reallocated).
    private var uriChunks: [[UInt8]]
    /// Bytes of `uriChunks` no segment refers to any more.
    private var unusedBytes = 0
    /// Bytes in `uriChunks`.
    private var storedBytes = 0

    /// The size of a chunk of URI bytes; a URI's start is its chunk's index times this plus its
    /// offset, in 32 bits (65,536 chunks, 4 GiB). A longer URI stays in its segment.
    static let chunkBytes = 1 << 16

    /// URIs up to this many UTF-8 bytes stay in the segment: a small string allocates nothing.
    static let inlineURIBytes = 15

    /// An empty collection.
    public init() {
        packed = []
        uriChunks = []
    }

    /// The segments of an array literal, in order.
    public init(arrayLiteral elements: MediaSegment...) {
        self.init(elements)
    }

    /// 0.
    public var startIndex: Int { 0 }
    /// The number of segments.
    public var endIndex: Int { packed.count }
    /// The number of segments.
    public var count: Int { packed.count }
    /// Whether there are none.
    public var isEmpty: Bool { packed.isEmpty }

    /// The segment at `position`, its URI made into a `String` when it is stored apart; setting
    /// one whose URI is unchanged keeps the stored URI.
    public subscript(position: Int) -> MediaSegment {
        get { unpack(packed[position]) }
        set {
            let old = packed[position]
            if old.isURIShared, newValue.uri.utf8.count == Int(old.uriCount),
               withStoredURI(of: old, { stored in newValue.uri.utf8.elementsEqual(stored) }) {
                // The URI is unchanged (a field of the segment was set): it stays where it is.
                var moved = newValue
                moved.uri = ""
                packed[position] = PackedSegment(moved, uriStart: old.uriStart, uriCount: old.uriCount)
                return
            }
            release(old)
            packed[position] = pack(newValue)
            compactIfWasteful()
        }
    }

    /// Replaces the segments in `subrange` with `newElements`.
    /// - Complexity: O(n) in the segments after `subrange` and the new ones.
    public mutating func replaceSubrange<C: Collection>(_ subrange: Range<Int>, with newElements: C)
    where C.Element == MediaSegment {
        for index in subrange { release(packed[index]) }
        var replacement: [PackedSegment] = []
        replacement.reserveCapacity(newElements.count)
        for segment in newElements { replacement.append(pack(segment)) }
        packed.replaceSubrange(subrange, with: replacement)
        compactIfWasteful()
    }

    /// Makes room for `minimumCapacity` segments.
    public mutating func reserveCapacity(_ minimumCapacity: Int) {
        packed.reserveCapacity(minimumCapacity)
    }

    /// Appends a segment.
    public mutating func append(_ segment: MediaSegment) {
        packed.append(pack(segment))
    }

    /// Removes every segment (and every stored URI).
    public mutating func removeAll(keepingCapacity keepCapacity: Bool = false) {
        packed.removeAll(keepingCapacity: keepCapacity)
        uriChunks.removeAll()
        unusedBytes = 0
        storedBytes = 0
    }

    /// Equal when they hold equal segments in the same order, however their URIs are stored.
    public static func == (lhs: MediaSegments, rhs: MediaSegments) -> Bool {
        guard lhs.count == rhs.count else { return false }
        for index in lhs.indices where !lhs.segmentEquals(at: index, rhs, at: index) { return false }
        return true
    }

    /// Hashes the count and every segment (as `==` compares them).
    public func hash(into hasher: inout Hasher) {
        hasher.combine(count)
        for segment in self { hasher.combine(segment) }
    }

    /// The segments as an array prints them.
    public var description: String { Array(self).description }

    // MARK: Packed access, for the parser and the passes that read every segment

    /// Keeps a parsed URI (UTF-8, already validated) for the segment the parser appends next: a
    /// short one as the small string the segment holds, a longer one in the shared chunks.
    mutating func keep(uri: UnsafeBufferPointer<UInt8>) -> (inline: String, start: UInt32, count: UInt32) {
        guard uri.count > Self.inlineURIBytes, let start = store(uri) else { return (String(decoding: uri, as: UTF8.self), 0, 0) }
        return ("", start, UInt32(uri.count))
    }

    /// Appends a segment the parser made with a URI from `keep(uri:)`.
    mutating func append(parsed element: consuming PackedSegment) {
        packed.append(element)
    }

    /// Runs `body` on the UTF-8 bytes of the URI of the segment at `index`, without making a string.
    func withURI<Result>(at index: Int, _ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
        let element = packed[index]
        if element.isURIShared { return try withStoredURI(of: element, body) }
        var uri = element.segment.uri
        return try uri.withUTF8(body)
    }

    /// Whether the segment at `index` equals the one at `otherIndex` of `other`, URIs compared as bytes.
    func segmentEquals(at index: Int, _ other: MediaSegments, at otherIndex: Int) -> Bool {
        let lhs = packed[index], rhs = other.packed[otherIndex]
        guard lhs.isURIShared || rhs.isURIShared else { return lhs.segment == rhs.segment }
        guard withURI(at: index, { left in other.withURI(at: otherIndex) { left.elementsEqual($0) } }) else { return false }
        var left = lhs.segment, right = rhs.segment
        left.uri = ""
        right.uri = ""
        return left == right
    }

    /// Bytes held in the URI chunks (live and unused), for tests of compaction.
    var storedURIBytes: Int { storedBytes }

    // MARK: Packing

    private func unpack(_ element: PackedSegment) -> MediaSegment {
        guard element.isURIShared else { return element.segment }
        var segment = element.segment
        segment.uri = withStoredURI(of: element) { String(decoding: $0, as: UTF8.self) }
        return segment
    }

    mutating func pack(_ segment: MediaSegment) -> PackedSegment {
        guard segment.uri.utf8.count > Self.inlineURIBytes else { return PackedSegment(keeping: segment) }
        var uri = segment.uri
        guard let start = uri.withUTF8({ store($0) }) else { return PackedSegment(keeping: segment) }
        var moved = segment
        moved.uri = ""
        return PackedSegment(moved, uriStart: start, uriCount: UInt32(uri.utf8.count))
    }

    /// The bytes of a URI in the chunks.
    private func withStoredURI<Result>(of element: PackedSegment, _ body: (UnsafeBufferPointer<UInt8>) throws -> Result) rethrows -> Result {
        let offset = Int(element.uriStart) & (Self.chunkBytes - 1)
        return try uriChunks[Int(element.uriStart) / Self.chunkBytes].withUnsafeBufferPointer {
            try body(UnsafeBufferPointer(rebasing: $0[offset..<offset + Int(element.uriCount)]))
        }
    }

    /// Stores `uri` in the last chunk, or a new one when it does not fit; returns its start, or nil
    /// when it is longer than a chunk or the chunks are full.
    private mutating func store(_ uri: UnsafeBufferPointer<UInt8>) -> UInt32? {
        guard uri.count <= Self.chunkBytes else { return nil }
        if uriChunks.isEmpty || uriChunks[uriChunks.count - 1].count + uri.count > Self.chunkBytes {
            guard uriChunks.count < Int(UInt32.max) / Self.chunkBytes + 1 else { return nil }
            var chunk: [UInt8] = []
            chunk.reserveCapacity(Self.chunkBytes)
            uriChunks.append(chunk)
        }
        let last = uriChunks.count - 1
        let start = UInt32(last * Self.chunkBytes + uriChunks[last].count)
        uriChunks[last].append(contentsOf: uri)
        storedBytes += uri.count
        return start
    }

    private mutating func release(_ element: PackedSegment) {
        unusedBytes += Int(element.uriCount)
    }

    /// Rewrites the URI chunks without the unused bytes once those are most of them.
    private mutating func compactIfWasteful() {
        guard unusedBytes > 4096, unusedBytes * 2 > storedBytes else { return }
        let old = self
        uriChunks = []
        unusedBytes = 0
        storedBytes = 0
        for index in packed.indices where packed[index].isURIShared {
            if let start = old.withStoredURI(of: old.packed[index], { store($0) }) {
                packed[index].uriStart = start
            } else {
                // Packed in another order the chunks could run out at 4 GiB: the URI stays in its segment.
                packed[index] = PackedSegment(keeping: old.unpack(old.packed[index]))
            }
        }
    }
}

extension MediaSegments {
    /// Appends `other`'s segments as they are stored (no URI string made).
    public mutating func append(contentsOf other: MediaSegments) {
        append(contentsOf: other[...])
    }

    /// Appends the segments of a slice as they are stored (no URI string made).
    public mutating func append(contentsOf other: Slice<MediaSegments>) {
        let base = other.base
        packed.reserveCapacity(packed.count + other.count)
        for index in other.indices {
            var element = base.packed[index]
            if element.isURIShared {
                guard let start = base.withStoredURI(of: element, { store($0) }) else {
                    packed.append(pack(base[index]))
                    continue
                }
                element.uriStart = start
            }
            packed.append(element)
        }
    }
}
