import TesseraHTTP

/// What a planned resource is, without its URL: its stream, its kind, its media sequence number
/// and its byte range inside the file the playlist names.
public struct ResourceIdentity: Hashable, Sendable, CustomStringConvertible {
    /// The kinds of resource a transfer moves.
    public enum Kind: String, Hashable, Sendable {
        /// An EXT-X-MAP initialization section.
        case initialization = "map"
        /// A media segment.
        case segment
        /// A partial segment (LL-HLS).
        case part
        /// Bytes of a file between the byte ranges a playlist lists (a `sidx` between the map
        /// and the first segment): fetched so a package keeps the file whole at its offsets.
        case unlisted
    }

    /// The stream it belongs to.
    public let stream: StreamIdentity
    /// What it is.
    public let kind: Kind
    /// The media sequence number of the segment (of the first segment the map applies to, for
    /// an initialization section).
    public let mediaSequence: UInt64
    /// The part's index within its segment, for parts.
    public let partIndex: Int?
    /// Its byte range inside the named file, when the playlist gives one.
    public let byteRange: ByteRange?

    /// Creates an identity.
    public init(stream: StreamIdentity, kind: Kind, mediaSequence: UInt64, partIndex: Int? = nil, byteRange: ByteRange? = nil) {
        self.stream = stream
        self.kind = kind
        self.mediaSequence = mediaSequence
        self.partIndex = partIndex
        self.byteRange = byteRange
    }

    public var description: String {
        let part = partIndex.map { ".\($0)" } ?? ""
        let range = byteRange.map { " \($0)" } ?? ""
        return "\(stream) \(kind.rawValue) \(mediaSequence)\(part)\(range)"
    }
}
