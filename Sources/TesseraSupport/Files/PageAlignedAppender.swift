#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Appends to a file in whole pages at page boundaries, however the bytes come: what a write of
/// a page's part costs the page cache (the page zeroed, then copied into in two goes) is paid
/// only for the last one, at `flush()`. Pieces shorter than a page wait in a page-sized buffer
/// (as stdio's buffer does for curl's `-o`); longer ones go to the file directly, all but their
/// tail. One owner; `flush()` when the bytes end.
package struct PageAlignedAppender: Sendable {
    private let file: DurableFileAppender
    private let page: Int
    /// Where the next write goes: the file's size when it was made, plus what went since.
    private var offset: UInt64
    /// Bytes after `offset`, waiting for the next page boundary.
    private var pending: [UInt8] = []

    /// Appends through `file`, whose size is `size` (the first boundary is the one after it).
    package init(_ file: DurableFileAppender, size: UInt64) {
        self.file = file
        offset = size
        page = max(512, sysconf(Int32(_SC_PAGESIZE)))
    }

    /// Appends `bytes`: pages written, a tail kept.
    /// - Throws: `destination-unwritable` (full disk, I/O error); the bytes are then lost.
    package mutating func append(_ bytes: UnsafeRawBufferPointer) throws(SupportError) {
        var rest = bytes[...]
        if !pending.isEmpty || offset % UInt64(page) != 0 {
            // Fill the page the file ends in first.
            let room = page - Int(offset % UInt64(page)) - pending.count
            let taken = min(room, rest.count)
            pending.append(contentsOf: rest.prefix(taken))
            rest = rest.dropFirst(taken)
            guard taken == room else { return }
            try write(pending)
            pending.removeAll(keepingCapacity: true)
        }
        let whole = rest.count / page * page
        if whole > 0 {
            try file.append(UnsafeRawBufferPointer(rebasing: rest.prefix(whole)))
            offset += UInt64(whole)
        }
        pending.append(contentsOf: rest.dropFirst(whole))
    }

    /// Appends `bytes`: pages written, a tail kept.
    /// - Throws: `destination-unwritable`; the bytes are then lost.
    package mutating func append(_ bytes: [UInt8]) throws(SupportError) {
        let failure = bytes.withUnsafeBytes { raw -> SupportError? in
            do throws(SupportError) { try append(raw) } catch { return error }
            return nil
        }
        if let failure { throw failure }
    }

    /// Writes the bytes still waiting (the file's last, partial page).
    /// - Throws: `destination-unwritable`.
    package mutating func flush() throws(SupportError) {
        guard !pending.isEmpty else { return }
        try write(pending)
        pending.removeAll()
    }

    private mutating func write(_ bytes: [UInt8]) throws(SupportError) {
        try file.append(bytes)
        offset += UInt64(bytes.count)
    }
}
