/// One reference to a media playlist from the multivariant playlist: the tag, its role, and the
/// group or pathway it belongs to. One playlist may be referenced several times (a variant and
/// an audio rendition sharing a URI, or one variant URI on two pathways).
public struct GraphReference: Hashable, Sendable {
    /// The referencing tag's role.
    public var role: PlaylistRole
    /// The rendition's GROUP-ID (renditions only).
    public var groupId: String?
    /// The variant's PATHWAY-ID, "." when absent (variants and I-frame variants only).
    public var pathwayId: String?
    /// The tag's index in `variants`, `iFrameVariants` or `renditions` of the multivariant playlist.
    public var index: Int
    /// The tag's one-based line in the multivariant playlist.
    public var line: Int

    /// Creates a reference.
    public init(role: PlaylistRole, groupId: String? = nil, pathwayId: String? = nil, index: Int, line: Int) {
        self.role = role
        self.groupId = groupId
        self.pathwayId = pathwayId
        self.index = index
        self.line = line
    }
}
