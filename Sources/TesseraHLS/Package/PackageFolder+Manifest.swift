import TesseraSupport

/// The last files of a package, written into its staging folder once the media is in: each
/// track's local playlist, `master.m3u8`, `manifest.json` (every other file with its size and
/// SHA-256) and `manifest-sha256.txt` (every file but itself), and the empty files its gaps
/// name; the commit flushes them with the media.
extension PackageFolder {
    /// Writes the empty files, playlists and manifests of `contents` beside `media` into this
    /// folder; returns the manifest.
    /// - Throws: `destination-unwritable`, `insufficient-space`.
    package func finish(_ contents: PackageContents, media: [WrittenFile]) throws(HLSError) -> PackageManifest {
        try Self.finish(contents, media: media, in: staging)
    }

    /// `finish` into another staging folder (a recording's in-progress snapshot).
    /// - Throws: `destination-unwritable`, `insufficient-space`.
    package static func finish(_ contents: PackageContents, media: [WrittenFile], in staging: StagingDirectory) throws(HLSError) -> PackageManifest {
        for path in contents.emptyFiles {
            do throws(SupportError) { try staging.file(at: path, contents: .empty).close() } catch { throw HLSError(destination: error) }
        }
        let empty = SHA256Hasher.hash([])
        var files: [PackageManifest.File] = []
        for file in media + contents.emptyFiles.map({ WrittenFile(path: $0, byteCount: 0, sha256: empty) }) {
            guard let sha256 = file.sha256 else {
                throw HLSError(.unsupported, "\(file.path) was staged with a checksum, not the SHA-256 a package's manifest lists.")
            }
            files.append(PackageManifest.File(path: file.path.value, size: file.byteCount, sha256: sha256.hex, role: .media,
                                              track: contents.owners[file.path.value]))
        }
        for track in contents.tracks {
            files.append(try write(track.playlistText, at: track.info.playlist, role: .playlist, track: track.info.id, in: staging))
        }
        files.append(try write(contents.masterText, at: PackageManifest.entryName, role: .playlist, track: nil, in: staging))
        let manifest = PackageManifest(kind: contents.kind, tracks: contents.tracks.map(\.info), files: files, gaps: contents.gaps,
                                       evictions: contents.evictions)
        let manifestFile = try write(manifest.encoded(), at: PackageManifest.fileName, role: .playlist, track: nil, in: staging)
        let sums = PackageChecksums.text((files + [manifestFile]).map { (path: $0.path, sha256: $0.sha256) })
        _ = try write(Array(sums.utf8), at: PackageChecksums.fileName, role: .playlist, track: nil, in: staging)
        return manifest
    }

    private static func write(_ text: String, at path: String, role: PackageManifest.File.Role, track: String?,
                              in staging: StagingDirectory) throws(HLSError) -> PackageManifest.File {
        try write(Array(text.utf8), at: path, role: role, track: track, in: staging)
    }

    private static func write(_ bytes: [UInt8], at path: String, role: PackageManifest.File.Role, track: String?,
                              in staging: StagingDirectory) throws(HLSError) -> PackageManifest.File {
        guard let safe = SafeRelativePath(path) else {
            throw HLSError(.destinationUnwritable, "\(path) is not a path inside the package.")
        }
        do throws(SupportError) {
            let file = try staging.file(at: safe, contents: .empty)
            defer { file.close() }
            try file.append(bytes)    // flushed with the whole tree at the commit
        } catch {
            throw HLSError(destination: error)
        }
        return PackageManifest.File(path: path, size: UInt64(bytes.count), sha256: SHA256Hasher.hash(bytes).hex, role: role, track: track)
    }
}
