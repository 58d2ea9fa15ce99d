import Testing
@testable import TesseraHTTP

@Suite("CacheVary")
struct CacheVaryTests {
    @Test("a stored response matches requests with the same values of the Vary fields")
    func matching() {
        let vary = CacheVary(response: ["Vary": "Accept-Encoding, Accept-Language"], request: ["Accept-Encoding": "gzip, br", "User-Agent": "a"])
        #expect(vary.matches(["accept-encoding": "gzip,br", "User-Agent": "b"]))
        #expect(!vary.matches(["Accept-Encoding": "gzip"]))
        #expect(!vary.matches(["Accept-Encoding": "gzip, br", "Accept-Language": "en"]))
    }

    @Test("Vary: * never matches; no Vary always matches; names are deduplicated across lines")
    func special() {
        var response = HTTPHeaders()
        response.add("Vary", "Origin")
        response.add("Vary", "*")
        #expect(!CacheVary(response: response, request: [:]).matches([:]))
        #expect(CacheVary(response: [:], request: ["X": "1"]).matches(["X": "2"]))
        var twice = HTTPHeaders()
        twice.add("Vary", "Origin, origin")
        twice.add("Vary", "ORIGIN")
        #expect(CacheVary(response: twice, request: [:]).fields?.count == 1)
    }
}
