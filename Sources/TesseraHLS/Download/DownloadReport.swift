import Foundation
import TesseraMedia

/// What a finished download produced.
public struct DownloadReport: Sendable {
    /// The published file.
    public let destination: URL
    /// Segments written.
    public let segmentCount: Int
    /// Bytes written.
    public let byteCount: UInt64
    /// SHA-256 of the published bytes, computed while writing.
    public let sha256: SHA256Digest
}
