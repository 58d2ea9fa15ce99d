import Foundation
import Testing
@testable import TesseraHTTP
import TesseraSupport

@Suite("URL redaction")
struct URLRedactionTests {
    let jwt = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U"

    @Test("messages drop user-info, query and fragment entirely")
    func messages() throws {
        let url = try #require(URL(string: "https://user:secret@cdn.example:8443/a/b.m3u8?token=abc#frag"))
        #expect(URLRedaction.redact(url) == "https://cdn.example:8443/a/b.m3u8?<redacted>")
    }

    @Test("events keep query names in order with values redacted, and mask JWT-like path segments")
    func events() throws {
        let url = try #require(URL(string: "https://user:pw@cdn.example/live/\(jwt)/index.m3u8?sig=xyz&exp=1&exp=2&flag#frag"))
        let text = URLRedaction.forEvents(url)
        #expect(text == "https://cdn.example/live/<jwt>/index.m3u8?sig=<redacted>&exp=<redacted>&exp=<redacted>&flag=<redacted>")
        #expect(!text.contains("pw") && !text.contains("xyz") && !text.contains("frag"))
        let plain = try #require(URL(string: "https://cdn.example/v1.2.3/seg.ts"))
        #expect(URLRedaction.forEvents(plain) == "https://cdn.example/v1.2.3/seg.ts")
    }
}
