import TesseraPlaylist

/// How one stream of a steered job is found on another pathway: a variant or an I-frame variant
/// by its STABLE-VARIANT-ID, a rendition by its STABLE-RENDITION-ID in the group that pathway's
/// variant (of the job's STABLE-VARIANT-ID) names.
public enum PathwayEquivalent: Hashable, Sendable, CustomStringConvertible {
    /// The variant of this STABLE-VARIANT-ID.
    case variant(stableId: String)
    /// The I-frame variant of this STABLE-VARIANT-ID.
    case iFrameVariant(stableId: String)
    /// The rendition of this STABLE-RENDITION-ID and type in the group of the variant of
    /// STABLE-VARIANT-ID `variant`.
    case rendition(stableId: String, type: Rendition.MediaType, variant: String)

    /// The URI of the equivalent playlist on `pathway`, or nil when the pathway has none.
    public func uri(on pathway: String, in playlist: MultivariantPlaylist) -> String? {
        switch self {
        case .variant(let id):
            return playlist.variants.first { ($0.pathwayId ?? ".") == pathway && $0.stableVariantId == id }?.uri
        case .iFrameVariant(let id):
            return playlist.iFrameVariants.first { ($0.pathwayId ?? ".") == pathway && $0.stableVariantId == id }?.uri
        case .rendition(let id, let type, let variantId):
            guard let variant = playlist.variants.first(where: { ($0.pathwayId ?? ".") == pathway && $0.stableVariantId == variantId }) else { return nil }
            let group: String? = switch type {
            case .audio: variant.audio
            case .video: variant.video
            case .subtitles: variant.subtitles
            case .closedCaptions: nil
            }
            return playlist.renditions.first { $0.type == type && $0.groupId == group && $0.stableRenditionId == id }?.uri
        }
    }

    public var description: String {
        switch self {
        case .variant(let id): "the variant with STABLE-VARIANT-ID \"\(id)\""
        case .iFrameVariant(let id): "the I-frame variant with STABLE-VARIANT-ID \"\(id)\""
        case .rendition(let id, let type, let variant): "the \(type) rendition with STABLE-RENDITION-ID \"\(id)\" of variant \"\(variant)\""
        }
    }
}
