import Foundation
import Testing
import TesseraPlaylist
import TesseraTestSupport

@Suite("PlaylistWriter")
struct PlaylistWriterTests {
    /// Every playlist the tests know: fixtures, the fuzz corpus, and the tag tests' inline texts.
    static let corpus: [(String, String)] = {
        var out: [(String, String)] = []
        // Arguments cannot throw: an unreadable input is left out here, and `corpusIsComplete`
        // fails when anything is missing.
        for path in (try? FixtureStore.playlistPaths()) ?? [] {
            if let bytes = try? FixtureStore.bytes(path) { out.append((path, String(decoding: bytes, as: UTF8.self))) }
        }
        for url in FuzzInputs.files("FuzzPlaylistParser") {
            if let data = try? Data(contentsOf: url) { out.append((url.lastPathComponent, String(decoding: data, as: UTF8.self))) }
        }
        out.append(("media with an invalid target and nothing else", "#EXTM3U\n#EXT-X-VERSION:3\n#EXT-X-TARGETDURATION:x\n"))
        out.append(("low-latency", LowLatencyTagTests.live))
        out.append(("multivariant", MultivariantTagTests.text))
        out.append(("keys and maps", """
        #EXTM3U
        #EXT-X-VERSION:7
        #EXT-X-TARGETDURATION:2
        #EXT-X-MEDIA-SEQUENCE:9
        #EXT-X-KEY:METHOD=AES-128,URI="k1",IV=0x000102030405060708090A0B0C0D0E0F
        #EXT-X-MAP:URI="init.mp4",BYTERANGE="100@0"
        #EXT-X-KEY:METHOD=AES-128,URI="k2"
        #EXT-X-KEY:METHOD=SAMPLE-AES,URI="skd://x",KEYFORMAT="com.apple.streamingkeydelivery",KEYFORMATVERSIONS="1"
        #EXT-X-BITRATE:900
        #EXTINF:2.002,title, with comma
        a.m4s
        #EXT-X-KEY:METHOD=NONE
        #EXT-X-GAP
        #EXT-X-PROGRAM-DATE-TIME:2026-01-01T00:00:00.000Z
        #EXTINF:1.5,
        #EXT-X-BYTERANGE:10@5
        b.m4s
        #EXT-X-CUE-IN
        #EXTINF:2,
        #EXT-X-BYTERANGE:20
        b.m4s
        #EXT-X-DATERANGE:ID="d",START-DATE="2026-01-01T00:00:00Z",X-N=-0.000001,X-H=0x00FF,SCTE35-CMD=0xFC
        #EXT-X-ENDLIST
        """))
        out.append(("a variable whose imported or query value holds a reference", Self.referenceInValue))
        return out
    }()

    /// IMPORT `a` and QUERYPARAM `q` both resolve to `{$b}` (see `context`), and `b` is defined:
    /// the substituted URIs hold `{$b}` literally, which a second parse must not substitute.
    static let referenceInValue = """
        #EXTM3U
        #EXT-X-VERSION:11
        #EXT-X-DEFINE:NAME="b",VALUE="wrong"
        #EXT-X-DEFINE:IMPORT="a"
        #EXT-X-DEFINE:QUERYPARAM="q"
        #EXT-X-TARGETDURATION:4
        #EXT-X-KEY:METHOD=AES-128,URI="{$q}/key"
        #EXTINF:4,{$a}
        {$a}/seg.ts
        #EXT-X-ENDLIST
        """

    /// The context every corpus entry is read in.
    static let context = ParseContext(playlistURL: URL(string: "https://example.test/p.m3u8?a=1&q=%7B%24b%7D"),
                                      importableVariables: ["a": "{$b}"])

    @Test("the round-trip corpus holds every fixture playlist and every fuzz corpus file")
    func corpusIsComplete() throws {
        let names = Set(Self.corpus.map(\.0))
        let fixtures = try FixtureStore.playlistPaths()
        let fuzzInputs = FuzzInputs.files("FuzzPlaylistParser").map(\.lastPathComponent)
        #expect(!fixtures.isEmpty && !fuzzInputs.isEmpty)
        #expect(fixtures.filter { !names.contains($0) } == [])
        #expect(fuzzInputs.filter { !names.contains($0) } == [])
    }

    @Test("parse → write → parse gives an equal model", arguments: corpus.map(\.0))
    func roundTrip(name: String) throws {
        let text = try #require(Self.corpus.first { $0.0 == name }?.1)
        let context = Self.context
        let first = try PlaylistParser().parse(Array(text.utf8), context: context)
        let written = PlaylistWriter().write(first.playlist)
        let second = try PlaylistParser().parse(Array(written.utf8), context: context)
        #expect(second.playlist == first.playlist, "\(written)")
        #expect(PlaylistWriter().write(second.playlist) == written)
    }

    @Test("a value that came from a variable holding {$name} is written as that variable's reference, so it is not substituted twice")
    func referenceInValue() throws {
        let parsed = try PlaylistParser().parse(Array(Self.referenceInValue.utf8), context: Self.context)
        guard case .media(let media) = parsed.playlist else { Issue.record("not a media playlist"); return }
        #expect(media.segments.first?.uri == "{$b}/seg.ts" && media.segments.first?.keys.first?.uri == "{$b}/key")
        #expect(media.segments.first?.title == "{$a}")    // EXTINF titles are never substituted
        let written = PlaylistWriter().write(parsed.playlist)
        #expect(written.contains("\n{$a}/seg.ts\n") || written.contains("\n{$q}/seg.ts\n"))
        #expect(written.contains("#EXTINF:4,{$a}\n"))
        #expect(try PlaylistParser().parse(Array(written.utf8), context: Self.context).playlist == parsed.playlist)
        #expect(throws: PlaylistError.self) { try media.removingDefines() }
    }

    @Test("canonical text: fixed tag order, spec attribute order, no exponents, LF endings")
    func golden() throws {
        let parsed = try PlaylistParser().parse(Array("""
        #EXTM3U\r
        #EXT-X-TARGETDURATION:4\r
        #EXT-X-VERSION:6\r
        #EXT-X-SERVER-CONTROL:PART-HOLD-BACK=0.000015,CAN-BLOCK-RELOAD=YES\r
        #EXTINF:4.000,\r
        a.ts\r
        #EXT-X-ENDLIST\r
        """.utf8))
        #expect(PlaylistWriter().write(parsed.playlist) == """
        #EXTM3U
        #EXT-X-VERSION:6
        #EXT-X-TARGETDURATION:4
        #EXT-X-SERVER-CONTROL:PART-HOLD-BACK=0.000015,CAN-BLOCK-RELOAD=YES
        #EXTINF:4.000,
        a.ts
        #EXT-X-ENDLIST

        """)
    }

    @Test("decimal text is positional and reads back exactly", arguments: [
        0.1, 1e-7, 123_456_789_012.5, 1e21, 29.97, 0, 6,
    ])
    func decimals(value: Double) throws {
        let text = PlaylistWriter().write(.multivariant(try Parse.multivariant(
            "#EXTM3U\n#EXT-X-START:TIME-OFFSET=\(value.formatted(.number.grouping(.never).precision(.significantDigits(1...17))))\n")))
        #expect(!text.contains("e"))
        #expect(try Parse.multivariant(text).start?.timeOffset == value)
    }
}
