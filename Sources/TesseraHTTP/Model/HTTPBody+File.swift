import TesseraSupport

extension HTTPBody {
    /// The largest piece `append(to:progress:)` writes at once.
    static let largestFilePiece = 1 << 20
    /// The most bytes an `inline` append lets the transfer write between two wake-ups of the
    /// reader (its progress): a fast body wakes it ~125 times a second at 1 GB/s.
    static let largestInlineStep = 8 << 20

    /// Reads the whole body and appends it to `file`, in whole pages at page boundaries
    /// (`PageAlignedAppender`; the last partial page when the body ends). `beside` (the
    /// default): the transfer copies the body into one reused buffer a piece at a time
    /// (`forEachPiece`, up to 1 MiB: one wake-up of this task a piece, not a network chunk) and
    /// this task writes each piece while the transfer goes on receiving the next — a slow disk
    /// stalls no other transfer. `inline`: the transfer writes each chunk from its own buffer as
    /// it arrives (`BodyFileWriting`). `progress` hears the bytes written so far after each
    /// piece (`inline`: as often as a piece would be handed on). Iterate a body once: not to be
    /// mixed with `for try await` or `deliver(into:)` on it.
    /// - Returns: the bytes appended.
    /// - Throws: `HTTPError` for a failure mid-body or cancellation; `file` errors
    ///   (`destination-unwritable`) when a write fails (the transfer is abandoned when the body
    ///   goes). What was appended before a failure stays in the file: its owner discards it.
    @discardableResult
    public func append(to file: DurableFile, writing: BodyFileWriting = .beside,
                       progress: (Int64) -> Void = { _ in }) async throws(HTTPError) -> Int64 {
        try await append(to: file.appender, writing: writing, progress: progress)
    }

    /// `append(to:writing:progress:)` through an appender (a file its owner keeps behind a
    /// lock); the file is not written once this returned, however it ends.
    /// - Throws: as `append(to:writing:progress:)`.
    @discardableResult
    package func append(to file: DurableFileAppender, writing: BodyFileWriting = .beside,
                        progress: (Int64) -> Void = { _ in }) async throws(HTTPError) -> Int64 {
        switch writing {
        case .beside: try await appendBeside(to: file, progress: progress)
        case .inline: try await appendInline(to: file, progress: progress)
        }
    }

    private func appendBeside(to file: DurableFileAppender, progress: (Int64) -> Void) async throws(HTTPError) -> Int64 {
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

    /// Writes the whole body to `output` — a pipe, a terminal or a file its caller keeps open
    /// (standard output) — each chunk whole as it arrives, written by the transfer (`inline`),
    /// so no byte waits for the next. The same guarantees as `append(to:writing:progress:)`:
    /// a write that fails (a reader gone: a broken pipe) ends the read with a `file` error and
    /// abandons the transfer; nothing is written once this returned.
    /// - Returns: the bytes written.
    /// - Throws: as `append(to:writing:progress:)`.
    @discardableResult
    package func write(to output: DurableFileAppender, progress: (Int64) -> Void = { _ in }) async throws(HTTPError) -> Int64 {
        try await appendInline(to: output, pageAligned: false, progress: progress)
    }

    /// The transfer writes (a destination `writingTo` the file); this task wakes once a piece's
    /// worth to hear the count, or at once when a write fails.
    private func appendInline(to file: DurableFileAppender, pageAligned: Bool = true,
                              progress: (Int64) -> Void) async throws(HTTPError) -> Int64 {
        let destination = HTTPBodyDestination(writingTo: file, pageAligned: pageAligned)
        // However this ends: no write to the file is in progress or starts after it.
        defer { destination.closeFile() }
        var step = Swift.min(Self.largestFilePiece, 64 << 10)
        var reported = 0
        while true {
            destination.pauseAt = destination.count + step
            let started = ContinuousClock.now
            // `full` does not come while the file is open: every chunk is taken.
            let delivery = try await deliver(into: destination)
            if let failure = destination.fileFailure { throw HTTPError(file: failure) }
            let written = destination.count
            if written > reported {
                reported = written
                progress(Int64(written))
            }
            if delivery == .ended { break }
            step = Self.nextStep(after: step, filledIn: started.duration(to: .now), largest: Self.largestInlineStep)
        }
        try HTTPError.file { () throws(SupportError) in try destination.finishFile() }
        return Int64(destination.count)
    }
}
