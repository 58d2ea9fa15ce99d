import Testing
@testable import TesseraHTTP

@Suite("CacheFreshness")
struct CacheFreshnessTests {
    let t0: Int64 = 784_111_777   // Sun, 06 Nov 1994 08:49:37 GMT
    let date0 = "Sun, 06 Nov 1994 08:49:37 GMT"

    @Test("max-age wins over Expires; fresh until the current age reaches it")
    func maxAge() {
        let headers: HTTPHeaders = ["Cache-Control": "max-age=60", "Date": date0, "Expires": "Sun, 06 Nov 1994 10:49:37 GMT"]
        let f = CacheFreshness(status: 200, headers: headers, requestTime: t0, responseTime: t0)
        #expect(f.lifetime == 60 && !f.isHeuristic)
        #expect(f.isFresh(now: t0 + 59))
        #expect(!f.isFresh(now: t0 + 60))
    }

    @Test("the age counts Age, transit delay and a Date in the past (RFC 9111 §4.2.3)")
    func age() {
        let headers: HTTPHeaders = ["Cache-Control": "max-age=100", "Date": date0, "Age": "30"]
        // Sent at t0+5, received at t0+10: corrected age = 30 + 5 = 35 > apparent age 10.
        let f = CacheFreshness(status: 200, headers: headers, requestTime: t0 + 5, responseTime: t0 + 10)
        #expect(f.initialAge == 35)
        #expect(f.currentAge(now: t0 + 20) == 45)
        #expect(f.isFresh(now: t0 + 74) && !f.isFresh(now: t0 + 75))
        // A Date far behind the receipt time dominates.
        let late = CacheFreshness(status: 200, headers: ["Date": date0, "Cache-Control": "max-age=100"], requestTime: t0 + 199, responseTime: t0 + 200)
        #expect(late.initialAge == 200 && !late.isFresh(now: t0 + 200))
    }

    @Test("Expires minus Date; an invalid Expires such as 0 is already expired")
    func expires() {
        let ok = CacheFreshness(status: 200, headers: ["Date": date0, "Expires": "Sun, 06 Nov 1994 08:59:37 GMT"], requestTime: t0, responseTime: t0)
        #expect(ok.lifetime == 600)
        let zero = CacheFreshness(status: 200, headers: ["Date": date0, "Expires": "0", "Last-Modified": "Sat, 05 Nov 1994 08:49:37 GMT"], requestTime: t0, responseTime: t0)
        #expect(zero.lifetime == 0 && !zero.isFresh(now: t0))
    }

    @Test("an invalid max-age is stale even when Expires is in the future")
    func invalidMaxAge() {
        let f = CacheFreshness(status: 200, headers: ["Cache-Control": "max-age=1, max-age=2", "Date": date0, "Expires": "Sun, 06 Nov 1994 10:49:37 GMT"], requestTime: t0, responseTime: t0)
        #expect(f.lifetime == 0)
    }

    @Test("without explicit freshness, heuristically cacheable statuses get 10% of the Last-Modified age, capped")
    func heuristic() {
        let tenDaysOld = "Thu, 27 Oct 1994 08:49:37 GMT"
        let f = CacheFreshness(status: 200, headers: ["Date": date0, "Last-Modified": tenDaysOld], requestTime: t0, responseTime: t0)
        #expect(f.isHeuristic && f.lifetime == 86_400)
        let shortCap = CacheFreshness(status: 404, headers: ["Date": date0, "Last-Modified": "Sun, 06 Nov 1994 07:49:37 GMT"], requestTime: t0, responseTime: t0)
        #expect(shortCap.lifetime == 360)
        let notCacheable = CacheFreshness(status: 500, headers: ["Date": date0, "Last-Modified": tenDaysOld], requestTime: t0, responseTime: t0)
        #expect(notCacheable.lifetime == 0 && !notCacheable.isHeuristic)
        let explicitlyPublic = CacheFreshness(status: 302, headers: ["Cache-Control": "public", "Date": date0, "Last-Modified": tenDaysOld], requestTime: t0, responseTime: t0)
        #expect(explicitlyPublic.isHeuristic)
    }

    @Test("a missing Date uses the receipt time; s-maxage is ignored by a private cache")
    func privateCache() {
        let f = CacheFreshness(status: 200, headers: ["Cache-Control": "s-maxage=500"], requestTime: t0, responseTime: t0)
        #expect(f.lifetime == 0 && f.initialAge == 0)
    }
}
