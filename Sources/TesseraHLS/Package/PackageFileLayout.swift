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
/// folder appends and cannot reopen a file it finished — so a playlist whose ranges come back to a
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

    /// A local file's place: a folder (a track's) and a name in it.
    struct LocalName: Hashable {
        let folder: String
        let name: String

        /// `folder/name`.
        var path: SafeRelativePath {
            guard let path = SafeRelativePath("\(folder)/\(name)") else { preconditionFailure("a folder and a safe name make a safe path") }
            return path
        }
    }

    private struct File {
        let key: SourceKey
        let local: LocalName
        /// Planned bytes end here (nil: the whole file is planned).
        var end: UInt64?
        /// Whether any of its bytes are planned (its owner is known).
        var owned = false
    }

    /// Every file, in the order they were named (a file's index is its position here).
    private var files: [File] = []
    /// `files` by source key.
    private var keyIndex = PositionIndex()
    /// The local names taken — every file's, and the names reserved for playlists — in the
    /// order they were taken.
    private var takenNames: [LocalName] = []
    /// `takenNames` by name.
    private var nameIndex = PositionIndex()
    /// The source folders (`SourceKey.folder`), by text.
    private var sourceFolders: [String: Int] = [:]
    /// The next number to try for a name already taken, by `folder/name`: a thousand segments
    /// that differ only in their query take `seg-2.ts` … `seg-1000.ts` without probing every
    /// number below each one again.
    private var nextNumber: [String: Int] = [:]
    /// The source whose bytes were planned last (the folder's open file).
    private var current: SourceKey?
    /// Sources another file followed: no more bytes may be planned for them.
    private var closed: Set<SourceKey> = []
    /// The files whose first bytes were planned for a folder (track) other than their own, by
    /// local path: the exceptions of the manifest's owners.
    private(set) var otherOwners: [String: String?] = [:]

    /// The owner of each file: the folder (track) whose reference planned its first bytes.

    /// Room for `count` more source files.
    mutating func reserveCapacity(_ count: Int) {
        files.reserveCapacity(files.count + count)
        keyIndex.reserveCapacity(files.count + count)
        takenNames.reserveCapacity(takenNames.count + count)
        nameIndex.reserveCapacity(takenNames.count + count)
    }

    /// Reserves `name` in `folder` (a track's playlist), so no media file takes it.
    mutating func reserve(_ name: String, in folder: String) { _ = take(LocalName(folder: folder, name: name)) }

    /// The key of the source folder `text` (an absolute URL up to and including its path's last
    /// `/`): with a name from that folder, the key `key(of:)` gives their joined text.
    mutating func sourceFolder(_ text: String) -> Int {
        let next = sourceFolders.count
        return Self.claim(&sourceFolders[text, default: next], next)
    }

    /// The key of the file whose absolute URL is `text`.
    mutating func key(of text: String) -> SourceKey {
        let (folder, name) = Self.split(text)
        return SourceKey(folder: sourceFolder(folder), name: name)
    }

    /// The key of the file whose absolute URL is `text` when its folder is known (a file the
    /// layout holds has one), without learning a new folder.
    func existingKey(of text: String) -> SourceKey? {
        let (folder, name) = Self.split(text)
        return sourceFolders[folder].map { SourceKey(folder: $0, name: name) }
    }

    /// `text` split after the last `/` of its path (before any query or fragment).
    private static func split(_ text: String) -> (folder: String, name: String) {
        let bytes = text.utf8
        let pathEnd = bytes.firstIndex { $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") } ?? bytes.endIndex
        guard let slash = bytes[..<pathEnd].lastIndex(of: UInt8(ascii: "/")) else { return ("", text) }
        let split = bytes.index(after: slash)
        return (String(text[..<split]), String(text[split...]))
    }

    /// The file of the source `key`, if the layout holds it.
    func file(_ key: SourceKey) -> Int? {
        keyIndex.find(key.hashValue) { files[$0].key == key }
    }

    /// The local path of file `index`.
    func path(ofFile index: Int) -> SafeRelativePath { files[index].local.path }

    /// How a playlist in `folder` names file `index`: its name in the same folder, else
    /// `../folder/name`.
    func localURI(ofFile index: Int, from folder: String) -> String {
        let local = files[index].local
        return local.folder == folder ? local.name : "../\(local.folder)/\(local.name)"
    }

    /// The file at `url`, and what must be fetched so the bytes `range` (nil: the whole file) of
    /// it are in the package; the plan records them as planned.
    /// - Throws: `unsupported` when the reference cannot be kept exact (ranges of a file that
    ///   overlap what is planned without lying inside it, a whole file named after ranges of it,
    ///   bytes of a file another file already followed); `what` names the reference.
    mutating func cover(_ range: ByteRange?, of url: URL, in folder: String,
                        what: @autoclosure () -> String) throws(HLSError) -> (file: Int, coverage: Coverage) {
        try cover(range, key: key(of: url.absoluteString), name: Self.localName(url), in: folder, what: what())
    }

    /// As `cover(_:of:in:what:)` for the file `key`, named `name` when new (the planner's fast
    /// path: a plain relative URI in its playlist's folder, no URL made).
    mutating func cover(_ range: ByteRange?, key: SourceKey, name: @autoclosure () -> String, in folder: String,
                        what: @autoclosure () -> String) throws(HLSError) -> (file: Int, coverage: Coverage) {
        let index = file(key, name: name(), in: folder)
        let file = files[index]
        // A whole file planned already holds every range of it.
        guard let end = file.end else { return (index, .covered) }
        let coverage: Coverage
        var newEnd: UInt64?
        if let range, let length = range.length {
            let rangeEnd = range.offset + length
            if rangeEnd <= end, end > 0 { return (index, .covered) }
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
            if file.local.folder != folder { otherOwners[file.local.path.value] = folder }
        }
        files[index].end = newEnd
        return (index, coverage)
    }

    /// The file of the source `key`, made in `folder` as `name` when new. A file named again is
    /// most often the one named last (byte ranges of one file), so that one is tried first.
    mutating func file(_ key: SourceKey, name: @autoclosure () -> String, in folder: String) -> Int {
        if let last = files.last, last.key == key { return files.count - 1 }
        let hash = key.hashValue
        if let index = keyIndex.find(hash, matches: { files[$0].key == key }) { return index }
        let index = files.count
        files.append(File(key: key, local: uniqueName(folder: folder, name: name()), end: 0))
        keyIndex.insert(hash, position: index)
        return index
    }

    /// The files no byte is planned for — named only by EXT-X-GAP segments — by path.
    /// - Complexity: O(files).
    var unownedPaths: [SafeRelativePath] { files.filter { !$0.owned }.map(\.local.path) }

    /// `slot`'s value (the dictionary's entry, made with `next` when new, in the same lookup).
    private static func claim(_ slot: inout Int, _ next: Int) -> Int { slot }

    /// Takes `name` when no file or playlist has it; whether it did.
    private mutating func take(_ name: LocalName) -> Bool {
        let hash = name.hashValue
        guard nameIndex.find(hash, matches: { takenNames[$0] == name }) == nil else { return false }
        nameIndex.insert(hash, position: takenNames.count)
        takenNames.append(name)
        return true
    }

    /// `name` in `folder`, or `stem-2.ext`, … when taken; taken.
    private mutating func uniqueName(folder: String, name: String) -> LocalName {
        let wanted = LocalName(folder: folder, name: name)
        if take(wanted) { return wanted }
        let base = "\(folder)/\(name)"
        let dot = name.lastIndex(of: ".").flatMap { $0 == name.startIndex ? nil : $0 }
        let stem = dot.map { String(name[..<$0]) } ?? name
        let suffix = dot.map { String(name[$0...]) } ?? ""
        var number = nextNumber[base] ?? 2
        var chosen: LocalName
        repeat {
            chosen = LocalName(folder: folder, name: "\(stem)-\(number)\(suffix)")
            number += 1
        } while !take(chosen)
        nextNumber[base] = number
        return chosen
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
