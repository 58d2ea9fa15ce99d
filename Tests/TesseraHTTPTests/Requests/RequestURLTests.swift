import Foundation
import Testing
@testable import TesseraHTTP

@Suite("RequestURL")
struct RequestURLTests {
    let base = URL(string: "https://api.example.com:8443/v2/")!

    @Test("paths go after the base path with one slash; segments and query values are percent-encoded; repeated names stay in order")
    func building() throws {
        let url = try RequestURL.make(base: base, path: "/streams/a b/€", query: [("tag", "x&y=z"), ("tag", "2"), ("q", "a+b c")])
        #expect(url.absoluteString == "https://api.example.com:8443/v2/streams/a%20b/%E2%82%AC?tag=x%26y%3Dz&tag=2&q=a%2Bb%20c")
        let noSlash = try RequestURL.make(base: URL(string: "https://h.example/v1")!, path: "items")
        #expect(noSlash.absoluteString == "https://h.example/v1/items")
        let v6 = try RequestURL.make(base: URL(string: "https://[::1]:8443")!, path: "p")
        #expect(v6.absoluteString == "https://[::1]:8443/p")
    }

    @Test("segments as written: an empty path is the base and one slash, empty and trailing segments are kept, '...' and '.x' are names")
    func segments() throws {
        let cases: [(String, String)] = [
            ("", "https://api.example.com:8443/v2/"), ("///", "https://api.example.com:8443/v2/"),
            ("a/", "https://api.example.com:8443/v2/a/"), ("a//b", "https://api.example.com:8443/v2/a//b"),
            ("/.../.x/x.", "https://api.example.com:8443/v2/.../.x/x."), ("%/a", "https://api.example.com:8443/v2/%25/a"),
        ]
        for (path, expected) in cases {
            #expect(try RequestURL.make(base: base, path: path).absoluteString == expected, "path \(path)")
        }
        for path in [".", "..", "a/.", "./a", "a/../b", "a/./b/"] {
            #expect(performing: { _ = try RequestURL.make(base: base, path: path) },
                    throws: { ($0 as? HTTPError)?.code.rawValue == "bad-path" })
        }
    }

    @Test("refused: ? or # in the path, dot segments, http without opt-in, user-info, fragments, queries in the base")
    func refusals() throws {
        let cases: [(URL, String, Bool, String)] = [
            (base, "a?b=1", false, "bad-path"), (base, "a#b", false, "bad-path"), (base, "a/../b", false, "bad-path"),
            (URL(string: "http://h.example/")!, "a", false, "insecure-base-url"),
            (URL(string: "https://u:p@h.example/")!, "a", false, "bad-base-url"),
            (URL(string: "https://h.example/#f")!, "a", false, "bad-base-url"),
            (URL(string: "https://h.example/?k=v")!, "a", false, "bad-base-url"),
            (URL(string: "ftp://h.example/")!, "a", true, "bad-base-url"),
        ]
        for (base, path, allowHTTP, code) in cases {
            #expect(performing: { _ = try RequestURL.make(base: base, path: path, allowHTTP: allowHTTP) },
                    throws: { ($0 as? HTTPError)?.code.rawValue == code })
        }
        #expect(try RequestURL.make(base: URL(string: "http://127.0.0.1:8080")!, path: "x", allowHTTP: true).absoluteString == "http://127.0.0.1:8080/x")
    }
}
