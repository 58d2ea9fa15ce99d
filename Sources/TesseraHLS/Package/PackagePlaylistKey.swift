/// A playlist of the multivariant playlist a package keeps, by its index there.
package enum PackagePlaylistKey: Hashable, Sendable {
    /// `variants[index]`.
    case variant(Int)
    /// `renditions[index]`.
    case rendition(Int)
    /// `iFrameVariants[index]`.
    case iFrameVariant(Int)
}
