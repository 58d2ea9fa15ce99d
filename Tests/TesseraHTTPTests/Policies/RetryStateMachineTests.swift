import Foundation
import Testing
import TesseraHTTP
import TesseraTestSupport

@Suite("RetryStateMachine")
struct RetryStateMachineTests {
    let url = URL(string: "https://example.test/a")!
    var budget = RetryBudget()
    var random = SeededGenerator(seed: 1)

    func machine(_ method: HTTPMethod = .get, headers: HTTPHeaders = [:], policy: RetryPolicy = RetryPolicy()) -> RetryStateMachine {
        var request = HTTPRequest(url: url)
        request.method = method
        request.headers = headers
        return RetryStateMachine(policy: policy, request: request)
    }

    @Test("a retryable status is retried with exponential backoff, jittered downwards and capped, up to the attempt limit")
    mutating func backoff() {
        var policy = RetryPolicy()
        policy.maximumAttempts = 5
        policy.jitter = 0
        policy.maximumBackoff = .milliseconds(500)
        var m = machine(policy: policy)
        let delays = (0..<4).map { _ in m.decide(after: .response(status: 503, headers: [:]), now: 0, budget: &budget, using: &random) }
        #expect(delays == [.retry(after: .milliseconds(200)), .retry(after: .milliseconds(400)),
                           .retry(after: .milliseconds(500)), .retry(after: .milliseconds(500))])
        #expect(m.decide(after: .response(status: 503, headers: [:]), now: 0, budget: &budget, using: &random)
                == .stop(reason: "5 attempts made"))
    }

    @Test("a body failure after an accepted status replaces that attempt's outcome instead of counting twice")
    mutating func bodyFailure() {
        var policy = RetryPolicy()
        policy.jitter = 0
        var m = machine(policy: policy)
        let lost = HTTPError(.connectionLost, code: HTTPError.Code("partial-body"), "cut")
        #expect(m.decide(after: .response(status: 200, headers: [:]), now: 0, budget: &budget, using: &random) == .stop(reason: "status 200 is final"))
        #expect(m.decide(afterBodyFailure: lost, now: 0, budget: &budget, using: &random) == .retry(after: .milliseconds(200)))
        #expect(m.attempts == 1)
        #expect(m.decide(after: .response(status: 200, headers: [:]), now: 0, budget: &budget, using: &random) == .stop(reason: "status 200 is final"))
        #expect(m.decide(afterBodyFailure: lost, now: 0, budget: &budget, using: &random) == .retry(after: .milliseconds(400)))
        _ = m.decide(after: .response(status: 200, headers: [:]), now: 0, budget: &budget, using: &random)
        #expect(m.decide(afterBodyFailure: lost, now: 0, budget: &budget, using: &random) == .stop(reason: "3 attempts made"))
    }

    @Test("jitter keeps every wait within [base × (1 − jitter), base]")
    mutating func jitter() {
        for seed in 1...50 {
            var random = SeededGenerator(seed: UInt64(seed))
            var budget = RetryBudget()
            var m = machine()
            guard case .retry(let after) = m.decide(after: .failure(HTTPError(.timeout, code: HTTPError.Code("t"), "t")), now: 0,
                                                    budget: &budget, using: &random) else { Issue.record("no retry"); return }
            #expect(after <= .milliseconds(200) && after >= .milliseconds(100))
        }
    }

    @Test("Retry-After is honoured in seconds and as a date, clamped to the maximum")
    mutating func retryAfter() {
        var m = machine()
        #expect(m.decide(after: .response(status: 429, headers: ["Retry-After": "7"]), now: 0, budget: &budget, using: &random)
                == .retry(after: .seconds(7)))
        var n = machine()
        #expect(n.decide(after: .response(status: 503, headers: ["Retry-After": "Sun, 06 Nov 1994 08:50:37 GMT"]),
                         now: 784_111_777, budget: &budget, using: &random) == .retry(after: .seconds(60)))
        var o = machine()
        #expect(o.decide(after: .response(status: 503, headers: ["Retry-After": "3600"]), now: 0, budget: &budget, using: &random)
                == .retry(after: .seconds(60)))
    }

    @Test("unsafe methods are retried only with an Idempotency-Key (RFC 9110 §9.2.2)")
    mutating func idempotency() {
        var post = machine(.post)
        #expect(post.decide(after: .response(status: 503, headers: [:]), now: 0, budget: &budget, using: &random)
                == .stop(reason: "the request is not idempotent (no Idempotency-Key)"))
        var keyed = machine(.post, headers: ["Idempotency-Key": "abc"])
        guard case .retry = keyed.decide(after: .response(status: 503, headers: [:]), now: 0, budget: &budget, using: &random) else {
            Issue.record("keyed POST not retried"); return
        }
        var head = machine(.head)
        guard case .retry = head.decide(after: .failure(HTTPError(.connectionLost, code: HTTPError.Code("c"), "c")), now: 0, budget: &budget,
                                        using: &random) else { Issue.record("HEAD not retried"); return }
    }

    @Test("final statuses and non-retryable failures stop at once")
    mutating func final() {
        var m = machine()
        #expect(m.decide(after: .response(status: 404, headers: [:]), now: 0, budget: &budget, using: &random)
                == .stop(reason: "status 404 is final"))
        var t = machine()
        #expect(t.decide(after: .failure(HTTPError(.tls, code: HTTPError.Code("tls"), "tls")), now: 0, budget: &budget, using: &random)
                == .stop(reason: "tls failures are not retried"))
    }

    @Test("an empty retry budget stops retries; successes earn tokens back")
    mutating func budgetSpent() {
        var small = RetryBudget(capacity: 1, refundPerSuccess: 0.5)
        var a = machine()
        guard case .retry = a.decide(after: .response(status: 503, headers: [:]), now: 0, budget: &small, using: &random) else {
            Issue.record("first retry refused"); return
        }
        var b = machine()
        #expect(b.decide(after: .response(status: 503, headers: [:]), now: 0, budget: &small, using: &random)
                == .stop(reason: "the client's retry budget is spent"))
        for _ in 0..<2 { var ok = machine(); _ = ok.decide(after: .response(status: 200, headers: [:]), now: 0, budget: &small, using: &random) }
        #expect(small.tokens == 1)
    }
}
