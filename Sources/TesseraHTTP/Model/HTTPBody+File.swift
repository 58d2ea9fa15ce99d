import TesseraSupport

extension HTTPBody {
    /// The fewest bytes between two progress reports of `append(to:progress:)` (a slow body's).
    static let smallestProgressStep = 16 << 10
    /// The most bytes between two progress reports (a fast body's).
    static let largestProgressStep = 8 << 20

    /// Reads the whole body and appends it to `file` as it arrives: the transfer writes each
    /// chunk on the thread that receives it (no copy into memory, no wake-up of this task a
    /// chunk), in whole pages at page boundaries (the last one when the body ends).
    /// `progress` hears the bytes taken so far, rising, every so often — the step grows
    /// towards 8 MiB while steps fill in under a quarter of a second and shrinks towards 16 KiB
    /// while they take longer, so a slow body is still reported every fraction of a second.
    /// Iterate a body once: not to be mixed with `for try await` or `deliver(into:)` on it.
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
        let destination = HTTPBodyDestination(appendingTo: file)
        var reported: Int64 = 0
        var step = 64 << 10
        while true {
            destination.pauseAt = destination.count + step
            let started = ContinuousClock.now
            let delivery = try await deliver(into: destination)
            if let failure = destination.failure { throw failure }
            if delivery == .full {
                // Only a chunk a file could not take stops a delivery, and that failure threw
                // above; should another source stop, its next chunk goes the same way.
                var chunk = destination.leftover
                if chunk == nil { chunk = try await nextChunk() }
                if let chunk, !destination.append(chunk) {
                    throw destination.failure ?? HTTPError(.file, code: .destinationUnwritable, "Writing \(file.path) stopped.")
                }
            }
            if delivery == .ended { try destination.finishFile() }
            let total = Int64(destination.count)
            if total > reported {
                reported = total
                progress(total)
            }
            if delivery == .ended { return total }
            step = Self.nextProgressStep(after: step, filledIn: started.duration(to: .now))
        }
    }

    /// Doubles a step that filled fast, halves one that filled slowly.
    static func nextProgressStep(after step: Int, filledIn elapsed: Duration) -> Int {
        if elapsed < .milliseconds(250) { return Swift.min(largestProgressStep, step * 2) }
        if elapsed > .milliseconds(500) { return Swift.max(smallestProgressStep, step / 2) }
        return step
    }
}
