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
import CSystem

/// A file written beside its destination and published whole or not at all: data is written
/// to a hidden staging file in the same folder, fsynced, then linked (no-replace) or renamed
/// into place and the folder fsynced. Until `commit`, the destination is untouched; a staging
/// file that is neither committed nor kept is removed (also when dropped). Missing parent
/// folders are created. Not `Sendable`: one owner.
public final class StagingFile: DurableFile {
    /// Where `commit` publishes the file.
    public let destination: URL
    /// The hidden file being written.
    public var stagingPath: String { path }
    private var isFinished = false
    private let policy: OverwritePolicy

    /// Opens a new staging file beside `destination`, creating missing parent folders.
    /// - Throws: `destination-exists` (policy `.refuse`), `destination-unwritable`.
    public convenience init(destination: URL, policy: OverwritePolicy) throws(SupportError) {
        let folder = try Self.prepareFolder(of: destination, policy: policy)
        let suffix = String(UInt64.random(in: 0...UInt64.max), radix: 36)
        try self.init(destination: destination, policy: policy,
                      path: folder + "/." + destination.lastPathComponent + "." + suffix + ".tessera-partial", flags: O_EXCL)
    }

    /// Opens the partial file of a resumable job at `partialPath` (beside `destination`),
    /// creating it when missing and keeping the bytes it already holds; writes append after them.
    /// - Throws: `destination-exists` (policy `.refuse`), `destination-unwritable`.
    public convenience init(destination: URL, policy: OverwritePolicy, resumableAt partialPath: String) throws(SupportError) {
        _ = try Self.prepareFolder(of: destination, policy: policy)
        try self.init(destination: destination, policy: policy, path: partialPath, flags: 0)
        guard lseek(descriptor, 0, SEEK_END) >= 0 else { throw Self.unwritable("Cannot open \(partialPath): \(FileDescriptorIO.lastError).") }
    }

    private init(destination: URL, policy: OverwritePolicy, path: String, flags: Int32) throws(SupportError) {
        self.destination = destination
        self.policy = policy
        let descriptor = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC | flags, 0o644)   // never through a planted symlink
        guard descriptor >= 0 else {
            throw Self.unwritable("Cannot write \(path): \(FileDescriptorIO.lastError).")
        }
        super.init(descriptor: descriptor, path: path)
    }

    /// Checks the destination's name, creates missing parent folders, and applies `policy` to
    /// an existing destination; returns the folder's path.
    static func prepareFolder(of destination: URL, policy: OverwritePolicy) throws(SupportError) -> String {
        let folder = destination.deletingLastPathComponent().path
        let name = destination.lastPathComponent
        guard !name.isEmpty, name != ".", name != ".." else {
            throw Self.unwritable("The destination \(destination.path) is not a file name.")
        }
        var info = stat()
        if stat(folder, &info) != 0 {
            do {
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            } catch {
                throw Self.unwritable("Cannot create the folder \(folder) for \(destination.path).")
            }
        } else if (info.st_mode & S_IFMT) != S_IFDIR {
            throw Self.unwritable("Cannot write \(destination.path): \(folder) is not a folder.")
        }
        if policy == .refuse, FileManager.default.fileExists(atPath: destination.path) {
            throw Self.exists("\(destination.path) already exists and replacing it was not asked for.")
        }
        return folder
    }

    deinit {
        if !isFinished { discard() }
    }

    /// Closes the file and leaves it in place for a later run to resume (nothing after a commit
    /// or discard).
    public func keep() {
        guard !isFinished else { return }
        close()
        isFinished = true
    }

    /// Flushes, then publishes the file at the destination (with `.keepBoth`, at the first free
    /// name beside it) and returns where it went.
    /// - Throws: `destination-exists` when it appeared meanwhile (policy `.refuse`) or every
    ///   candidate name is taken (`.keepBoth`), `destination-unwritable` for I/O failures.
    @discardableResult
    public func commit() throws(SupportError) -> URL {
        precondition(!isFinished, "StagingFile committed twice")
        try syncWhole()
        close()
        let published: URL
        switch policy {
        case .refuse:
            published = try linkFirstFree([destination])
        case .keepBoth:
            published = try linkFirstFree(Self.candidates(for: destination))
        case .replace:
            guard rename(stagingPath, destination.path) == 0 else {
                let reason = FileDescriptorIO.lastError
                discard()
                throw Self.unwritable("Cannot publish \(destination.path): \(reason).")
            }
            published = destination
        }
        isFinished = true
        FileDescriptorIO.syncFolder(of: published.path)
        return published
    }

    /// Links the staging file at the first of `candidates` that does not exist (link never
    /// replaces), then removes the staging name.
    private func linkFirstFree(_ candidates: [URL]) throws(SupportError) -> URL {
        for candidate in candidates {
            if link(stagingPath, candidate.path) == 0 {
                unlink(stagingPath)
                return candidate
            }
            guard errno == EEXIST else {
                let reason = FileDescriptorIO.lastError
                discard()
                throw Self.unwritable("Cannot publish \(candidate.path): \(reason).")
            }
        }
        discard()
        throw Self.exists(candidates.count == 1 ? "Cannot publish \(destination.path): it appeared while writing."
                          : "Cannot publish \(destination.path): it and every numbered name up to (99) exist.")
    }

    /// `name.ext`, `name (1).ext`, … `name (99).ext` beside `destination`.
    static func candidates(for destination: URL) -> [URL] {
        let folder = destination.deletingLastPathComponent()
        let name = destination.lastPathComponent
        let dot = name.lastIndex(of: ".").flatMap { $0 == name.startIndex ? nil : $0 }
        let stem = dot.map { String(name[..<$0]) } ?? name
        let ext = dot.map { String(name[$0...]) } ?? ""
        return [destination] + (1..<100).map { folder.appendingPathComponent("\(stem) (\($0))\(ext)") }
    }

    /// Removes the staging file; the destination is untouched.
    public func discard() {
        close()
        unlink(stagingPath)
        isFinished = true
    }

    static func exists(_ message: String) -> SupportError {
        SupportError(.destinationExists, message)
    }
}
