import TesseraHTTP

/// What a plan's resources say of its size, counted as they are planned: their bytes when every
/// one has a byte range (nil once one has none), and the largest range.
struct PlannedBytes {
    private(set) var known: UInt64? = 0
    private(set) var largest: UInt64?

    /// Counts `resource`.
    mutating func add(_ resource: PlannedResource) {
        if let length = resource.identity.byteRange?.length {
            known = known.map { $0 &+ length }
            largest = max(largest ?? 0, length)
        } else {
            known = nil
        }
    }
}
