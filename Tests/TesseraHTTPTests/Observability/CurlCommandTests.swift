import Foundation
import Testing
@testable import TesseraHTTP

@Suite("CurlCommand")
struct CurlCommandTests {
    private var request: HTTPRequest {
        var request = HTTPRequest(url: URL(string: "https://u:pw@api.example/v1/items?token=abc&page=2#x")!)
        request.method = .post
        request.headers.add("Authorization", "Bearer secret")
        request.headers.add("X-Note", "it's")
        request.body = .bytes(Array("{\"a\":1}".utf8))
        request.byteRange = ByteRange(offset: 0, length: 10)
        return request
    }

    @Test("by default header values, query values and the body are redacted; user-info and fragment never appear")
    func redacted() {
        let text = CurlCommand(request).text
        #expect(text == "curl -X POST 'https://api.example/v1/items?token=<redacted>&page=<redacted>' -r 0-9 -H 'Authorization: <redacted>' -H 'X-Note: <redacted>' --data-binary '<7 bytes omitted>'")
        for secret in ["secret", "abc", "pw", "#x", "\"a\""] { #expect(!text.contains(secret)) }
    }

    @Test("each part is revealed only when asked, shell-quoted")
    func revealed() {
        let text = CurlCommand(request, reveal: [.headerValues, .queryValues, .body]).text
        #expect(text == "curl -X POST 'https://api.example/v1/items?token=abc&page=2' -r 0-9 -H 'Authorization: Bearer secret' -H 'X-Note: it'\\''s' --data-binary '{\"a\":1}'")
        #expect(!text.contains("pw"))
    }
}
