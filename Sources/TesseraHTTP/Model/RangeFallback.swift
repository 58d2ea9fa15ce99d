/// What to do when a server answers a range request with `200` and the whole resource.
public enum RangeFallback: Sendable, Equatable {
    /// Read and discard the bytes before the range and stop after it (the body counts against
    /// `maximumBodyBytes`). The response head reports `servedRange == .emulated`.
    case emulate
    /// Fail with `range-not-honoured`.
    case refuse
    /// Hand the whole resource over untouched (`head.servedRange == .whole`): the caller decides,
    /// as a resumed download does when `If-Range` found the resource changed.
    case whole
}
