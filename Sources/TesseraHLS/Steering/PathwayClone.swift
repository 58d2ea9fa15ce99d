/// A PATHWAY-CLONES entry of a steering manifest: a new pathway copied from `baseId` with its
/// URIs replaced (HLS Content Steering; draft-pantos-hls-rfc8216bis §7.3).
public struct PathwayClone: Hashable, Sendable {
    /// BASE-ID: the pathway copied (an original one or a clone made earlier).
    public var baseId: String
    /// ID: the new pathway.
    public var id: String
    /// URI-REPLACEMENT HOST: the host every copied URI gets.
    public var host: String?
    /// URI-REPLACEMENT PARAMS: query parameters added to every copied URI (same names replaced).
    public var params: [String: String]
    /// URI-REPLACEMENT PER-VARIANT-URIS: STABLE-VARIANT-ID → the variant's whole URI.
    public var perVariantURIs: [String: String]
    /// URI-REPLACEMENT PER-RENDITION-URIS: STABLE-RENDITION-ID → the rendition's whole URI.
    public var perRenditionURIs: [String: String]

    /// Creates a clone.
    public init(baseId: String, id: String, host: String? = nil, params: [String: String] = [:],
                perVariantURIs: [String: String] = [:], perRenditionURIs: [String: String] = [:]) {
        self.baseId = baseId
        self.id = id
        self.host = host
        self.params = params
        self.perVariantURIs = perVariantURIs
        self.perRenditionURIs = perRenditionURIs
    }
}
