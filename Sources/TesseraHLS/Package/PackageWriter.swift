import TesseraSupport

/// The last files of a package, written into its staging folder once the media is in: each
/// track's local playlist, `master.m3u8`, `manifest.json` (every other file with its size and
/// SHA-256) and `manifest-sha256.txt` (every file but itself); the commit flushes them with the
/// media.
package enum PackageWriter {
    /// Writes the playlists and manifests of `contents` beside `media`; returns the manifest.
    /// - Throws: `destination-unwritable`.
    package static func finish(_ contents: PackageContents, media: [ResourceFileSink.WrittenFile], in staging: StagingDirectory) throws(HLSError) -> PackageManifest {
        var files = media.map { file in
            PackageManifest.File(path: file.path.value, size: file.byteCount, sha256: file.sha256.hex, role: .media, track: contents.owners[file.path.value])
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

    /// The zero-length files that gap segments name (`writeEmpty` makes them), as media files:
    /// EXT-X-GAP keeps its meaning for players that honour it, and players that do not (ffmpeg,
    /// GStreamer) fetch a file with no media and play on, where a name without a file stops them.
    package static func emptyFiles(_ paths: [SafeRelativePath]) -> [ResourceFileSink.WrittenFile] {
        paths.map { ResourceFileSink.WrittenFile(path: $0, byteCount: 0, sha256: SHA256Hasher.hash([])) }
    }

    /// Makes the zero-length file at each of `paths` in `staging` (flushed with the tree at the commit).
    /// - Throws: `destination-unwritable`, `insufficient-space`.
    package static func writeEmpty(_ paths: [SafeRelativePath], in staging: StagingDirectory) throws(HLSError) {
        for path in paths {
            do throws(SupportError) { try staging.file(at: path, contents: .empty).close() } catch { throw HLSError(destination: error) }
        }
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
