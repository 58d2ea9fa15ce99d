import TesseraSupport
/// The consumer side of a transfer's bounded body buffer.
final class CurlBodySource: HTTPBodySource {
    private let transfer: CurlTransfer

    init(transfer: CurlTransfer) { self.transfer = transfer }

    func nextChunk() async throws(HTTPError) -> [UInt8]? {
        let limits = transfer.request.limits
        return try await wait { (state, continuation: CurlTransferShared.ChunkContinuation) in
            var unpause = false
            if state.isPaused, !state.isUnpauseQueued,
               state.bufferedBytes - (state.chunks.first?.count ?? 0) <= limits.bufferLowWatermark {
                state.isUnpauseQueued = true
                unpause = true
            }
            if !state.chunks.isEmpty {
                let chunk = state.chunks.removeFirst()
                state.bufferedBytes -= chunk.count
                return (.success(chunk), unpause)
            }
            if let end = state.end { return (end.map { nil }, unpause) }
            state.waiter = continuation
            return (nil, unpause)
        }
    }

    func deliver(into destination: HTTPBodyDestination) async throws(HTTPError) -> HTTPBodyDelivery {
        let limits = transfer.request.limits
        return try await wait { (state, continuation: CurlTransferShared.DeliveryContinuation) in
            // What arrived before the reader came is copied first, while it fits.
            while let first = state.chunks.first, !destination.reachedPause, destination.append(first) {
                state.chunks.removeFirst()
                state.bufferedBytes -= first.count
            }
            var unpause = false
            if state.isPaused, !state.isUnpauseQueued, state.bufferedBytes <= limits.bufferLowWatermark {
                state.isUnpauseQueued = true
                unpause = true
            }
            if destination.reachedPause {
                // One writing a file goes on taking the body while its owner is away.
                if destination.writesFile, state.chunks.isEmpty, state.end == nil { state.destination = destination }
                return (.success(.paused), unpause)
            }
            if !state.chunks.isEmpty { return (.success(.full), unpause) }
            if let end = state.end { return (end.map { .ended }, unpause) }
            state.destination = destination
            state.deliveryWaiter = continuation
            return (nil, unpause)
        }
    }

    /// One read: `step`, under the lock, gives what is ready (or parks the continuation it is
    /// given) and whether to unpause the transfer; cancelling the reader cancels the transfer.
    private func wait<Value: Sendable>(
        _ step: (inout CurlTransferShared, CheckedContinuation<Result<Value, HTTPError>, Never>) -> (Result<Value, HTTPError>?, Bool)
    ) async throws(HTTPError) -> Value {
        let transfer = self.transfer
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Result<Value, HTTPError>, Never>) in
                let (ready, unpause) = transfer.shared.withLock { state in step(&state, continuation) }
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
        let (waiter, deliveryWaiter) = transfer.shared.withLock { state -> (CurlTransferShared.ChunkContinuation?, CurlTransferShared.DeliveryContinuation?) in
            guard state.end == nil, state.cancellation == nil else { return (nil, nil) }
            state.cancellation = reason
            state.end = .failure(reason)
            state.chunks.removeAll()
            state.bufferedBytes = 0
            state.destination = nil
            defer {
                state.waiter = nil
                state.deliveryWaiter = nil
            }
            return (state.waiter, state.deliveryWaiter)
        }
        waiter?.resume(returning: .failure(reason))
        deliveryWaiter?.resume(returning: .failure(reason))
        transfer.engine.submit(.cancel(transfer))
    }
}
