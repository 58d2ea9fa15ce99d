#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TesseraSupport

/// Retries: the state machine's decision, its event, and the wait before the next attempt —
/// its backoff, or, under a `ReachabilityPolicy` after a network failure on a down path, the path.
extension HTTPPipeline {
    /// Asks the retry state machine about an attempt's outcome; when it says retry, emits the
    /// event and sleeps. Returns whether to send again.
    func retry(_ run: inout PipelineRun<C.Instant>, after outcome: RetryStateMachine.Outcome) async throws(HTTPError) -> Bool {
        let now = wallClock()
        let decision = state.withLock { state in
            run.retries.decide(after: outcome, now: now, budget: &state.budget, using: &run.random)
        }
        var network = false
        if case .failure(let error) = outcome { network = ReachabilityPolicy.networkCategories.contains(error.category) }
        return try await act(on: decision, &run, reason: RetryStateMachine.reason(outcome), afterNetworkFailure: network)
    }

    /// The same, for a body that failed after its attempt's status was accepted.
    func retry(_ run: inout PipelineRun<C.Instant>, afterBodyFailure error: HTTPError) async throws(HTTPError) -> Bool {
        let now = wallClock()
        let decision = state.withLock { state in
            run.retries.decide(afterBodyFailure: error, now: now, budget: &state.budget, using: &run.random)
        }
        return try await act(on: decision, &run, reason: error.code.rawValue,
                             afterNetworkFailure: ReachabilityPolicy.networkCategories.contains(error.category))
    }

    private func act(on decision: RetryStateMachine.Decision, _ run: inout PipelineRun<C.Instant>,
                     reason: String, afterNetworkFailure: Bool = false) async throws(HTTPError) -> Bool {
        guard case .retry(let delay) = decision else { return false }
        emit(run, .retry(attempt: run.retries.attempts, delay: delay, reason: reason))
        let cancelled = HTTPError(.cancelled, code: .cancelled,
                                  "The request to \(URLRedaction.redact(run.current.url)) was cancelled while waiting to retry.")
        let policy = afterNetworkFailure ? configuration.reachability : nil
        let clock = self.clock
        do throws(HTTPError) {
            try await run.cancellation.guarding { () async throws(HTTPError) in
                if let policy, policy.reachability.path?.isSatisfied == false {
                    await Self.waitForPath(policy, on: clock)
                    if Task.isCancelled { throw cancelled }
                } else {
                    do { try await clock.sleep(for: delay) } catch { throw cancelled }
                }
            }
        } catch {
            throw fail(run, cancelled)
        }
        guard !run.cancellation.isCancelled else { throw fail(run, cancelled) }
        return true
    }

    /// Waits until the path is satisfied or `maximumWait` has passed on the pipeline's clock.
    private static func waitForPath(_ policy: ReachabilityPolicy, on clock: C) async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await policy.reachability.waitForSatisfiedPath() }
            // The sleep ends early when the path came first (the group cancels it): no error there.
            group.addTask { try? await clock.sleep(for: policy.maximumWait) }
            await group.next()
            group.cancelAll()
        }
    }
}
