import TesseraSupport

/// What `PackageStore.verify` established about a package.
public struct PackageVerification: Sendable {
    /// The manifest, when it could be read.
    public let manifest: PackageManifest?
    /// Every problem found, in the order checked (empty: verified).
    public let findings: [PackageFinding]
    /// The reachable playlists (from `master.m3u8`), by path, as read while verifying — what a
    /// server freezes.
    public let playlists: [String: [UInt8]]
    /// Regular files checked.
    public let fileCount: Int
    /// Bytes hashed.
    public let byteCount: UInt64
    /// Each file's identity when it was hashed (inode, size, times), by path: a file whose
    /// identity differs later is no longer the one verified.
    public var identities: [String: FileIdentity] = [:]

    /// Whether nothing was found.
    public var isVerified: Bool { findings.isEmpty }
}
