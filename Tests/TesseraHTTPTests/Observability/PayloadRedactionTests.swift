import Testing
import TesseraHTTP

@Suite("PayloadRedaction")
struct PayloadRedactionTests {
    static let jwt = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NSJ9.c2lnbmF0dXJlLXZhbHVl"

    @Test("JSON keeps its shape; credential-like keys and JWT-like strings are masked at any depth")
    func json() {
        let body = #"{"user":{"name":"ada","Api-Key":"k1","session_id":7},"items":[{"refresh_token":"r"},"\#(Self.jwt)"],"ok":false}"#
        let redacted = PayloadRedaction.redact(Array(body.utf8))
        #expect(redacted == #"{"items":[{"refresh_token":"<redacted>"},"<redacted>"],"ok":false,"user":{"Api-Key":"<redacted>","name":"ada","session_id":"<redacted>"}}"#)
    }

    @Test("text: name=value pairs, 'name: value' and bare JWTs are masked; other words stay")
    func text() {
        let body = "error for user=ada&token=abc; password: hunter2 (bearer \(Self.jwt))"
        let redacted = PayloadRedaction.redact(Array(body.utf8))
        #expect(redacted == "error for user=ada&token=<redacted> password: <redacted> (bearer <redacted>")
    }

    @Test("binary bodies are summarised; long ones are cut at a character boundary")
    func boundsAndBinary() {
        #expect(PayloadRedaction.redact([0xFF, 0xFE, 0x00]) == "<3 bytes of binary data>")
        let long = PayloadRedaction.redact(Array(String(repeating: "é", count: 100).utf8), limit: 11)
        #expect(long == String(repeating: "é", count: 5) + "…")
        #expect(PayloadRedaction.redact([]) == "")
    }
}
