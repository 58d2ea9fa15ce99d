import Foundation
import Testing
import TesseraPlaylist

@Suite("EXT-X-DEFINE and variable substitution")
struct VariableSubstitutionTests {
    @Test("NAME/VALUE variables substitute into URI lines, quoted strings and hexadecimal values (§4.3)")
    func substitution() throws {
        let playlist = try Parse.media("""
        #EXTM3U
        #EXT-X-VERSION:8
        #EXT-X-DEFINE:NAME="host",VALUE="https://cdn.example"
        #EXT-X-DEFINE:NAME="iv",VALUE="0123456789abcdef0123456789abcdef"
        #EXT-X-TARGETDURATION:2
        #EXT-X-KEY:METHOD=AES-128,URI="{$host}/key",IV=0x{$iv}
        #EXTINF:2,
        {$host}/seg1.ts
        """)
        #expect(playlist.segments[0].uri == "https://cdn.example/seg1.ts")
        #expect(playlist.segments[0].identityKey?.uri == "https://cdn.example/key")
        #expect(playlist.segments[0].identityKey?.iv?.first == 0x01)
        #expect(playlist.defines.map(\.name) == ["host", "iv"])
    }

    @Test("a reference to a variable not defined earlier is an error (§4.3)")
    func undefined() {
        let text = "#EXTM3U\n#EXT-X-VERSION:8\n#EXT-X-TARGETDURATION:2\n#EXTINF:2,\n{$later}/a.ts\n#EXT-X-DEFINE:NAME=\"later\",VALUE=\"x\"\n"
        #expect(Parse.error(text)?.code == .undefinedVariable)
        #expect(Parse.error(text)?.line == 5)
    }

    @Test("a variable defined twice is an error (§4.4.2.3)")
    func duplicate() {
        let text = "#EXTM3U\n#EXT-X-DEFINE:NAME=\"a\",VALUE=\"1\"\n#EXT-X-DEFINE:NAME=\"a\",VALUE=\"2\"\n"
        #expect(Parse.error(text)?.code == .duplicateVariable)
    }

    @Test("a definition needs exactly one of NAME, IMPORT, QUERYPARAM, a VALUE with NAME, and a legal name")
    func invalidDefinitions() {
        for text in ["#EXT-X-DEFINE:VALUE=\"1\"", "#EXT-X-DEFINE:NAME=\"a\"", "#EXT-X-DEFINE:NAME=\"a b\",VALUE=\"1\"",
                     "#EXT-X-DEFINE:NAME=\"a\",IMPORT=\"b\",VALUE=\"1\""] {
            #expect(Parse.error("#EXTM3U\n\(text)\n")?.code == .invalidVariableDefinition, "\(text)")
        }
    }

    @Test("IMPORT takes the multivariant playlist's variable, and fails without one (§4.4.2.3)")
    func importing() throws {
        let text = "#EXTM3U\n#EXT-X-VERSION:8\n#EXT-X-DEFINE:IMPORT=\"token\"\n#EXT-X-TARGETDURATION:2\n#EXTINF:2,\na.ts?t={$token}\n"
        let playlist = try Parse.media(text, context: ParseContext(importableVariables: ["token": "abc"]))
        #expect(playlist.segments[0].uri == "a.ts?t=abc")
        #expect(playlist.defines.first?.source == .imported)
        #expect(Parse.error(text)?.code == .invalidVariableDefinition)
        #expect(Parse.error(text, context: ParseContext(importableVariables: [:]))?.code == .undefinedVariable)
    }

    @Test("QUERYPARAM takes the value from the playlist URL's query, percent-decoded, and needs version 11")
    func queryParameter() throws {
        let text = "#EXTM3U\n#EXT-X-VERSION:11\n#EXT-X-DEFINE:QUERYPARAM=\"session\"\n#EXT-X-TARGETDURATION:2\n#EXTINF:2,\na.ts?s={$session}\n"
        let url = URL(string: "https://cdn.example/v/index.m3u8?x=1&session=a%2Fb")!
        let playlist = try Parse.media(text, context: ParseContext(playlistURL: url))
        #expect(playlist.segments[0].uri == "a.ts?s=a/b")
        #expect(Parse.error(text, context: ParseContext(playlistURL: URL(string: "https://cdn.example/v/index.m3u8")!))?.code
                == .undefinedVariable)
        let old = text.replacingOccurrences(of: "VERSION:11", with: "VERSION:8")
        #expect(try Parse.result(old, context: ParseContext(playlistURL: url)).diagnostics.map(\.id) == [.variableVersion])
    }

    @Test("substitution below version 8 is reported (§8)")
    func version() throws {
        #expect(try Parse.ids("#EXTM3U\n#EXT-X-DEFINE:NAME=\"a\",VALUE=\"1\"\n") == [.variableVersion])
    }

    @Test("replacement text is not scanned again, and text that is not a reference stays literal")
    func noRecursion() throws {
        let playlist = try Parse.media("""
        #EXTM3U
        #EXT-X-VERSION:8
        #EXT-X-DEFINE:NAME="b",VALUE="x"
        #EXT-X-DEFINE:IMPORT="a"
        #EXT-X-TARGETDURATION:2
        #EXTINF:2,
        {$a}/{$ not a ref}/{$b
        """, context: ParseContext(importableVariables: ["a": "{$b}"]))
        #expect(playlist.segments[0].uri == "{$b}/{$ not a ref}/{$b")
    }

    @Test("a definition's VALUE may use an earlier variable")
    func chained() throws {
        let text = "#EXTM3U\n#EXT-X-VERSION:8\n#EXT-X-DEFINE:NAME=\"b\",VALUE=\"x\"\n#EXT-X-DEFINE:NAME=\"a\",VALUE=\"{$b}y\"\n"
        #expect(try Parse.multivariant(text).defines.last?.resolvedValue == "xy")
    }

    @Test("an expansion bomb is refused by the expanded-size bound")
    func bomb() {
        var text = "#EXTM3U\n#EXT-X-VERSION:8\n#EXT-X-DEFINE:NAME=\"a\",VALUE=\"\(String(repeating: "x", count: 60_000))\"\n#EXT-X-TARGETDURATION:2\n"
        for _ in 0..<200 { text += "#EXTINF:2,\n{$a}{$a}\n" }
        var limits = PlaylistLimits()
        limits.maximumExpandedBytes = 10 << 20
        do {
            _ = try PlaylistParser(limits: limits).parse(Array(text.utf8))
            Issue.record("accepted")
        } catch {
            #expect(error.code == .limitExceeded)
        }
    }
}
