/// The segments of a media playlist, in order: a random-access, mutable, range-replaceable
/// collection of `MediaSegment` values with value semantics, built like an array (`[segment]`,
/// `append`, `MediaSegments(someSegments)`).
///
/// Stored packed: each segment is a `PackedSegment` of plain values, its URI's bytes in 64 KiB
/// chunks the whole collection shares, its extras box (keys, map, bitrate and rarer tags, one box
/// for a run of segments) in a table; a segment read out is made then, its URI a `String`. A
/// parsed playlist therefore costs an allocation for every 64 KiB of URIs instead of one a
/// segment, and its segments are one flat buffer that is copied and freed without a reference
/// count. Replacing segments leaves their URI bytes and boxes behind until they outweigh the live
/// ones; then the storage is compacted.
public struct MediaSegments: RandomAccessCollection, MutableCollection, RangeReplaceableCollection,
                             ExpressibleByArrayLiteral, Hashable, Sendable, CustomStringConvertible {
    /// The segments, in order.
    var packed: [PackedSegment]
    /// The URI bytes, in chunks of at most `chunkBytes` (filled in order, never reallocated).
    var uriChunks: [[UInt8]]
    /// The extras boxes the segments refer to (`PackedSegment.extras` is one more than the index).
    var boxes: [SharedValue<SegmentExtras>] = []
    /// URIs that do not fit the chunks (longer than a chunk, or past 4 GiB of them).
    var apartURIs: [String] = []
    /// Dates whose text does not pack (`DateTimeForm`).
    var apartDates: [ProgramDateTime] = []
    /// Bytes of `uriChunks` no segment refers to any more.
    var unusedBytes = 0
    /// Bytes in `uriChunks`.
    var storedBytes = 0
    /// Bytes of the last chunk in use (a chunk is filled from the start; the last one grows to `chunkBytes`).
    var chunkFill = 0

    /// The size of a chunk of URI bytes; a URI's start is its chunk's index times this plus its
    /// offset, in 32 bits (65,536 chunks, 4 GiB). A longer URI is kept apart.
    static let chunkBytes = 1 << 16

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

    /// The segment at `position`, made from its stored values; setting one whose URI or extras
    /// are unchanged keeps them where they are stored.
    public subscript(position: Int) -> MediaSegment {
        get { segment(packed[position]) }
        set {
            let old = packed[position]
            packed[position] = pack(newValue, replacing: old)
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

    /// Removes every segment (and everything stored for them).
    public mutating func removeAll(keepingCapacity keepCapacity: Bool = false) {
        packed.removeAll(keepingCapacity: keepCapacity)
        uriChunks.removeAll()
        boxes.removeAll()
        apartURIs.removeAll()
        apartDates.removeAll()
        unusedBytes = 0
        storedBytes = 0
        chunkFill = 0
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
        for index in other.indices { packed.append(transfer(base.packed[index], from: base)) }
    }
}
