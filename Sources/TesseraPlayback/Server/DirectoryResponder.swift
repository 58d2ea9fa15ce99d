#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TesseraSupport

/// Serves the regular files of one directory tree, read-only. Nothing outside the tree is
/// reachable: `..`, empty and `.` segments are refused, and files are opened beneath the root's
/// descriptor with every symlink refused (openat2 `RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS`).
/// Anything refused or missing is 404. Playlists are sent with `Cache-Control: no-cache`.
public final class DirectoryResponder: HTTPResponder {
    private let root: FolderHandle

    /// Opens `directory` as the root.
    /// - Throws: `root-unavailable` when it cannot be opened as a directory (or is a symlink).
    public init(directory: URL) throws(PlaybackError) {
        guard let root = FolderHandle(path: directory.path) else {
            throw PlaybackError(.rootUnavailable, "Cannot open \(directory.path) as a directory: \(String(cString: strerror(errno))).")
        }
        self.root = root
    }

    public func reply(to request: ServerRequest) -> ServerReply {
        .response(response(for: request.path))
    }

    /// The response for `path` (200 with the file, or 404).
    public func response(for path: String) -> ServerResponse {
        guard let safe = SafeRelativePath(requestPath: path), let file = Self.open(safe, in: root) else { return .status(404) }
        var headers: ResponseHeaders = ["Content-Type": ContentType.forPath(path)]
        if ContentType.isPlaylist(path) { headers.add("Cache-Control", "no-cache") }
        return ServerResponse(status: 200, headers: headers, body: .file(file))
    }
}

extension DirectoryResponder {
    /// The regular file at `path` beneath `root`, or nil (missing, a folder, a symlink on the way).
    static func open(_ path: SafeRelativePath, in root: FolderHandle) -> FileBody? {
        let fd = root.openFile(path, flags: O_RDONLY)
        guard fd >= 0 else { return nil }
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else {
            close(fd)
            return nil
        }
        return FileBody(descriptor: fd, byteCount: UInt64(info.st_size))
    }
}
