import TesseraSupport

extension HTTPBody {
    /// The largest piece `append(to:progress:)` writes at once.
    static let largestFilePiece = 1 << 20

    /// Reads the whole body and appends it to `file`: the transfer copies the body into one
    /// reused buffer a piece at a time (`forEachPiece`, up to 1 MiB: one wake-up of this task a
    /// piece, not a network chunk) and this task writes each piece while the transfer goes on
    /// receiving the next — the network on the engine's thread, the disk on this one, so a slow
    /// disk stalls no other transfer — in whole pages at page boundaries (`PageAlignedAppender`;
    /// the last partial page when the body ends). `progress` hears the bytes written so far
    /// after each piece. Iterate a body once: not to be mixed with `for try await` or
    /// `deliver(into:)` on it.
    /// - Returns: the bytes appended.
    /// - Throws: `HTTPError` for a failure mid-body or cancellation; `file` errors
    ///   (`destination-unwritable`) when a write fails (the transfer is abandoned when the body
    ///   goes). What was appended before a failure stays in the file: its owner discards it.
    @discardableResult
    public func append(to file: DurableFile, progress: (Int64) -> Void = { _ in }) async throws(HTTPError) -> Int64 {
        try await append(to: file.appender, progress: progress)
    }

    /// `append(to:progress:)` through an appender (a file its owner keeps behind a lock).
    /// - Throws: as `append(to:progress:)`.
    @discardableResult
    package func append(to file: DurableFileAppender, progress: (Int64) -> Void = { _ in }) async throws(HTTPError) -> Int64 {
        var writer = PageAlignedAppender(file, size: file.size)
        var written: Int64 = 0
        try await forEachPiece(upTo: Self.largestFilePiece) { piece throws(HTTPError) in
            try HTTPError.file { () throws(SupportError) in try writer.append(piece) }
            written += Int64(piece.count)
            progress(written)
        }
        try HTTPError.file { () throws(SupportError) in try writer.flush() }
        return written
    }
}
