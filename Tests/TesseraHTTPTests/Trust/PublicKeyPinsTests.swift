import Foundation
import Testing
@testable import TesseraHTTP

@Suite("PublicKeyPins")
struct PublicKeyPinsTests {
    let a = "sha256//" + Data(repeating: 1, count: 32).base64EncodedString()
    let b = "sha256//" + Data(repeating: 2, count: 32).base64EncodedString()

    @Test("exact hosts and one-label wildcards; several pins per host for rotation; unpinned hosts get none")
    func matching() throws {
        var pins = PublicKeyPins()
        try pins.pin("CDN.example.com", [a, b])
        try pins.pin("*.example.com", [b])
        #expect(pins.curlOption(for: "cdn.example.com") == "\(a);\(b)")
        #expect(pins.curlOption(for: "img.Example.com") == b)
        #expect(pins.digests(for: "a.b.example.com") == nil)
        #expect(pins.digests(for: "example.com") == nil)
        #expect(pins.digests(for: "other.org") == nil)
    }

    @Test("malformed pins and patterns are typed errors")
    func refusals() {
        var pins = PublicKeyPins()
        for (host, list) in [("x.com", ["sha1//AAAA"]), ("x.com", ["sha256//not base64!"]),
                             ("x.com", ["sha256//" + Data(count: 20).base64EncodedString()]), ("x.com", []),
                             ("*.*.x.com", [a]), ("", [a]), ("x..com", [a])] {
            #expect(throws: HTTPError.self, "\(host) \(list)") { try pins.pin(host, list) }
        }
        #expect(pins.rules.isEmpty)
    }
}
