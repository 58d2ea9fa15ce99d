#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TesseraPlaylist
import TesseraSupport

/// An offline package on disk, reopened with no network: `verify` checks its schema, exact
/// membership (`manifest.json` lists every file but itself and `manifest-sha256.txt`;
/// `manifest-sha256.txt` lists every file but itself; nothing missing, nothing extra, nothing
/// that is not a regular file), every size and SHA-256, and the closure of its playlists: every
/// URI of every playlist reachable from `master.m3u8` is relative and names a file inside the
/// package (EXT-X-GAP segments too: players that do not honour the tag fetch them), and no playlist holds a key or a
/// define. Files are opened beneath the package folder, never through a symlink.
public struct PackageStore: Sendable {
    /// The package folder.
    public let folder: URL
    /// The largest playlist or manifest read (default 16 MiB).
    public var maximumPlaylistBytes = 16 << 20

    /// The package at `folder`.
    public init(folder: URL) {
        self.folder = folder
    }

    /// How much `verify` checks.
    public enum Scope: Sendable, Equatable {
        /// Membership, sizes, digests and the playlists' closure.
        case files
        /// That, and every media file validated as `tessera validate` does (MPEG-TS, fMP4 or
        /// WebVTT by what its bytes announce): one that is not valid media is `invalid-media`.
        case media
    }

    /// Checks the package as `scope` says; the findings say what is wrong (none: verified).
    /// - Complexity: O(bytes) hashed, on every core (and validated, for `.media`).
    public func verify(_ scope: Scope = .files) -> PackageVerification {
        var check = PackageCheck(maximumPlaylistBytes: maximumPlaylistBytes, checksMedia: scope == .media)
        check.run(folder.path)
        return PackageVerification(manifest: check.manifest, findings: check.findings, playlists: check.playlists,
                                   fileCount: check.fileCount, byteCount: check.byteCount, identities: check.identities)
    }
}
