/// An EXT-X-STREAM-INF read and waiting for its URI line.
struct PendingVariant {
    /// Builds the variant once the URI is known.
    let make: (String) -> Variant
    let line: Int
}
