import Testing
import TesseraPlaylist

struct NotAMediaPlaylist: Error {}

@Suite("PlaylistParser")
struct PlaylistParserTests {
    func media(_ text: String) throws -> MediaPlaylist {
        guard case .media(let playlist) = try PlaylistParser().parse(Array(text.utf8)).playlist else {
            throw NotAMediaPlaylist()
        }
        return playlist
    }

    func failure(_ text: String, policy: DiagnosticPolicy = .lenient) -> PlaylistError? {
        do {
            _ = try PlaylistParser(policy: policy).parse(Array(text.utf8))
            return nil
        } catch {
            return error
        }
    }

    func diagnostics(_ text: String) throws -> [Diagnostic] {
        try PlaylistParser().parse(Array(text.utf8)).diagnostics
    }

    @Test("a VOD media playlist gives its segments, durations, sequence numbers and end list")
    func vod() throws {
        let playlist = try media("""
        #EXTM3U
        #EXT-X-VERSION:3
        #EXT-X-TARGETDURATION:2
        #EXT-X-MEDIA-SEQUENCE:5
        #EXT-X-PLAYLIST-TYPE:VOD
        #EXTINF:1.5,first
        a.ts
        #EXT-X-DISCONTINUITY
        #EXTINF:2,
        b.ts
        #EXT-X-ENDLIST
        """)
        #expect(playlist.version == 3 && playlist.targetDuration == 2 && playlist.mediaSequence == 5)
        #expect(playlist.playlistType == .vod && playlist.hasEndList)
        #expect(playlist.segments.map(\.uri) == ["a.ts", "b.ts"])
        #expect(playlist.segments.map(\.mediaSequence) == [5, 6])
        #expect(playlist.segments.map(\.duration) == [1.5, 2])
        #expect(playlist.segments[0].title == "first" && playlist.segments[1].title == nil)
        #expect(playlist.segments.map(\.isDiscontinuity) == [false, true])
        #expect(playlist.segments[1].line == 10)
    }

    @Test("CRLF line endings and a UTF-8 BOM are accepted")
    func crlf() throws {
        let playlist = try media("\u{FEFF}#EXTM3U\r\n#EXT-X-TARGETDURATION:1\r\n#EXTINF:1,\r\na.ts\r\n#EXT-X-ENDLIST\r\n")
        #expect(playlist.segments.map(\.uri) == ["a.ts"])
    }

    @Test("a byte range without an offset continues from the previous range of the same URI (§4.4.4.2)")
    func byteRanges() throws {
        let playlist = try media("""
        #EXTM3U
        #EXT-X-TARGETDURATION:1
        #EXTINF:1,
        #EXT-X-BYTERANGE:100@0
        all.ts
        #EXTINF:1,
        #EXT-X-BYTERANGE:50
        all.ts
        """)
        #expect(playlist.segments.map { $0.byteRange?.resolvedOffset } == [0, 100])
        #expect(playlist.segments[1].byteRange?.offset == nil)
        let unplaced = try diagnostics("#EXTM3U\n#EXT-X-TARGETDURATION:1\n#EXTINF:1,\n#EXT-X-BYTERANGE:50\nall.ts\n")
        #expect(unplaced.map(\.id) == [.byteRangeWithoutPrevious])
    }

    @Test("a byte range that is not <length>[@<offset>] says which part is wrong, on the tag and on a map's attribute")
    func malformedByteRanges() throws {
        let found = try diagnostics("""
        #EXTM3U
        #EXT-X-VERSION:6
        #EXT-X-TARGETDURATION:4
        #EXTINF:4,
        #EXT-X-BYTERANGE:x
        a.ts
        #EXTINF:4,
        #EXT-X-BYTERANGE:10@y
        a.ts
        #EXT-X-MAP:URI="i.mp4",BYTERANGE="5@z"
        #EXTINF:4,
        b.ts
        """)
        #expect(found.map(\.message) == ["EXT-X-BYTERANGE must be <length>[@<offset>], not \"x\".",
                                         "EXT-X-BYTERANGE offset must be a decimal integer, not \"10@y\".",
                                         "EXT-X-MAP BYTERANGE must be \"<length>[@<offset>]\", not \"5@z\"."])
        #expect(found.map(\.line) == [5, 8, 10])
    }

    @Test("EXT-X-KEY applies to following segments and maps; METHOD=NONE ends encryption (§4.4.4.4)")
    func keys() throws {
        let playlist = try media("""
        #EXTM3U
        #EXT-X-TARGETDURATION:1
        #EXT-X-KEY:METHOD=AES-128,URI="k1",IV=0x000102030405060708090A0B0C0D0E0F
        #EXT-X-KEY:METHOD=SAMPLE-AES,URI="skd://x",KEYFORMAT="com.apple.streamingkeydelivery"
        #EXTINF:1,
        a.ts
        #EXT-X-KEY:METHOD=AES-128,URI="k2"
        #EXTINF:1,
        b.ts
        #EXT-X-KEY:METHOD=NONE
        #EXTINF:1,
        c.ts
        """)
        let first = playlist.segments[0]
        #expect(first.keys.count == 2)
        #expect(first.identityKey?.uri == "k1")
        #expect(first.identityKey?.iv == Array(0...15))
        #expect(playlist.segments[1].identityKey?.uri == "k2" && playlist.segments[1].identityKey?.iv == nil)
        #expect(playlist.segments[1].keys.count == 2)
        #expect(playlist.segments[2].keys.isEmpty)
    }

    @Test("EXT-X-MAP applies to following segments with its byte range")
    func map() throws {
        let playlist = try media("""
        #EXTM3U
        #EXT-X-TARGETDURATION:1
        #EXT-X-MAP:URI="init.mp4",BYTERANGE="1366@0"
        #EXTINF:1,
        a.m4s
        """)
        let map = try #require(playlist.segments[0].map)
        #expect(map.uri == "init.mp4")
        let range = try #require(map.byteRange)
        #expect(range.length == 1366)
    }

    @Test("a multivariant playlist is recognised with its variant URIs")
    func multivariant() throws {
        let parsed = try PlaylistParser().parse(Array("#EXTM3U\n#EXT-X-STREAM-INF:BANDWIDTH=1\nlo/index.m3u8\n".utf8))
        guard case .multivariant(let playlist) = parsed.playlist else { Issue.record("not multivariant"); return }
        #expect(playlist.variants.map(\.uri) == ["lo/index.m3u8"])
    }

    @Test("documents that are not playlists are rejected with a typed error", arguments: [
        ("", PlaylistError.Code.notAPlaylist), ("<html>", .notAPlaylist), ("#EXTM3", .notAPlaylist),
        ("#EXTM3U\n\u{1}", .invalidText),
    ])
    func notPlaylists(text: String, code: PlaylistError.Code) {
        #expect(failure(text)?.code == code)
    }

    @Test("invalid UTF-8 is rejected")
    func invalidUTF8() {
        do {
            _ = try PlaylistParser().parse(Array("#EXTM3U\n".utf8) + [0xFF, 0xFE])
            Issue.record("accepted")
        } catch {
            #expect(error.code == .invalidText)
        }
    }

    @Test("malformed values are diagnostics naming the line; the strict policy throws them", arguments: [
        ("#EXTM3U\n#EXT-X-TARGETDURATION:x\n", 2),
        ("#EXTM3U\n#EXT-X-TARGETDURATION:1\n#EXTINF:abc,\na.ts\n", 3),
        ("#EXTM3U\n#EXT-X-TARGETDURATION:1\n#EXT-X-KEY:METHOD=AES-128,URI=\"k\",IV=0x12\n", 3),
        ("#EXTM3U\n#EXT-X-TARGETDURATION:1\n#EXT-X-KEY:METHOD=AES-128\n", 3),
        ("#EXTM3U\n#EXT-X-TARGETDURATION:1\n#EXT-X-KEY:METHOD=AES-128,URI=\"k\n", 3),
        ("#EXTM3U\n#EXT-X-TARGETDURATION:1\na.ts\n", 3),
    ])
    func malformed(text: String, line: Int) throws {
        #expect(try diagnostics(text).first?.line == line)
        #expect(failure(text, policy: .strict)?.line == line)
        #expect(failure(text, policy: .strict)?.code == .diagnosticEscalated)
    }

    @Test("a media playlist without EXT-X-TARGETDURATION is reported")
    func missingTarget() throws {
        #expect(try diagnostics("#EXTM3U\n#EXTINF:1,\na.ts\n").map(\.id) == [.missingTargetDuration])
    }

    @Test("bounds on size, line length and segment count are enforced")
    func limits() {
        var limits = PlaylistLimits()
        limits.maximumBytes = 100
        #expect(throws: PlaylistError.self) { try PlaylistParser(limits: limits).parse([UInt8](repeating: 0x23, count: 101)) }
        limits = PlaylistLimits()
        limits.maximumLineBytes = 10
        #expect(throws: PlaylistError.self) { try PlaylistParser(limits: limits).parse(Array("#EXTM3U\n#EXT-X-TARGETDURATION:1\n".utf8)) }
        limits = PlaylistLimits()
        limits.maximumElements = 1
        let two = "#EXTM3U\n#EXT-X-TARGETDURATION:1\n#EXTINF:1,\na\n#EXTINF:1,\nb\n"
        #expect(throws: PlaylistError.self) { try PlaylistParser(limits: limits).parse(Array(two.utf8)) }
    }
}

