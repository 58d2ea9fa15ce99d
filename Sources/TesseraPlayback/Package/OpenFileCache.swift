#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import TesseraSupport

/// A package's media files kept open for serving: a request takes a duplicate of a cached
/// descriptor (libmicrohttpd closes what it is given), so a repeated file costs one `dup`
/// instead of a path walk, a `stat` and a `close`. A file is opened beneath the package folder
/// (never through a symlink) and kept only when it is a regular file of the size the manifest
/// records; at most `capacity` stay open, the least recently used closed first.
final class OpenFileCache: Sendable {
    private struct Entry {
        let descriptor: Int32
        var lastUse: UInt64
    }

    private let root: FolderHandle
    private let capacity: Int
    private let state = Lock<(entries: [String: Entry], uses: UInt64)>(([:], 0))

    init(root: FolderHandle, capacity: Int = 256) {
        self.root = root
        self.capacity = max(1, capacity)
    }

    deinit {
        state.withLock { state in for entry in state.entries.values { close(entry.descriptor) } }
    }

    /// A body for the file at `path` of `size` bytes, or nil when it is missing, not a regular
    /// file, behind a symlink or of another size.
    func body(_ path: SafeRelativePath, size: UInt64) -> FileBody? {
        if let fd = state.withLock({ state -> Int32? in
            guard var entry = state.entries[path.value] else { return nil }
            state.uses += 1
            entry.lastUse = state.uses
            state.entries[path.value] = entry
            return dup(entry.descriptor)
        }), fd >= 0 {
            return FileBody(descriptor: fd, byteCount: size)
        }
        let fd = root.openFile(path, flags: O_RDONLY)
        guard fd >= 0 else { return nil }
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, UInt64(info.st_size) == size else {
            close(fd)
            return nil
        }
        let served = dup(fd)
        keep(fd, for: path.value)
        guard served >= 0 else { return nil }
        return FileBody(descriptor: served, byteCount: size)
    }

    /// Caches `fd` for `path` (closing it when another thread cached one first), evicting the
    /// least recently used entry when full.
    private func keep(_ fd: Int32, for path: String) {
        let closing = state.withLock { state -> [Int32] in
            if state.entries[path] != nil { return [fd] }
            var closing: [Int32] = []
            if state.entries.count >= capacity, let oldest = state.entries.min(by: { $0.value.lastUse < $1.value.lastUse }) {
                state.entries[oldest.key] = nil
                closing.append(oldest.value.descriptor)
            }
            state.uses += 1
            state.entries[path] = Entry(descriptor: fd, lastUse: state.uses)
            return closing
        }
        for descriptor in closing { close(descriptor) }
    }
}
