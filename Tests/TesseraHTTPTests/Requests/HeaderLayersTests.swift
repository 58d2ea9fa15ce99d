import Testing
@testable import TesseraHTTP

@Suite("HeaderLayers")
struct HeaderLayersTests {
    @Test("defaults < endpoint < body content type < interceptors < authentication, whatever order they are set in")
    func precedence() {
        var layers = HeaderLayers()
        layers.set(.authentication, ["Authorization": "Bearer new"])
        layers.set(.interceptors, ["authorization": "Bearer stale", "X-Trace": "i"])
        layers.set(.bodyContentType, ["Content-Type": "application/json"])
        var endpoint = HTTPHeaders()
        endpoint.add("Accept", "application/json")
        endpoint.add("Link", "</a>")
        endpoint.add("Link", "</b>")
        endpoint.add("content-type", "text/plain")
        layers.set(.endpoint, endpoint)
        layers.set(.defaults, ["User-Agent": "tessera", "Accept": "*/*"])
        let merged = layers.merged
        #expect(merged["User-Agent"] == "tessera")
        #expect(merged.values("Accept") == ["application/json"])
        #expect(merged.values("Link") == ["</a>", "</b>"])
        #expect(merged.values("Content-Type") == ["application/json"])
        #expect(merged.values("Authorization") == ["Bearer new"])
        #expect(merged["X-Trace"] == "i")
    }
}
