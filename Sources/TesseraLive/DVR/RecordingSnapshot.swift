#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// An in-progress snapshot of a recording: an independent VOD package of what was recorded up to
/// a coherent complete-segment boundary, published beside the destination as
/// `<dir>.snapshot-<n>` and verified, while the recording goes on.
public struct RecordingSnapshot: Sendable, Equatable {
    /// The package folder.
    public let folder: URL
    /// The variant's segments in it (files).
    public let segments: Int
    /// Its seconds of media, gaps included.
    public let duration: Double
}
