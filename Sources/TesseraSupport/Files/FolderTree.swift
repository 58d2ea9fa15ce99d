#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CSystem

/// Walks and removes folder trees without following symlinks: a link inside a tree is removed as
/// a link, never entered.
package enum FolderTree {
    /// fsyncs every folder of the tree at `path` (the root included), so the names in it are
    /// durable; false when one cannot be opened.
    @discardableResult
    package static func syncFolders(at path: String) -> Bool {
        let fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW)
        guard fd >= 0 else { return false }
        return syncFolders(fd)
    }

    /// The relative paths of every entry that is not a folder (files, links) in the tree at
    /// `path`, outermost first; links are listed, never entered.
    package static func files(at path: String) -> [String] {
        entries(at: path)?.map(\.path) ?? []
    }

    /// What an entry of a tree is.
    package enum EntryKind: Sendable, Equatable {
        /// A regular file.
        case file
        /// A symbolic link (never followed).
        case link
        /// Anything else that is not a folder: a device, a FIFO, a socket.
        case other
    }

    /// Every entry that is not a folder in the tree at `path`, with its kind, outermost first;
    /// links are listed, never entered. Nil when `path` is not a folder (or is a link).
    package static func entries(at path: String) -> [(path: String, kind: EntryKind)]? {
        let fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW)
        guard fd >= 0 else { return nil }
        return typedFiles(fd, prefix: "")
    }

    private static func typedFiles(_ fd: Int32, prefix: String) -> [(path: String, kind: EntryKind)] {
        let copy = dup(fd)
        var result: [(path: String, kind: EntryKind)] = []
        for entry in entries(fd) {
            if entry.isFolder {
                let child = openat(copy, entry.name, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW)
                if child >= 0 { result += typedFiles(child, prefix: prefix + entry.name + "/") }
            } else {
                var info = stat()
                let mode = fstatat(copy, entry.name, &info, AT_SYMLINK_NOFOLLOW) == 0 ? info.st_mode & S_IFMT : 0
                result.append((prefix + entry.name, mode == S_IFREG ? .file : mode == S_IFLNK ? .link : .other))
            }
        }
        close(copy)
        return result
    }

    /// Removes the tree at `path` (a file or link is simply unlinked); best effort.
    package static func remove(at path: String) {
        guard unlink(path) != 0, errno == EISDIR || errno == EPERM else { return }
        let fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW)
        guard fd >= 0 else { return }
        removeContents(fd)
        rmdir(path)
    }

    /// The entries of the open folder `fd` (closed when done): names, and whether each is a real
    /// folder (links are never folders here).
    private static func entries(_ fd: Int32) -> [(name: String, isFolder: Bool)] {
        guard let stream = fdopendir(fd) else {
            close(fd)
            return []
        }
        defer { closedir(stream) }
        var result: [(String, Bool)] = []
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            guard name != ".", name != ".." else { continue }
            var info = stat()
            let isFolder = fstatat(dirfd(stream), name, &info, AT_SYMLINK_NOFOLLOW) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
            result.append((name, isFolder))
        }
        return result
    }

    private static func syncFolders(_ fd: Int32) -> Bool {
        var ok = fsync(fd) == 0
        let copy = dup(fd)
        for entry in entries(fd) where entry.isFolder {
            let child = openat(copy, entry.name, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW)
            ok = child >= 0 && syncFolders(child) && ok
        }
        close(copy)
        return ok
    }

    private static func removeContents(_ fd: Int32) {
        let copy = dup(fd)
        for entry in entries(fd) {
            if entry.isFolder {
                let child = openat(copy, entry.name, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW)
                if child >= 0 { removeContents(child) }
                unlinkat(copy, entry.name, AT_REMOVEDIR)
            } else {
                unlinkat(copy, entry.name, 0)
            }
        }
        close(copy)
    }
}
