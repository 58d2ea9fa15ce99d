#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CSystem

/// An open folder whose files are opened beneath it: never through a symlink (the folder's own
/// path included, when it is opened here), never outside it (openat2 `RESOLVE_BENEATH |
/// RESOLVE_NO_SYMLINKS`). The descriptor is closed when the handle goes away.
package final class FolderHandle: Sendable {
    /// The folder's descriptor.
    package let descriptor: Int32

    /// Opens the folder at `path`; nil (errno set) when it is not a folder or is a symlink.
    package init?(path: String) {
        let fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW)
        guard fd >= 0 else { return nil }
        descriptor = fd
    }

    deinit { close(descriptor) }

    /// Opens `path` beneath the folder with `flags` and `mode`; -1 with errno set on failure.
    package func openFile(_ path: SafeRelativePath, flags: Int32, mode: mode_t = 0o644) -> Int32 {
        tessera_open_beneath(descriptor, path.value, flags, UInt32(mode))
    }

    /// Creates the folders above `path` that do not exist yet (owner-only… `mode`); false (errno
    /// set) when one cannot be made or an existing one is a symlink or not a folder.
    package func makeParents(of path: SafeRelativePath, mode: mode_t = 0o755) -> Bool {
        for parent in path.parents {
            if mkdirat(descriptor, parent, mode) != 0, errno != EEXIST { return false }
            guard let folder = SafeRelativePath(parent) else { return false }
            let fd = openFile(folder, flags: O_RDONLY | O_DIRECTORY)   // refuses a planted link
            guard fd >= 0 else { return false }
            close(fd)
        }
        return true
    }

    /// The bytes of the regular file at `path` beneath the folder, at most `limit`; nil when it
    /// is missing, not a regular file, behind a symlink, or larger.
    package func contents(of path: SafeRelativePath, limit: Int) -> [UInt8]? {
        let fd = openFile(path, flags: O_RDONLY)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, info.st_size <= limit else { return nil }
        return FileDescriptorIO.readAll(fd, limit: limit)
    }

    /// The size and SHA-256 of the regular file at `path` beneath the folder, read in 1 MiB
    /// chunks a chunk ahead of hashing (`FileReadAhead`), so one large file hashes at the speed
    /// of SHA-256 on one core — and its identity (inode, times); nil when it is missing,
    /// not a regular file, behind a symlink, unreadable, or changed while it was read (its
    /// identity then differs).
    package func digest(of path: SafeRelativePath) -> (size: UInt64, sha256: SHA256Digest, identity: FileIdentity)? {
        let fd = openFile(path, flags: O_RDONLY)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, let hasher = try? SHA256Hasher() else { return nil }   // libcrypto missing: no digest
        guard let before = FileIdentity(descriptor: fd) else { return nil }
        _ = posix_fadvise(fd, 0, 0, POSIX_FADV_SEQUENTIAL)
        guard let size = FileReadAhead.chunks(of: fd, expectedBytes: Int(info.st_size), { hasher.update($0) }),
              let after = FileIdentity(descriptor: fd), after == before, after.size == size else { return nil }
        return (size, hasher.finalize(), after)
    }

    /// fsyncs the folder itself (after files were created, renamed or removed in it).
    package func sync() {
        fsync(descriptor)
    }
}
