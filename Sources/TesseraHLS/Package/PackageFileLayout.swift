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

    /// A source file: its absolute URL (query and fragment included) split after the last `/`
    /// of its path, the folder part interned — equal keys for equal URLs, and a plain relative
    /// name in a known folder makes one without building the URL's text or allocating.
    struct SourceKey: Hashable {
        /// The interned text up to and including the path's last `/`.
        let folder: Int
        /// The rest: the last path segment, then the query and fragment.
        let name: String
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
    /// The index in `files` of each source file.
    private var fileIndices: [SourceKey: Int] = [:]
    /// The source folders (`SourceKey.folder`), by text.
    private var sourceFolders: [String: Int] = [:]
    /// The local names taken, by local folder.
    private var names: [String: Set<String>] = [:]
    /// The next number to try for a name already taken, by `folder/name`: a thousand segments
    /// that differ only in their query take `seg-2.ts` … `seg-1000.ts` without probing every
    /// number below each one again.
    private var nextNumber: [String: Int] = [:]
    /// The source whose bytes were planned last (the sink's open file).
    private var current: SourceKey?
    /// Sources another file followed: no more bytes may be planned for them.
    private var closed: Set<SourceKey> = []
    /// The files whose first bytes were planned for a folder (track) other than their own, by
    /// local path: the exceptions of the manifest's owners.
    private var otherOwners: [String: String?] = [:]

    /// The owner of each file: the folder (track) whose reference planned its first bytes.
    var owners: PackageFileOwners { PackageFileOwners(exceptions: otherOwners) }

    /// Room for `count` more source files named in `folder`.
    mutating func reserveCapacity(_ count: Int, in folder: String) {
        files.reserveCapacity(files.count + count)
        fileIndices.reserveCapacity(fileIndices.count + count)
        names[folder, default: []].reserveCapacity((names[folder]?.count ?? 0) + count)
    }

    /// Reserves `name` in `folder` (a track's playlist), so no media file takes it.
    mutating func reserve(_ name: String, in folder: String) { names[folder, default: []].insert(name) }

    /// The key of the source folder `text` (an absolute URL up to and including its path's last
    /// `/`): with a name from that folder, the key `key(of:)` gives their joined text.
    mutating func sourceFolder(_ text: String) -> Int {
        let next = sourceFolders.count
        return Self.claim(&sourceFolders[text, default: next], next)
    }

    /// The key of the file whose absolute URL is `text`.
    mutating func key(of text: String) -> SourceKey {
        let bytes = text.utf8
        let pathEnd = bytes.firstIndex { $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") } ?? bytes.endIndex
        guard let slash = bytes[..<pathEnd].lastIndex(of: UInt8(ascii: "/")) else { return SourceKey(folder: sourceFolder(""), name: text) }
        let split = bytes.index(after: slash)
        return SourceKey(folder: sourceFolder(String(text[..<split])), name: String(text[split...]))
    }

    /// The local path of the file at `url` (a new one in `folder` when it has none yet).
    mutating func path(of url: URL, in folder: String) -> SafeRelativePath {
        files[fileIndex(key(of: url.absoluteString), name: Self.localName(url), folder: folder)].path
    }

    /// The local path of the file at `url`, and what must be fetched so the bytes `range` (nil:
    /// the whole file) of it are in the package; the plan records them as planned.
    /// - Throws: `unsupported` when the reference cannot be kept exact (ranges of a file that
    ///   overlap what is planned without lying inside it, a whole file named after ranges of it,
    ///   bytes of a file another file already followed); `what` names the reference.
    mutating func cover(_ range: ByteRange?, of url: URL, in folder: String,
                        what: @autoclosure () -> String) throws(HLSError) -> (path: SafeRelativePath, coverage: Coverage) {
        try cover(range, key: key(of: url.absoluteString), name: Self.localName(url), in: folder, what: what())
    }

    /// As `cover(_:of:in:what:)` for the file `key`, named `name` when new (the planner's fast
    /// path: a plain relative URI in its playlist's folder, no URL made).
    mutating func cover(_ range: ByteRange?, key: SourceKey, name: @autoclosure () -> String, in folder: String,
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

    /// The index of the file `key`, made in `folder` as `name` when new: one hash lookup, known
    /// or new.
    private mutating func fileIndex(_ key: SourceKey, name: @autoclosure () -> String, folder: String) -> Int {
        let next = files.count
        let index = Self.claim(&fileIndices[key, default: next], next)
        if index == next { files.append(File(path: uniquePath(folder: folder, name: name()), end: 0)) }
        return index
    }

    /// `slot`'s value (the dictionary's entry, made with `next` when new, in the same lookup).
    private static func claim(_ slot: inout Int, _ next: Int) -> Int { slot }

    /// `folder/name`, or `folder/stem-2.ext`, … when taken.
    private mutating func uniquePath(folder: String, name: String) -> SafeRelativePath {
        var chosen = name
        if !names[folder, default: []].insert(name).inserted {
            let base = "\(folder)/\(name)"
            let dot = name.lastIndex(of: ".").flatMap { $0 == name.startIndex ? nil : $0 }
            let stem = dot.map { String(name[..<$0]) } ?? name
            let suffix = dot.map { String(name[$0...]) } ?? ""
            var number = nextNumber[base] ?? 2
            repeat {
                chosen = "\(stem)-\(number)\(suffix)"
                number += 1
            } while !names[folder, default: []].insert(chosen).inserted
            nextNumber[base] = number
        }
        guard let path = SafeRelativePath("\(folder)/\(chosen)") else { preconditionFailure("a folder and a safe name make a safe path") }
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
