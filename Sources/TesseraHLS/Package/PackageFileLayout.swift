#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TesseraHTTP
import TesseraSupport

/// Where each source file of a package goes, and which of its bytes the plan already fetches.
/// A source file (one URL, query included) is one local file, whatever number of playlists and
/// byte ranges name it, kept whole at its original offsets from byte 0 to the last byte any
/// range names: the bytes between listed ranges are fetched too (`unlisted` resources), so every
/// BYTERANGE stays exact. Local names are the URL's last path segment reduced to safe
/// characters, unique within the track's folder. A file's bytes arrive in one run — the per-file
/// sink appends and cannot reopen a file it finished — so a playlist whose ranges come back to a
/// file after another one started is refused.
struct PackageFileLayout {
    /// What the plan must fetch to cover a reference.
    enum Coverage: Equatable {
        /// Nothing: the bytes are already planned (a shared file, an I-frame range).
        case covered
        /// These ranges of the file, in order (nil: the whole file): bytes the playlist does not
        /// list first (`unlisted`), then the range itself.
        case fetch(unlisted: ByteRange?, listed: ByteRange?)
    }

    private struct File {
        let path: SafeRelativePath
        /// Planned bytes end here (nil: the whole file is planned).
        var end: UInt64?
        /// Whether any of its bytes are planned (its owner is known).
        var owned = false
    }

    /// Every file, in the order they were named.
    private var files: [File] = []
    /// The index in `files` of each source file, by absolute URL (query included).
    private var fileIndices: [String: Int] = [:]
    private var names: Set<String> = []
    /// The next number to try for a name already taken, by `folder/name`: a thousand segments
    /// that differ only in their query take `seg-2.ts` … `seg-1000.ts` without probing every
    /// number below each one again.
    private var nextNumber: [String: Int] = [:]
    /// The source whose bytes were planned last (the sink's open file).
    private var current: String?
    /// Sources another file followed: no more bytes may be planned for them.
    private var closed: Set<String> = []
    /// The files whose first bytes were planned for a folder (track) other than their own, by
    /// local path: the exceptions of the manifest's owners.
    private var otherOwners: [String: String?] = [:]

    /// The owner of each file: the folder (track) whose reference planned its first bytes.
    var owners: PackageFileOwners { PackageFileOwners(exceptions: otherOwners) }

    /// Room for `count` more source files.
    mutating func reserveCapacity(_ count: Int) {
        files.reserveCapacity(files.count + count)
        fileIndices.reserveCapacity(fileIndices.count + count)
        names.reserveCapacity(names.count + count)
    }

    /// Reserves `path` (a track's playlist), so no media file takes its name.
    mutating func reserve(_ path: String) { names.insert(path) }

    /// The local path of the file at `url` (a new one in `folder` when it has none yet).
    mutating func path(of url: URL, in folder: String) -> SafeRelativePath {
        files[fileIndex(url.absoluteString, name: Self.localName(url), folder: folder)].path
    }

    /// The local path of the file at `url`, and what must be fetched so the bytes `range` (nil:
    /// the whole file) of it are in the package; the plan records them as planned.
    /// - Throws: `unsupported` when the reference cannot be kept exact (ranges of a file that
    ///   overlap what is planned without lying inside it, a whole file named after ranges of it,
    ///   bytes of a file another file already followed); `what` names the reference.
    mutating func cover(_ range: ByteRange?, of url: URL, in folder: String,
                        what: @autoclosure () -> String) throws(HLSError) -> (path: SafeRelativePath, coverage: Coverage) {
        try cover(range, key: url.absoluteString, name: Self.localName(url), in: folder, what: what())
    }

    /// As `cover(_:of:in:what:)` for the file whose absolute URL is `key`, named `name` when new
    /// (the planner's fast path: a plain relative URI joined to its playlist's folder as text).
    mutating func cover(_ range: ByteRange?, key: String, name: @autoclosure () -> String, in folder: String,
                        what: @autoclosure () -> String) throws(HLSError) -> (path: SafeRelativePath, coverage: Coverage) {
        let index = fileIndex(key, name: name(), folder: folder)
        let file = files[index]
        // A whole file planned already holds every range of it.
        guard let end = file.end else { return (file.path, .covered) }
        let coverage: Coverage
        var newEnd: UInt64?
        if let range, let length = range.length {
            let rangeEnd = range.offset + length
            if rangeEnd <= end, end > 0 { return (file.path, .covered) }
            guard range.offset >= end else {
                throw HLSError(.unsupported, "\(what()) overlaps bytes \(range.offset)–\(end) the package already takes from that file without lying inside them; its byte ranges cannot be kept exact.")
            }
            let unlisted = range.offset > end ? ByteRange(offset: end, length: range.offset - end) : nil
            coverage = .fetch(unlisted: unlisted, listed: range)
            newEnd = rangeEnd
        } else {
            guard end == 0 else {
                throw HLSError(.unsupported, "\(what()) names a whole file whose byte ranges the package already takes; the file cannot be kept whole and exact.")
            }
            coverage = .fetch(unlisted: nil, listed: nil)
            newEnd = nil
        }
        // Only a file taken in ranges can be come back to (a whole one is covered from here on):
        // only such files are remembered as the open one, and closed when another follows.
        if current != key {
            guard !closed.contains(key) else {
                throw HLSError(.unsupported, "\(what()) comes back to a file after the playlist moved on to another one; a package writes each file in one run, so these interleaved byte ranges are refused.")
            }
            if let current { closed.insert(current) }
            current = newEnd == nil ? nil : key
        }
        if !file.owned {
            files[index].owned = true
            if !file.path.value.hasPrefix(folder + "/") { otherOwners[file.path.value] = folder }
        }
        files[index].end = newEnd
        return (file.path, coverage)
    }

    /// The index of the file `key` (the URL's absolute string), made in `folder` as `name` when
    /// new: one hash lookup, known or new.
    private mutating func fileIndex(_ key: String, name: @autoclosure () -> String, folder: String) -> Int {
        let next = files.count
        let index = Self.claim(&fileIndices[key, default: next], next)
        if index == next { files.append(File(path: uniquePath(folder: folder, name: name()), end: 0)) }
        return index
    }

    /// `slot`'s value (the dictionary's entry, made with `next` when new, in the same lookup).
    private static func claim(_ slot: inout Int, _ next: Int) -> Int { slot }

    /// `folder/name`, or `folder/stem-2.ext`, … when taken.
    private mutating func uniquePath(folder: String, name: String) -> SafeRelativePath {
        var candidate = "\(folder)/\(name)"
        if !names.insert(candidate).inserted {
            let base = candidate
            let dot = name.lastIndex(of: ".").flatMap { $0 == name.startIndex ? nil : $0 }
            let stem = dot.map { String(name[..<$0]) } ?? name
            let suffix = dot.map { String(name[$0...]) } ?? ""
            var number = nextNumber[base] ?? 2
            repeat {
                candidate = "\(folder)/\(stem)-\(number)\(suffix)"
                number += 1
            } while !names.insert(candidate).inserted
            nextNumber[base] = number
        }
        guard let path = SafeRelativePath(candidate) else { preconditionFailure("a folder and a safe name make a safe path") }
        return path
    }

    /// The URL's last path segment in safe characters (letters, digits, `.`, `-`, `_`), at most
    /// 96 of them; `file` when nothing is left.
    static func localName(_ url: URL) -> String { localName(lastSegmentOf: url.path) }

    /// The last non-empty segment of `path` in safe characters, as `localName(_:)`.
    static func localName(lastSegmentOf path: String) -> String {
        let path = path.utf8
        var end = path.endIndex   // the last segment that is not empty: trailing slashes skipped
        while end > path.startIndex, path[path.index(before: end)] == UInt8(ascii: "/") { end = path.index(before: end) }
        let start = path[..<end].lastIndex(of: UInt8(ascii: "/")).map { path.index(after: $0) } ?? path.startIndex
        // Safe characters are ASCII: a byte is a character, and the last 96 bytes are the last 96.
        let last = path[start..<end].suffix(maximumNameBytes)
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: maximumNameBytes) { buffer in
            var count = 0
            for byte in last {
                let safe: UInt8 = switch byte {
                case 0x30...0x39, 0x41...0x5A, 0x61...0x7A, 0x2E, 0x2D, 0x5F: byte
                default: 0x5F
                }
                if count == 0, safe == 0x2E { continue }   // no leading dots
                buffer[count] = safe
                count += 1
            }
            return count == 0 ? "file" : String(decoding: UnsafeBufferPointer(rebasing: buffer[..<count]), as: UTF8.self)
        }
    }

    /// The most bytes of a local name.
    private static let maximumNameBytes = 96
}
