import Testing
@testable import TesseraHTTP

@Suite("CacheControl")
struct CacheControlTests {
    @Test("directives are case-insensitive, tokens or quoted strings, across several field lines")
    func parsing() {
        let control = CacheControl(fieldValues: ["Max-Age=60, no-cache=\"Set-Cookie, X-A\"", " immutable ,private"])
        #expect(control.seconds("max-age") == .seconds(60))
        #expect(control.noCache && control.immutable && control.contains("private"))
        #expect(control.directives.first { $0.name == "no-cache" }?.value == "Set-Cookie, X-A")
        #expect(!control.noStore && !control.mustRevalidate)
    }

    @Test("quoted-pairs unescape; empty elements are skipped")
    func quotedPairs() {
        let control = CacheControl(fieldValues: [",, ext=\"a\\\"b\" ,, no-store"])
        #expect(control.directives.map(\.name) == ["ext", "no-store"])
        #expect(control.directives.first?.value == "a\"b")
    }

    @Test("duplicated or malformed delta-seconds are invalid, not absent (RFC 9111 §4.2.1)")
    func invalidSeconds() {
        #expect(CacheControl(fieldValues: ["max-age=10, max-age=20"]).seconds("max-age") == .invalid)
        #expect(CacheControl(fieldValues: ["max-age=ten"]).seconds("max-age") == .invalid)
        #expect(CacheControl(fieldValues: ["max-age"]).seconds("max-age") == .invalid)
        #expect(CacheControl(fieldValues: ["max-age=-1"]).seconds("max-age") == .invalid)
        #expect(CacheControl(fieldValues: ["max-age=5 junk"]).seconds("max-age") == .invalid)
        #expect(CacheControl(fieldValues: ["no-cache"]).seconds("max-age") == nil)
    }

    @Test("delta-seconds too large to represent clamp to 2^31")
    func overflow() {
        #expect(CacheControl(fieldValues: ["max-age=99999999999999999999999"]).seconds("max-age") == .seconds(2_147_483_648))
        #expect(CacheControl.deltaSeconds(" 42\t") == 42)
        #expect(CacheControl.deltaSeconds("") == nil)
    }
}
