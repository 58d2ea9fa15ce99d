#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TesseraMedia
import TesseraSupport

/// What a finished download produced.
public struct DownloadReport: Sendable {
    /// The published file.
    public let destination: URL
    /// The plan it followed.
    public let plan: DownloadPlanSummary
    /// Media segments written.
    public let segmentCount: Int
    /// Bytes in the file.
    public let byteCount: UInt64
    /// Resources taken from a checkpoint of an earlier run instead of fetched.
    public let resumedResources: Int
    /// SHA-256 of the published bytes.
    public let sha256: SHA256Digest
    /// What the validator noted in the published file short of an error (warnings such as PCR
    /// intervals over 100 ms, notes such as counters restarting at segment joins), capped per ID.
    public let findings: [MediaFinding]
}
