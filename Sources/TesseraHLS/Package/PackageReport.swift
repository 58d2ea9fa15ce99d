#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What a finished package job produced.
public struct PackageReport: Sendable {
    /// The published package folder.
    public let destination: URL
    /// The plan it followed.
    public let plan: PackagePlanSummary
    /// Its manifest, as written.
    public let manifest: PackageManifest
    /// Bytes of media written in this run.
    public let bytesWritten: UInt64
    /// Resources taken from a checkpoint of an earlier run instead of fetched.
    public let resumedResources: Int
}
