import Foundation
import Testing
import TesseraHTTP

@Suite("RedirectStateMachine")
struct RedirectStateMachineTests {
    func request(_ url: String, _ method: HTTPMethod = .get, headers: HTTPHeaders = [:]) -> HTTPRequest {
        var request = HTTPRequest(url: URL(string: url)!)
        request.method = method
        request.headers = headers
        return request
    }

    func next(_ decision: RedirectStateMachine.Decision) -> HTTPRequest? {
        if case .follow(let request) = decision { return request }
        return nil
    }

    func refusal(_ decision: RedirectStateMachine.Decision) -> String? {
        if case .refuse(let error) = decision { return error.code.rawValue }
        return nil
    }

    @Test("a relative Location resolves against the current URL; same-origin hops keep credentials")
    func relative() throws {
        var m = RedirectStateMachine(policy: RedirectPolicy(),
                                     request: request("https://a.test/v/index.m3u8", headers: ["Authorization": "Bearer x"]))
        let hop = try #require(next(m.decide(status: 302, headers: ["Location": "../w/index.m3u8"])))
        #expect(hop.url.absoluteString == "https://a.test/w/index.m3u8")
        #expect(hop.headers["authorization"] == "Bearer x")
    }

    @Test("cross-origin hops strip Authorization, Cookie, Proxy-Authorization, API-key-like and registered headers")
    func crossOriginStripping() throws {
        var policy = RedirectPolicy()
        policy.extraSensitiveHeaders = ["X-Signed"]
        let headers: HTTPHeaders = ["Authorization": "a", "Cookie": "c", "Proxy-Authorization": "p", "X-Api-Key": "k",
                                    "x-signed": "s", "Accept": "*/*"]
        var m = RedirectStateMachine(policy: policy, request: request("https://a.test/x", headers: headers))
        let hop = try #require(next(m.decide(status: 307, headers: ["Location": "https://cdn.test/x"])))
        #expect(hop.headers.map(\.name) == ["Accept"])
    }

    @Test("HTTPS to HTTP is refused unless allowed")
    func downgrade() {
        var m = RedirectStateMachine(policy: RedirectPolicy(), request: request("https://a.test/x"))
        #expect(refusal(m.decide(status: 301, headers: ["Location": "http://a.test/x"])) == "insecure-redirect")
        var policy = RedirectPolicy()
        policy.allowsHTTPSDowngrade = true
        var lenient = RedirectStateMachine(policy: policy, request: request("https://a.test/x"))
        #expect(next(lenient.decide(status: 301, headers: ["Location": "http://a.test/x"])) != nil)
    }

    @Test("unsafe methods are not redirected across origins; 303 and POST on 301/302 become GET without body")
    func methods() throws {
        var post = RedirectStateMachine(policy: RedirectPolicy(), request: request("https://a.test/x", .post))
        #expect(refusal(post.decide(status: 307, headers: ["Location": "https://b.test/x"])) == "unsafe-cross-origin-redirect")
        var seeOther = RedirectStateMachine(policy: RedirectPolicy(),
                                            request: request("https://a.test/x", .put, headers: ["Content-Type": "application/json"]))
        let hop = try #require(next(seeOther.decide(status: 303, headers: ["Location": "https://b.test/done"])))
        #expect(hop.method == .get && hop.body == nil && hop.headers["Content-Type"] == nil)
        var moved = RedirectStateMachine(policy: RedirectPolicy(), request: request("https://a.test/x", .post))
        #expect(try #require(next(moved.decide(status: 302, headers: ["Location": "/y"]))).method == .get)
        var keep = RedirectStateMachine(policy: RedirectPolicy(), request: request("https://a.test/x", .put))
        #expect(try #require(next(keep.decide(status: 308, headers: ["Location": "/y"]))).method == .put)
    }

    @Test("hops are limited and loops detected")
    func limits() {
        var loop = RedirectStateMachine(policy: RedirectPolicy(), request: request("https://a.test/1"))
        _ = loop.decide(status: 302, headers: ["Location": "/2"])
        #expect(refusal(loop.decide(status: 302, headers: ["Location": "/1"])) == "redirect-loop")
        var policy = RedirectPolicy()
        policy.maximumHops = 2
        var chain = RedirectStateMachine(policy: policy, request: request("https://a.test/0"))
        #expect(next(chain.decide(status: 302, headers: ["Location": "/1"])) != nil)
        #expect(next(chain.decide(status: 302, headers: ["Location": "/2"])) != nil)
        #expect(refusal(chain.decide(status: 302, headers: ["Location": "/3"])) == "too-many-redirects")
    }

    @Test("non-redirects, missing Location and RedirectPolicy.none deliver the response; other schemes are refused")
    func delivery() {
        var m = RedirectStateMachine(policy: RedirectPolicy(), request: request("https://a.test/x"))
        if case .deliver = m.decide(status: 200, headers: [:]) {} else { Issue.record("200 not delivered") }
        if case .deliver = m.decide(status: 302, headers: [:]) {} else { Issue.record("no Location not delivered") }
        #expect(refusal(m.decide(status: 302, headers: ["Location": "ftp://a.test/x"])) == "bad-redirect")
        var none = RedirectStateMachine(policy: .none, request: request("https://a.test/x"))
        if case .deliver = none.decide(status: 302, headers: ["Location": "/y"]) {} else { Issue.record("none followed") }
    }

    @Test("refusal messages redact query strings")
    func redaction() throws {
        var m = RedirectStateMachine(policy: RedirectPolicy(), request: request("https://a.test/x?token=SECRET"))
        guard case .refuse(let error) = m.decide(status: 302, headers: ["Location": "http://b.test/y?sig=SECRET2"]) else {
            Issue.record("not refused"); return
        }
        #expect(!error.message.contains("SECRET"))
    }
}
