import Testing
@testable import TesseraHTTP

@Suite("CachePolicy")
struct CachePolicyTests {
    let policy = CachePolicy()
    let t0: Int64 = 784_111_777
    let date0 = "Sun, 06 Nov 1994 08:49:37 GMT"

    @Test("storable: GET with explicit freshness, a validator on a cacheable status, or public")
    func storable() {
        #expect(policy.mayStore(method: "GET", request: [:], status: 200, response: ["Cache-Control": "max-age=5"]))
        #expect(policy.mayStore(method: "GET", request: [:], status: 200, response: ["ETag": "\"x\""]))
        #expect(policy.mayStore(method: "GET", request: [:], status: 404, response: ["Expires": date0]))
        #expect(policy.mayStore(method: "GET", request: [:], status: 302, response: ["Cache-Control": "public"]))
        #expect(!policy.mayStore(method: "GET", request: [:], status: 200, response: [:]))
        #expect(!policy.mayStore(method: "GET", request: [:], status: 500, response: ["ETag": "\"x\""]))
    }

    @Test("not storable: no-store on either side, other methods, partial content, Vary: *, too large")
    func notStorable() {
        let fresh: HTTPHeaders = ["Cache-Control": "max-age=60"]
        #expect(!policy.mayStore(method: "POST", request: [:], status: 200, response: fresh))
        #expect(!policy.mayStore(method: "GET", request: ["Cache-Control": "no-store"], status: 200, response: fresh))
        #expect(!policy.mayStore(method: "GET", request: [:], status: 200, response: ["Cache-Control": "max-age=60, no-store"]))
        #expect(!policy.mayStore(method: "GET", request: [:], status: 206, response: fresh))
        #expect(!policy.mayStore(method: "GET", request: [:], status: 200, response: ["Cache-Control": "max-age=60", "Vary": "*"]))
        #expect(!policy.mayStore(method: "GET", request: [:], status: 200, response: ["Cache-Control": "max-age=60", "Content-Length": "\(Int64(1) << 40)"]))
        #expect(!policy.mayStore(method: "GET", request: ["Authorization": "Bearer t"], status: 200, response: fresh))
        #expect(policy.mayStore(method: "GET", request: ["Authorization": "Bearer t"], status: 200, response: ["Cache-Control": "max-age=60, private"]))
    }

    private func reuse(_ stored: HTTPHeaders, _ request: HTTPHeaders = [:], after seconds: Int64) -> CachePolicy.Reuse {
        var headers = stored
        headers.set("Date", date0)
        let freshness = policy.freshness(status: 200, response: headers, requestTime: t0, responseTime: t0)
        return policy.reuse(stored: headers, freshness: freshness, request: request, now: t0 + seconds)
    }

    @Test("fresh responses are served; stale ones revalidate with their validator, or are bypassed without one")
    func freshAndStale() {
        #expect(reuse(["Cache-Control": "max-age=60"], after: 10) == .fresh)
        #expect(reuse(["Cache-Control": "max-age=60", "ETag": "\"e\""], after: 60) == .revalidate(["If-None-Match": "\"e\""]))
        #expect(reuse(["Cache-Control": "max-age=60"], after: 60) == .bypass)
    }

    @Test("no-cache on the response or the request (or Pragma alone) forces revalidation")
    func noCache() {
        let etag: HTTPHeaders = ["Cache-Control": "max-age=60", "ETag": "\"e\""]
        let revalidate = CachePolicy.Reuse.revalidate(["If-None-Match": "\"e\""])
        #expect(reuse(["Cache-Control": "no-cache", "ETag": "\"e\""], after: 0) == revalidate)
        #expect(reuse(etag, ["Cache-Control": "no-cache"], after: 0) == revalidate)
        #expect(reuse(etag, ["Pragma": "no-cache"], after: 0) == revalidate)
        #expect(reuse(etag, ["Pragma": "no-cache", "Cache-Control": "max-age=100"], after: 0) == .fresh)
        #expect(reuse(etag, ["Cache-Control": "no-store"], after: 0) == .bypass)
    }

    @Test("request max-age, min-fresh and max-stale narrow or widen reuse; must-revalidate wins over max-stale")
    func requestDirectives() {
        let stored: HTTPHeaders = ["Cache-Control": "max-age=60", "ETag": "\"e\""]
        let revalidate = CachePolicy.Reuse.revalidate(["If-None-Match": "\"e\""])
        #expect(reuse(stored, ["Cache-Control": "max-age=5"], after: 10) == revalidate)
        #expect(reuse(stored, ["Cache-Control": "min-fresh=55"], after: 10) == revalidate)
        #expect(reuse(stored, ["Cache-Control": "min-fresh=40"], after: 10) == .fresh)
        #expect(reuse(stored, ["Cache-Control": "max-stale=30"], after: 80) == .fresh)
        #expect(reuse(stored, ["Cache-Control": "max-stale=10"], after: 80) == revalidate)
        #expect(reuse(stored, ["Cache-Control": "max-stale"], after: 10_000) == .fresh)
        #expect(reuse(["Cache-Control": "max-age=60, must-revalidate", "ETag": "\"e\""], ["Cache-Control": "max-stale"], after: 80) == revalidate)
    }
}
