/// The part of a transfer shared between the loop thread and consumer tasks, always behind the
/// transfer's lock. Continuations are taken out under the lock and resumed after it is released.
struct CurlTransferShared {
    typealias HeadContinuation = CheckedContinuation<Result<HTTPResponseHead, HTTPError>, Never>
    typealias ChunkContinuation = CheckedContinuation<Result<[UInt8]?, HTTPError>, Never>
    typealias DeliveryContinuation = CheckedContinuation<Result<HTTPBodyDelivery, HTTPError>, Never>

    var headContinuation: HeadContinuation?
    var headResult: Result<HTTPResponseHead, HTTPError>?
    var chunks: [[UInt8]] = []
    var bufferedBytes = 0
    var isPaused = false
    var isUnpauseQueued = false
    var waiter: ChunkContinuation?
    /// Where the body's bytes go directly while a reader waits in `deliver(into:)`, and that reader.
    var destination: HTTPBodyDestination?
    var deliveryWaiter: DeliveryContinuation?
    /// Set once the transfer has ended: success or the failure.
    var end: Result<Void, HTTPError>?
    /// Set when cancellation was requested; the loop ends the transfer with it.
    var cancellation: HTTPError?
    var isConsumerGone = false
}
