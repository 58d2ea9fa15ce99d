#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CSystem
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A folder tree written beside its destination and published whole or not at all: files are
/// created beneath a hidden staging folder in the same parent (never through a symlink, never
/// outside it), and `commit` flushes their data in one go (`syncfs` of the tree's file system),
/// fsyncs every folder of the tree, then renames it into place without replacing anything (or, with `.replace`, swaps it with the old
/// tree atomically and removes the old one) and fsyncs the parent. Until then the destination
/// is untouched; a staging folder that is neither committed nor kept is removed (also when
/// dropped). Not `Sendable`: one owner.
public final class StagingDirectory {
    /// Where `commit` publishes the tree.
    public let destination: URL
    /// The hidden folder being written.
    public let stagingPath: String
    private let policy: OverwritePolicy
    private let folder: FolderHandle
    private var isFinished = false

    /// Creates a new staging folder beside `destination`, creating missing parent folders.
    /// - Throws: `destination-exists` (policy `.refuse`), `destination-unwritable`.
    public convenience init(destination: URL, policy: OverwritePolicy) throws(SupportError) {
        let parent = try StagingFile.prepareFolder(of: destination, policy: policy)
        let suffix = String(UInt64.random(in: 0...UInt64.max), radix: 36)
        let path = parent + "/." + destination.lastPathComponent + "." + suffix + ".tessera-staging"
        guard mkdir(path, 0o755) == 0 else {
            throw DurableFile.unwritable("Cannot create \(path): \(FileDescriptorIO.lastError).")
        }
        try self.init(destination: destination, policy: policy, path: path)
    }

    /// Opens the staging folder of a resumable job at `stagingPath` (beside `destination`),
    /// creating it when missing and keeping what it already holds.
    /// - Throws: `destination-exists` (policy `.refuse`), `destination-unwritable`.
    public convenience init(destination: URL, policy: OverwritePolicy, resumableAt stagingPath: String) throws(SupportError) {
        _ = try StagingFile.prepareFolder(of: destination, policy: policy)
        if mkdir(stagingPath, 0o755) != 0, errno != EEXIST {
            throw DurableFile.unwritable("Cannot create \(stagingPath): \(FileDescriptorIO.lastError).")
        }
        try self.init(destination: destination, policy: policy, path: stagingPath)
    }

    private init(destination: URL, policy: OverwritePolicy, path: String) throws(SupportError) {
        guard let folder = FolderHandle(path: path) else {   // refuses a planted symlink
            throw DurableFile.unwritable("Cannot open \(path) as a folder: \(FileDescriptorIO.lastError).")
        }
        self.destination = destination
        self.policy = policy
        self.folder = folder
        stagingPath = path
    }

    deinit {
        if !isFinished { discard() }
    }

    /// The file at `path` inside the tree, created with its missing folders; with `.keep` an
    /// existing file is opened as it is (writes append after its bytes), with `.empty` it is
    /// emptied.
    /// - Throws: `destination-unwritable` (a symlink on the way, I/O errors).
    public func file(at path: SafeRelativePath, contents: ExistingContents) throws(SupportError) -> DurableFile {
        guard folder.makeParents(of: path) else {
            throw DurableFile.unwritable("Cannot create the folders of \(path) in \(stagingPath): \(FileDescriptorIO.lastError).")
        }
        let flags = O_RDWR | O_CREAT | (contents == .empty ? O_TRUNC : 0)
        let fd = folder.openFile(path, flags: flags)
        guard fd >= 0, lseek(fd, 0, SEEK_END) >= 0 else {
            let reason = FileDescriptorIO.lastError
            if fd >= 0 { close(fd) }
            throw DurableFile.unwritable("Cannot write \(path) in \(stagingPath): \(reason).")
        }
        return DurableFile(descriptor: fd, path: stagingPath + "/" + path.value)
    }

    /// What `file(at:contents:)` does with a file that exists.
    public enum ExistingContents: Sendable {
        /// Keep its bytes; writes append after them.
        case keep
        /// Empty it.
        case empty
    }

    /// The size of the regular file at `path` inside the tree, or nil when there is none.
    public func size(of path: SafeRelativePath) -> UInt64? {
        let fd = folder.openFile(path, flags: O_RDONLY)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        return UInt64(info.st_size)
    }

    /// The relative paths of every file (and link) in the tree.
    public var files: [String] { FolderTree.files(at: stagingPath) }

    /// Removes the file at `path` inside the tree, if any.
    public func remove(_ path: SafeRelativePath) {
        unlinkat(folder.descriptor, path.value, 0)
    }

    /// Closes the folder and leaves it for a later run to resume.
    public func keep() {
        isFinished = true
    }

    /// Makes every folder of the tree durable, then publishes it at the destination (with
    /// `.keepBoth`, at the first free name beside it) and returns where it went. Files must have
    /// been flushed by their writers.
    /// - Throws: `destination-exists` when it appeared meanwhile (`.refuse`) or every candidate
    ///   name is taken (`.keepBoth`), `destination-unwritable` for I/O failures.
    @discardableResult
    public func commit() throws(SupportError) -> URL {
        precondition(!isFinished, "StagingDirectory committed twice")
        // Every file's data, in one flush of the file system (writers need not flush each file).
        guard tessera_syncfs(folder.descriptor) == 0 else {
            throw DurableFile.unwritable("Flushing the files of \(stagingPath) failed: \(FileDescriptorIO.lastError).")
        }
        guard FolderTree.syncFolders(at: stagingPath) else {
            throw DurableFile.unwritable("Flushing the folders of \(stagingPath) failed: \(FileDescriptorIO.lastError).")
        }
        let published: URL
        switch policy {
        case .refuse:
            published = try renameFirstFree([destination])
        case .keepBoth:
            published = try renameFirstFree(StagingFile.candidates(for: destination))
        case .replace:
            let result = tessera_rename_noreplace(stagingPath, destination.path)
            if result == EEXIST {
                let swapped = tessera_rename_exchange(stagingPath, destination.path)
                guard swapped == 0 else { throw fail("Cannot replace \(destination.path)", swapped) }
                FolderTree.remove(at: stagingPath)   // the old tree, now under the staging name
            } else if result != 0 {
                throw fail("Cannot publish \(destination.path)", result)
            }
            published = destination
        }
        isFinished = true
        FileDescriptorIO.syncFolder(of: published.path)
        return published
    }

    private func renameFirstFree(_ candidates: [URL]) throws(SupportError) -> URL {
        for candidate in candidates {
            let result = tessera_rename_noreplace(stagingPath, candidate.path)
            if result == 0 { return candidate }
            guard result == EEXIST || result == ENOTEMPTY else { throw fail("Cannot publish \(candidate.path)", result) }
        }
        discard()
        throw StagingFile.exists(candidates.count == 1 ? "Cannot publish \(destination.path): it appeared while writing."
                                 : "Cannot publish \(destination.path): it and every numbered name up to (99) exist.")
    }

    private func fail(_ what: String, _ code: Int32) -> SupportError {
        let reason = String(cString: strerror(code))
        discard()
        return DurableFile.unwritable("\(what): \(reason).")
    }

    /// Removes the staging tree; the destination is untouched.
    public func discard() {
        guard !isFinished else { return }
        isFinished = true
        FolderTree.remove(at: stagingPath)
    }
}
