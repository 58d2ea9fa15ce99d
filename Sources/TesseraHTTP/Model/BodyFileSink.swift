import TesseraSupport

/// Where a file-writing `HTTPBodyDestination` puts the bytes it is given: appended to the file
/// as they come, in whole pages at page boundaries (`PageAlignedAppender`), the first failure
/// kept for the owner to throw. Once closed it takes nothing more, so its owner may close the
/// file: the destination's lock orders a write in progress before the close.
struct BodyFileSink: Sendable {
    private var writer: PageAlignedAppender
    private var isOpen = true
    /// The bytes written (those dropped after a failure not counted).
    private(set) var written = 0
    /// The first write that failed; the bytes given after it are dropped.
    private(set) var failure: SupportError?

    init(_ file: DurableFileAppender) {
        writer = PageAlignedAppender(file, size: file.size)
    }

    /// Writes `chunk` (or drops it after a failure); false, taking nothing, once closed.
    mutating func write(_ chunk: UnsafeRawBufferPointer) -> Bool {
        guard isOpen else { return false }
        guard failure == nil else { return true }
        do throws(SupportError) {
            try writer.append(chunk)
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
        try writer.flush()
    }

    /// Takes nothing more (the owner is done, or gave up).
    mutating func close() { isOpen = false }
}
