import TesseraSupport
/// The consumer side of a transfer's bounded body buffer.
final class CurlBodySource: HTTPBodySource {
    private let transfer: CurlTransfer

    init(transfer: CurlTransfer) { self.transfer = transfer }

    func nextChunk() async throws(HTTPError) -> [UInt8]? {
        let transfer = self.transfer
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CurlTransferShared.ChunkContinuation) in
                let (ready, unpause) = transfer.shared.withLock { state -> (Result<[UInt8]?, HTTPError>?, Bool) in
                    var unpause = false
                    if state.isPaused, !state.isUnpauseQueued,
                       state.bufferedBytes - (state.chunks.first?.count ?? 0) <= transfer.request.limits.bufferLowWatermark {
                        state.isUnpauseQueued = true
                        unpause = true
                    }
                    if !state.chunks.isEmpty {
                        let chunk = state.chunks.removeFirst()
                        state.bufferedBytes -= chunk.count
                        return (.success(chunk), unpause)
                    }
                    if let end = state.end {
                        switch end {
                        case .success: return (.success(nil), unpause)
                        case .failure(let error): return (.failure(error), unpause)
                        }
                    }
                    state.waiter = continuation
                    return (nil, unpause)
                }
                if unpause { transfer.engine.submit(.unpause(transfer)) }
                if let ready { continuation.resume(returning: ready) }
            }
        } onCancel: {
            Self.requestCancel(transfer, reason: HTTPError(
                .cancelled, code: .cancelled, "Reading the body of \(transfer.redactedURL) was cancelled."))
        }
        return try result.get()
    }

    func abandon() {
        let isOpen = transfer.shared.withLock { state -> Bool in
            state.isConsumerGone = true
            return state.end == nil
        }
        if isOpen {
            Self.requestCancel(transfer, reason: HTTPError(
                .cancelled, code: .consumerGone, "The body of \(transfer.redactedURL) was abandoned by its reader."))
        }
    }

    /// Flags the transfer, fails a parked reader, and wakes the loop to remove the handle.
    /// Never blocks: safe inside `onCancel`.
    static func requestCancel(_ transfer: CurlTransfer, reason: HTTPError) {
        let waiter = transfer.shared.withLock { state -> CurlTransferShared.ChunkContinuation? in
            guard state.end == nil, state.cancellation == nil else { return nil }
            state.cancellation = reason
            state.end = .failure(reason)
            state.chunks.removeAll()
            state.bufferedBytes = 0
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume(returning: .failure(reason))
        transfer.engine.submit(.cancel(transfer))
    }
}
