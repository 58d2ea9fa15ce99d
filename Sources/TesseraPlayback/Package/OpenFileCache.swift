#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import TesseraSupport

/// A package's media files kept open for serving: a request takes a duplicate of a cached
/// descriptor (libmicrohttpd closes what it is given), so a repeated file costs one `fstat` and
/// one `dup` instead of a path walk, a `stat` and a `close`. A file is opened beneath the package
/// folder (never through a symlink) and served only while it is the regular file verified — the
/// same device, inode, size and modification and change times (`FileIdentity`): one rewritten in
/// place, even at the same size, or replaced, is not served again (the cached descriptor is
/// dropped). At most `capacity` stay open, the least recently used closed first.
final class OpenFileCache: Sendable {
    /// What opening a file gave.
    enum Opened {
        /// Its body, to serve.
        case body(FileBody)
        /// It is missing, not a regular file, or behind a symlink.
        case missing
        /// It is not the file verified any more: what differs ("its modification time").
        case changed(String)
    }

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

    /// A body for the file at `path`, when it is still `verified`.
    func body(_ path: SafeRelativePath, verified: FileIdentity) -> Opened {
        if let fd = state.withLock({ state -> Int32? in
            guard var entry = state.entries[path.value] else { return nil }
            state.uses += 1
            entry.lastUse = state.uses
            state.entries[path.value] = entry
            return dup(entry.descriptor)
        }), fd >= 0 {
            guard let now = FileIdentity(descriptor: fd), let difference = verified.difference(now) else {
                return .body(FileBody(descriptor: fd, byteCount: verified.size))
            }
            close(fd)
            forget(path.value)
            return .changed(difference)
        }
        let fd = root.openFile(path, flags: O_RDONLY)
        guard fd >= 0 else { return .missing }
        guard let now = FileIdentity(descriptor: fd), now.isRegularFile else {
            close(fd)
            return .missing
        }
        if let difference = verified.difference(now) {
            close(fd)
            return .changed(difference)
        }
        let served = dup(fd)
        keep(fd, for: path.value)
        guard served >= 0 else { return .missing }
        return .body(FileBody(descriptor: served, byteCount: verified.size))
    }

    /// Closes and drops the cached descriptor of `path`.
    private func forget(_ path: String) {
        let closing = state.withLock { state in state.entries.removeValue(forKey: path)?.descriptor }
        if let closing { close(closing) }
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
