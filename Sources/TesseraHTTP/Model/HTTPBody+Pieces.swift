extension HTTPBody {
    /// The smallest piece `forEachPiece` hands on (a slow body's).
    static let smallestPiece = 16 << 10

    /// Reads the whole body and hands it on in pieces of at most `maximum` bytes, in order. The
    /// transfer copies each piece straight into one reused buffer, so the reader wakes once a
    /// piece instead of once a network chunk — what a body written to a file wants. A piece
    /// grows towards `maximum` while pieces fill in under a quarter of a second and shrinks
    /// towards 16 KiB while they take over half a second, so a slow body is handed on in small
    /// pieces (every half second down to 32 KiB/s). A chunk larger than the piece is handed on
    /// whole. Iterate a body once: not
    /// to be mixed with `for try await` or `deliver(into:)` on it. `handle` runs on the caller's
    /// actor (this module's async functions are nonisolated-nonsending), so an actor may pass a
    /// closure that reads and sets its state.
    /// - Returns: the bytes handed on.
    /// - Throws: `HTTPError` for a failure mid-body or cancellation — after every byte that
    ///   arrived before it was handed on —, and what `handle` throws (the transfer is then
    ///   abandoned when the body goes).
    @discardableResult
    public func forEachPiece(upTo maximum: Int,
                             _ handle: ([UInt8]) throws(HTTPError) -> Void) async throws(HTTPError) -> Int64 {
        let largest = Swift.max(maximum, Self.smallestPiece)
        var step = Swift.min(largest, 64 << 10)
        var buffer: [UInt8] = []
        buffer.reserveCapacity(step)
        var total: Int64 = 0
        while true {
            let destination = HTTPBodyDestination(bytes: buffer, capacity: step)
            buffer = []
            let started = ContinuousClock.now
            let delivery: HTTPBodyDelivery
            do throws(HTTPError) {
                delivery = try await deliver(into: destination)
            } catch {
                // What arrived before the failure is handed on first (a resumable download keeps it).
                let arrived = destination.takeBytes()
                if !arrived.isEmpty { try handle(arrived) }
                throw error
            }
            buffer = destination.takeBytes()
            if !buffer.isEmpty {
                try handle(buffer)
                total += Int64(buffer.count)
            }
            if let leftover = destination.leftover {
                try handle(leftover)
                total += Int64(leftover.count)
            } else if delivery == .full, buffer.isEmpty {
                // The next chunk is larger than any piece: it goes on whole.
                guard let chunk = try await nextChunk() else { return total }
                try handle(chunk)
                total += Int64(chunk.count)
            }
            if delivery == .ended { return total }
            buffer.removeAll(keepingCapacity: true)
            step = Self.nextStep(after: step, filledIn: started.duration(to: .now), largest: largest)
        }
    }

    /// Doubles a piece that filled fast, halves one that filled slowly.
    static func nextStep(after step: Int, filledIn elapsed: Duration, largest: Int) -> Int {
        if elapsed < .milliseconds(250) { return Swift.min(largest, step * 2) }
        if elapsed > .milliseconds(500) { return Swift.max(smallestPiece, step / 2) }
        return step
    }
}
