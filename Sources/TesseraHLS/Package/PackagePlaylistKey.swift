/// A playlist of the multivariant playlist a package keeps, by its index there.
enum PackagePlaylistKey: Hashable {
    /// `variants[index]`.
    case variant(Int)
    /// `renditions[index]`.
    case rendition(Int)
    /// `iFrameVariants[index]`.
    case iFrameVariant(Int)
}
