import TesseraSupport

/// Where a file-writing `HTTPBodyDestination` puts the bytes it is given: appended to the file
/// as they come — in whole pages at page boundaries (`PageAlignedAppender`), or each chunk whole
/// as it comes (a pipe or a terminal, where no byte should wait for the next) —, the first
/// failure kept for the owner to throw. Once closed it takes nothing more, so its owner may
/// close the file: the destination's lock orders a write in progress before the close.
struct BodyFileSink: Sendable {
    private let file: DurableFileAppender
    /// The page-aligned writer, when the bytes go in whole pages.
    private var paged: PageAlignedAppender?
    private var isOpen = true
    /// The bytes written (those dropped after a failure not counted).
    private(set) var written = 0
    /// The first write that failed; the bytes given after it are dropped.
    private(set) var failure: SupportError?

    /// A sink appending to `file`, in whole pages when `pageAligned`, else each chunk whole.
    init(_ file: DurableFileAppender, pageAligned: Bool) {
        self.file = file
        paged = pageAligned ? PageAlignedAppender(file, size: file.size) : nil
    }

    /// Writes `chunk` (or drops it after a failure); false, taking nothing, once closed.
    mutating func write(_ chunk: UnsafeRawBufferPointer) -> Bool {
        guard isOpen else { return false }
        guard failure == nil else { return true }
        do throws(SupportError) {
            if paged != nil {
                try paged!.append(chunk)
            } else {
                try file.append(chunk)
            }
            written += chunk.count
        } catch {
            failure = error
        }
        return true
    }

    /// Writes what waits for the next page boundary and closes: the body ended.
    /// - Throws: the first failure, or the last write's.
    mutating func finish() throws(SupportError) {
        if let failure { throw failure }
        isOpen = false
        try paged?.flush()
    }

    /// Takes nothing more (the owner is done, or gave up).
    mutating func close() { isOpen = false }
}
