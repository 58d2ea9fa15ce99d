import Testing
@testable import TesseraHTTP

@Suite("CacheValidation")
struct CacheValidationTests {
    @Test("conditional fields come from the stored validators")
    func conditional() {
        let headers = CacheValidation.conditionalHeaders(for: ["ETag": "W/\"v1\"", "Last-Modified": "Sun, 06 Nov 1994 08:49:37 GMT"])
        #expect(headers["If-None-Match"] == "W/\"v1\"")
        #expect(headers["If-Modified-Since"] == "Sun, 06 Nov 1994 08:49:37 GMT")
        #expect(CacheValidation.conditionalHeaders(for: ["Content-Type": "text/plain"]).count == 0)
    }

    @Test("a 304 applies only when its validators select the stored response (RFC 9111 §4.3.4)")
    func selection() {
        let stored: HTTPHeaders = ["ETag": "\"a\"", "Last-Modified": "Sun, 06 Nov 1994 08:49:37 GMT"]
        #expect(CacheValidation.notModified(["ETag": "\"a\""], matches: stored))
        #expect(!CacheValidation.notModified(["ETag": "\"b\""], matches: stored))
        #expect(CacheValidation.notModified(["ETag": "W/\"a\""], matches: stored))
        #expect(CacheValidation.notModified(["Last-Modified": "Sun, 06 Nov 1994 08:49:37 GMT"], matches: ["Last-Modified": "Sun, 06 Nov 1994 08:49:37 GMT"]))
        #expect(!CacheValidation.notModified(["Last-Modified": "Mon, 07 Nov 1994 08:49:37 GMT"], matches: stored))
        #expect(!CacheValidation.notModified([:], matches: stored))
        #expect(CacheValidation.notModified([:], matches: ["ETag": "W/\"a\""]))
        #expect(CacheValidation.notModified([:], matches: [:]))
    }

    @Test("a 304 replaces metadata fields but never the stored content's length or encoding")
    func update() {
        let stored: HTTPHeaders = ["Content-Length": "10", "Cache-Control": "max-age=1", "Link": "</a>", "ETag": "\"a\""]
        var fresh = HTTPHeaders()
        fresh.add("Cache-Control", "max-age=60")
        fresh.add("Link", "</b>")
        fresh.add("Link", "</c>")
        fresh.add("Content-Length", "0")
        fresh.add("Connection", "close")
        let merged = CacheValidation.updated(stored, with: fresh)
        #expect(merged["Content-Length"] == "10")
        #expect(merged["Cache-Control"] == "max-age=60")
        #expect(merged.values("Link") == ["</b>", "</c>"])
        #expect(merged["ETag"] == "\"a\"")
        #expect(merged["Connection"] == nil)
    }
}
