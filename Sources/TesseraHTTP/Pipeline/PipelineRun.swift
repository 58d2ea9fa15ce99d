/// The state of one request as it moves through an `HTTPPipeline`: the hop being sent and the
/// redirect and retry state machines, shared by every attempt of the request.
struct PipelineRun<Instant: InstantProtocol>: Sendable {
    let id: UInt64
    let start: Instant
    var current: HTTPRequest
    /// How `cancelAll()` and `cancel(tag:)` reach this request.
    let cancellation: RequestCancellation
    var redirects: RedirectStateMachine
    var retries: RetryStateMachine
    var random = SystemRandomNumberGenerator()
    /// The bearer token the current hop carries, if any.
    var token: String?
    /// Whether the one replay after a 401 is still available.
    var mayReplayAfter401: Bool
    /// Whether the one replay a replaying interceptor may ask for is still available.
    var mayReplayForInterceptor = true
    /// The current hop's URL in event form (computed once per hop, only when events are on).
    var eventURL = ""

    init(id: UInt64, start: Instant, request: HTTPRequest, configuration: HTTPPipelineConfiguration,
         cancellation: RequestCancellation) {
        self.id = id
        self.start = start
        current = request
        self.cancellation = cancellation
        redirects = RedirectStateMachine(policy: configuration.redirect, request: request)
        retries = RetryStateMachine(policy: request.retry ?? configuration.retry, request: request)
        mayReplayAfter401 = request.authentication.refreshesOn401
    }
}
