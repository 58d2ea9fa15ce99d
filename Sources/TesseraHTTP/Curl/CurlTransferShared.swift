/// The part of a transfer shared between the loop thread and consumer tasks, always behind the
/// transfer's lock. Continuations are taken out under the lock and resumed after it is released.
struct CurlTransferShared {
    typealias HeadContinuation = CheckedContinuation<Result<HTTPResponseHead, HTTPError>, Never>
    typealias ChunkContinuation = CheckedContinuation<Result<[UInt8]?, HTTPError>, Never>

    var headContinuation: HeadContinuation?
    var headResult: Result<HTTPResponseHead, HTTPError>?
    var chunks: [[UInt8]] = []
    var bufferedBytes = 0
    var isPaused = false
    var isUnpauseQueued = false
    var waiter: ChunkContinuation?
    /// Set once the transfer has ended: success or the failure.
    var end: Result<Void, HTTPError>?
    /// Set when cancellation was requested; the loop ends the transfer with it.
    var cancellation: HTTPError?
    var isConsumerGone = false
}
